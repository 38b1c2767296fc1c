// Rate limits (docs/access.md, "Rate limits"): per API key, per user, per anonymous IP; 2400, 1200 and 120 a minute
// by default, configurable. Standard RateLimit headers on every response; over the limit 429 with
// Retry-After, and on /graphql a GraphQL body with code RATE_LIMITED. With REDIS_URL, replicas share
// the counters.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, fetchAs, fetchFrom, postGraphQL } from '../../support/api-client.ts';
import { loadConfig } from '../../../src/config/config.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, requiredEngineUrl } from '../../support/needs.ts';
import { hs256Token, JWT_SECRET } from '../../support/user-tokens.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

const LIMITS = { key: 5, user: 3, anonymous: 2 };
const QUERY = '{ building(siteId: "alpha") { name } }';

/** The parts of a draft-7 `RateLimit` header: `limit=5, remaining=4, reset=60`. */
function rateLimit(res: Response): { limit: number; remaining: number; reset: number } {
  const header = res.headers.get('ratelimit');
  expect(header, 'RateLimit header').not.toBeNull();
  const parts = Object.fromEntries(header!.split(',').map((part) => part.trim().split('=') as [string, string]));
  return { limit: Number(parts.limit), remaining: Number(parts.remaining), reset: Number(parts.reset) };
}

/** Expects a REST 429 with Retry-After, the RateLimit headers at zero and a RATE_LIMITED body. */
async function expectLimited(res: Response, limit: number): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(rateLimit(res)).toMatchObject({ limit, remaining: 0 });
  expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED', detail: expect.any(String) });
}

/** Expects a GraphQL 429: Retry-After and a GraphQL response whose error has code RATE_LIMITED. */
async function expectGraphQLLimited(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('content-type')).toMatch(/json/);
  const body = await res.json();
  expect(body.data).toBeUndefined();
  expect(body.errors).toHaveLength(1);
  expect(body.errors[0]).toMatchObject({ message: expect.any(String), extensions: { code: 'RATE_LIMITED' } });
}

