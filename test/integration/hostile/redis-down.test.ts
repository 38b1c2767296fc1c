// Redis, which holds the rate-limit counters of every replica, goes away (killed), stops answering
// (CLIENT PAUSE), and comes back. Meanwhile no request waits on it: the limits are counted in each
// instance's memory at once, still answer 429 with Retry-After past the limit, a warning is logged
// and bkg_rate_limit_degraded says so; once Redis answers again the instances share their counters
// again. On a Redis of the test's own (test/support/redis-server.ts), never the suite's shared one.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientIp, fetchFrom } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding } from '../../support/needs.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { duringAttack } from './hostile-support.ts';

const fixture = readFileSync(new URL('../../../fixtures/small/tenant-a.ttl', import.meta.url), 'utf8');
const LIMIT = 4;
const QUERY = JSON.stringify({ query: '{ building(siteId: "alpha") { name } }' });
/** Without Redis a request takes milliseconds; the client's own command timeout alone would be 5 s. */
const PROMPT_MS = 1000;

/** An anonymous GraphQL request from `ip` to `h`: its status, Retry-After and how long it took. */
async function anonymous(h: Harness, ip: string): Promise<{ status: number; retryAfter: string | null; ms: number }> {
  const started = performance.now();
  const res = await fetchFrom(
    h,
    null,
    ip,
  )('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY });
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started };
}

/** One request after another, as the instances say, from one address. */
async function sequence(instances: Harness[], ip: string) {
  const answers = [];
  for (const h of instances) answers.push(await anonymous(h, ip));
  return answers;
}

/** A sample of the instance's metrics, by name (unlabelled ones). */
async function metric(h: Harness, name: string): Promise<number> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  expect(line, name).toBeDefined();
  return Number(line!.split(' ')[1]);
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not within the time allowed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An API key's request from an address of its own: another client, that must be served at once. */
async function innocent(h: Harness, key: string): Promise<void> {
  const res = await fetchFrom(h, key, clientIp())('/api/v1/sites/alpha/');
  expect(res.status).toBe(200);
  expect((await res.json()).id).toBe('alpha');
}

describeNeeding(['redis-server'], 'rate limits while Redis fails', () => {
  let redis: RedisServer;
  let a: Harness;
  let b: Harness;
  const logA: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url, BKG_RATE_LIMIT_ANONYMOUS: String(LIMIT) };
    const log = { write: (line: string) => void logA.push(JSON.parse(line)) };
    [a, b] = await Promise.all([
      createHarness({ sites: { alpha: fixture }, env: { ...env, LOG_LEVEL: 'info' }, log }),
      createHarness({ sites: { alpha: fixture }, env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  it('with Redis up, an address is counted once across both instances', async () => {
    const answers = await sequence([a, b, a, b, a], clientIp());
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 429]);
    expect(await metric(a, 'bkg_rate_limit_degraded')).toBe(0);
    expect(await metric(a, 'bkg_rate_limit_fallbacks_total')).toBe(0);
  });

  it('Redis killed: every request answers at once, the anonymous limit still holds, another client is served', async () => {
    const key = (
      await a.services.keys.create({ name: `innocent ${randomUUID()}`, sites: '*', write: false, admin: false })
    ).secret;
    await redis.stop();
    const ip = clientIp();
    const { attack } = await duringAttack(
      () => sequence(Array(LIMIT + 3).fill(a), ip),
      () => innocent(a, key),
    );
    expect(attack.map((r) => r.status)).toEqual([...Array(LIMIT).fill(200), 429, 429, 429]);
    for (const r of attack.filter((r) => r.status === 429)) expect(Number(r.retryAfter)).toBeGreaterThan(0);
    expect(Math.max(...attack.map((r) => r.ms))).toBeLessThan(PROMPT_MS);
    // Each instance counts on its own now: the other one has not seen this address.
    expect((await anonymous(b, ip)).status).toBe(200);
  });

  it('says so: a warning in the log, bkg_rate_limit_degraded 1 and a fallback counted', async () => {
    expect(await metric(a, 'bkg_rate_limit_degraded')).toBe(1);
    expect(await metric(a, 'bkg_rate_limit_fallbacks_total')).toBe(1);
    expect(logA).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'rate limits are counted in this process alone until Redis answers again',
      }),
    );
  });

  it('Redis back (empty): both instances count in Redis again, an address once across both', async () => {
    await redis.start();
    await eventually(
      async () =>
        (await metric(a, 'bkg_rate_limit_degraded')) === 0 && (await metric(b, 'bkg_rate_limit_degraded')) === 0,
    );
    expect(logA).toContainEqual(expect.objectContaining({ level: 30, msg: 'rate limits are counted in Redis again' }));
    const answers = await sequence([a, b, a, b, a, b], clientIp());
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('Redis that stops answering (CLIENT PAUSE) costs one request the command timeout at most, then nothing', async () => {
    const key = (
      await a.services.keys.create({ name: `innocent ${randomUUID()}`, sites: '*', write: false, admin: false })
    ).secret;
    await redis.command('CLIENT', 'PAUSE', '4000', 'ALL');
    const ip = clientIp();
    const { attack } = await duringAttack(
      () => sequence(Array(LIMIT + 2).fill(a), ip),
      () => innocent(a, key),
    );
    expect(attack.map((r) => r.status)).toEqual([...Array(LIMIT).fill(200), 429, 429]);
    expect(Math.max(...attack.map((r) => r.ms))).toBeLessThan(PROMPT_MS);
    // Waiting out the command timeout each, the others would take 2.5 s together.
    const rest = attack.slice(1).reduce((sum, r) => sum + r.ms, 0);
    expect(rest, 'after the first, no request waits on Redis').toBeLessThan(PROMPT_MS);
    expect(await metric(a, 'bkg_rate_limit_degraded')).toBe(1);
    await eventually(async () => (await metric(a, 'bkg_rate_limit_degraded')) === 0);
    expect(await metric(a, 'bkg_rate_limit_fallbacks_total')).toBe(2);
    expect((await sequence([b, a, b, a, b], clientIp())).map((r) => r.status)).toEqual([200, 200, 200, 200, 429]);
  });
});