describe('configured limits', () => {
  let h: Harness;
  /** A fresh API key, made behind the API so that the admin's own budget is not spent. */
  const newKey = async (sites: string[] | '*' = ['alpha']) =>
    (await h.services.keys.create({ name: `rate ${randomUUID()}`, sites, write: false, admin: false })).secret;

  beforeAll(async () => {
    h = await createHarness({
      sites: { alpha: fixture('tenant-a') },
      env: {
        BKG_JWT_SECRET: JWT_SECRET,
        BKG_RATE_LIMIT_KEY: String(LIMITS.key),
        BKG_RATE_LIMIT_USER: String(LIMITS.user),
        BKG_RATE_LIMIT_ANONYMOUS: String(LIMITS.anonymous),
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('sends RateLimit and RateLimit-Policy on every answer: 200, 404, 403, 400 and GraphQL', async () => {
    const as = fetchAs(h, await newKey());
    const answers = [
      await as('/api/v1/sites/alpha/'),
      await as('/api/v1/sites/beta/'),
      await as('/api/v1/sites/alpha/graph', { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' }),
      await postGraphQL(
        h,
        (await h.services.keys.create({ name: 'gql', sites: ['alpha'], write: false, admin: false })).secret,
        QUERY,
      ),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 404, 403, 200]);
    for (const res of answers) expect(res.headers.get('ratelimit-policy')).toBe(`${LIMITS.key};w=60`);
    expect(answers.slice(0, 3).map((r) => rateLimit(r).remaining)).toEqual([4, 3, 2]);
    for (const res of answers) {
      const { limit, reset } = rateLimit(res);
      expect(limit).toBe(LIMITS.key);
      expect(reset).toBeGreaterThan(0);
      expect(reset).toBeLessThanOrEqual(60);
    }
  });

  it(`an API key gets ${LIMITS.key} requests, REST and GraphQL together, then 429 with Retry-After`, async () => {
    const key = await newKey();
    const as = fetchAs(h, key);
    const statuses = [];
    for (let i = 0; i < LIMITS.key; i++)
      statuses.push(i % 2 ? (await postGraphQL(h, key, QUERY)).status : (await as('/api/v1/sites/alpha/')).status);
    expect(statuses).toEqual(Array(LIMITS.key).fill(200));
    await expectLimited(await as('/api/v1/sites/alpha/'), LIMITS.key);
    await expectGraphQLLimited(await postGraphQL(h, key, QUERY));
    await expectLimited(await as('/api/v1/sites/'), LIMITS.key);
  });

  it('counts MCP calls (/mcp) with the key’s REST and GraphQL requests, and refuses the one over with 429', async () => {
    const key = await newKey();
    const as = fetchAs(h, key);
    const mcp = (id: number) =>
      as('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'list_sites', arguments: {} },
        }),
      });
    const statuses = [];
    for (let i = 0; i < LIMITS.key - 1; i++) statuses.push((await mcp(i)).status);
    statuses.push((await as('/api/v1/sites/alpha/')).status);
    expect(statuses).toEqual(Array(LIMITS.key).fill(200));
    await expectLimited(await mcp(99), LIMITS.key);
  });

  it('counts each API key on its own', async () => {
    const [first, second] = [await newKey(), await newKey()];
    for (let i = 0; i < LIMITS.key; i++) await fetchAs(h, first)('/api/v1/sites/');
    await expectLimited(await fetchAs(h, first)('/api/v1/sites/'), LIMITS.key);
    const other = await fetchAs(h, second)('/api/v1/sites/');
    expect(other.status).toBe(200);
    expect(rateLimit(other)).toMatchObject({ limit: LIMITS.key, remaining: LIMITS.key - 1 });
  });

  it(`a user gets ${LIMITS.user} requests, counted by user id across tokens, then 429`, async () => {
    const sub = `user-${randomUUID()}`;
    const first = await hs256Token({ sub, sites: ['alpha'] });
    const second = await hs256Token({ sub, sites: '*' });
    expect(rateLimit(await fetchAs(h, first)('/api/v1/sites/alpha/'))).toEqual({
      limit: LIMITS.user,
      remaining: 2,
      reset: expect.any(Number),
    });
    expect((await postGraphQL(h, second, QUERY)).status).toBe(200);
    expect((await fetchAs(h, first)('/api/v1/sites/alpha/')).status).toBe(200);
    await expectLimited(await fetchAs(h, second)('/api/v1/sites/alpha/'), LIMITS.user);
    await expectGraphQLLimited(await postGraphQL(h, first, QUERY));
    const someoneElse = await fetchAs(h, await hs256Token({ sites: ['alpha'] }))('/api/v1/sites/alpha/');
    expect(someoneElse.status).toBe(200);
  });

  it(`an anonymous client gets ${LIMITS.anonymous} requests per IP, then 429; another IP is counted apart`, async () => {
    const ip = clientIp();
    const first = await fetchFrom(
      h,
      null,
      ip,
    )('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(first.status).toBe(200);
    expect(rateLimit(first)).toMatchObject({ limit: LIMITS.anonymous, remaining: 1 });
    // REST answers 401 to anonymous callers, and still counts.
    const rest = await fetchFrom(h, null, ip)('/api/v1/sites/');
    expect(rest.status).toBe(401);
    expect(rateLimit(rest)).toMatchObject({ limit: LIMITS.anonymous, remaining: 0 });
    await expectGraphQLLimited(
      await fetchFrom(
        h,
        null,
        ip,
      )('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: QUERY }),
      }),
    );
    await expectLimited(await fetchFrom(h, null, ip)('/api/v1/sites/'), LIMITS.anonymous);
    const elsewhere = await fetchFrom(
      h,
      null,
      clientIp(),
    )('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(elsewhere.status).toBe(200);
  });

  it('a GraphQL GET over the limit answers a GraphQL body too', async () => {
    const key = await newKey();
    for (let i = 0; i < LIMITS.key; i++) await fetchAs(h, key)('/api/v1/sites/');
    await expectGraphQLLimited(
      await fetchAs(h, key)(`/graphql?query=${encodeURIComponent(QUERY)}`, { headers: { accept: 'application/json' } }),
    );
  });

  it('leaves the probes out: /healthz and /readyz answer 200 past any limit, without RateLimit headers', async () => {
    const ip = clientIp();
    for (let i = 0; i < LIMITS.anonymous * 3; i++) {
      for (const probe of ['/healthz', '/readyz']) {
        const res = await fetchFrom(h, null, ip)(probe);
        expect(res.status, probe).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
      }
    }
    expect((await fetchFrom(h, null, ip)('/api/v1/sites/')).status).toBe(401);
  });
});

describe('default limits', () => {
  it('are 2400 per API key, 1200 per user and 120 per anonymous IP, per minute', () => {
    expect(loadConfig({}).rateLimits).toEqual({ key: 2400, user: 1200, anonymous: 120, windowMs: 60_000 });
  });

  it('are what a service started without BKG_RATE_LIMIT_* announces', async () => {
    const h = await createHarness({
      sites: { alpha: fixture('tenant-a') },
      env: {
        BKG_JWT_SECRET: JWT_SECRET,
        BKG_RATE_LIMIT_KEY: '',
        BKG_RATE_LIMIT_USER: '',
        BKG_RATE_LIMIT_ANONYMOUS: '',
      },
    });
    try {
      const key = (await h.services.keys.create({ name: 'defaults', sites: '*', write: false, admin: false })).secret;
      const policies = {
        key: (await fetchAs(h, key)('/api/v1/sites/')).headers.get('ratelimit-policy'),
        user: (await fetchAs(h, await hs256Token({ sites: '*' }))('/api/v1/sites/')).headers.get('ratelimit-policy'),
        anonymous: (
          await fetchFrom(
            h,
            null,
            clientIp(),
          )('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: QUERY }),
          })
        ).headers.get('ratelimit-policy'),
      };
      expect(policies).toEqual({ key: '2400;w=60', user: '1200;w=60', anonymous: '120;w=60' });
    } finally {
      await h.close();
    }
  });
});

describeNeeding(['REDIS_URL'], 'shared counters in Redis across two instances', () => {
  const SHARED = { user: 4, anonymous: 3 };
  let a: Harness;
  let b: Harness;
  beforeAll(async () => {
    const env = {
      REDIS_URL: requiredEngineUrl('REDIS_URL'),
      BKG_JWT_SECRET: JWT_SECRET,
      BKG_RATE_LIMIT_USER: String(SHARED.user),
      BKG_RATE_LIMIT_ANONYMOUS: String(SHARED.anonymous),
    };
    [a, b] = await Promise.all([
      createHarness({ sites: { alpha: fixture('tenant-a') }, env }),
      createHarness({ sites: { alpha: fixture('tenant-a') }, env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('both instances report Redis ready', async () => {
    for (const h of [a, b])
      expect(await (await fetchAs(h, null)('/readyz')).json()).toMatchObject({
        status: 'ready',
        engines: { redis: 'ok' },
      });
  });

  it('a user (unique to this run) gets the limit once across both instances, not once on each', async () => {
    const token = await hs256Token({ sub: `redis-user-${randomUUID()}`, sites: ['alpha'] });
    const remaining = [];
    for (const h of [a, b, a, b]) {
      const res = await fetchAs(h, token)('/api/v1/sites/alpha/');
      expect(res.status).toBe(200);
      remaining.push(rateLimit(res).remaining);
    }
    expect(remaining).toEqual([3, 2, 1, 0]);
    await expectLimited(await fetchAs(a, token)('/api/v1/sites/alpha/'), SHARED.user);
    await expectGraphQLLimited(await postGraphQL(b, token, QUERY));
  });

  it('an anonymous IP (unique to this run) is counted across both instances', async () => {
    const ip = clientIp();
    const statuses = [];
    for (const h of [a, b, a, b]) {
      statuses.push(
        (
          await fetchFrom(
            h,
            null,
            ip,
          )('/graphql', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: QUERY }),
          })
        ).status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
