// A flood of invalid credentials from one address: guessed API keys, forged or expired user
// tokens, malformed Authorization headers. Failed authentications count against the address's
// anonymous limit: 401 within it, 429 with Retry-After past it, and once refused the address's
// tokens are not even looked up (a guessed key costs no database query), but for tokens that
// verified lately. Meanwhile another client with a valid API key is served at once. Counted in memory, and in Redis when REDIS_URL is set.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { clientIp, fetchFrom } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeVariants, requiredEngineUrl, type Variant } from '../../support/needs.ts';
import { expiredAt, hs256Token, JWT_SECRET } from '../../support/user-tokens.ts';
import { duringAttack } from './hostile-support.ts';

const fixture = readFileSync(new URL('../../../fixtures/small/tenant-a.ttl', import.meta.url), 'utf8');
const LIMIT = 10;
const FLOOD = 200;
const CONCURRENCY = 20;
const QUERY = JSON.stringify({ query: '{ building(siteId: "alpha") { name } }' });

const guessedKey = () => `bkg_${randomBytes(32).toString('base64url')}`;

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly code: string | undefined;
}

async function answer(res: Response): Promise<Answer> {
  const body = await res.json();
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    code: body.code ?? body.errors?.[0]?.extensions?.code,
  };
}

/** `total` requests, `concurrency` at a time; their answers in the order they were sent. */
async function flood(total: number, concurrency: number, send: (i: number) => Promise<Response>): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      answers[i] = await answer(await send(i));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

/** Past the limit: 429 with Retry-After and code RATE_LIMITED, REST or GraphQL alike. */
function expectRefused(answers: Answer[]): void {
  for (const a of answers) {
    expect(a.status).toBe(429);
    expect(Number(a.retryAfter)).toBeGreaterThan(0);
    expect(a.code).toBe('RATE_LIMITED');
  }
}

/** Where the failures are counted, as the environment that selects it. */
interface Counters extends Variant {
  env(): Record<string, string>;
}

const counters: Counters[] = [
  { name: 'in memory', env: () => ({}) },
  { name: 'in Redis', needs: ['REDIS_URL'], env: () => ({ REDIS_URL: requiredEngineUrl('REDIS_URL') }) },
];

describeVariants('failed authentication, counted $name', counters, (counted) => {
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    h = await createHarness({
      sites: { alpha: fixture },
      env: { ...counted.env(), BKG_JWT_SECRET: JWT_SECRET, BKG_RATE_LIMIT_ANONYMOUS: String(LIMIT) },
    });
    key = (
      await h.services.keys.create({ name: `innocent ${randomUUID()}`, sites: ['alpha'], write: false, admin: false })
    ).secret;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Another client: a valid API key from an address of its own, reading its site. */
  const innocent = async () => {
    const res = await fetchFrom(h, key, clientIp())('/api/v1/sites/alpha/');
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe('alpha');
  };

  it(`guessed API keys from one address: ${LIMIT} × 401, then 429 without key lookups; another client is served at once`, async () => {
    const ip = clientIp();
    const lookups = vi.spyOn(h.services.keys, 'verify');
    try {
      const { attack } = await duringAttack(
        () => flood(FLOOD, CONCURRENCY, () => fetchFrom(h, guessedKey(), ip)('/api/v1/sites/alpha/')),
        innocent,
      );
      expect(count(attack, 401)).toBe(LIMIT);
      expectRefused(attack.filter((a) => a.status !== 401));
      const guesses = lookups.mock.calls.filter(([secret]) => secret !== key).length;
      expect(guesses, 'keys looked up').toBeLessThanOrEqual(LIMIT + CONCURRENCY);
    } finally {
      lookups.mockRestore();
    }
    // The address waits out its window for any token not seen verified lately (a valid but unused
    // key included: only a lookup could tell it from a guess)...
    const unused = (
      await h.services.keys.create({ name: `unused ${randomUUID()}`, sites: ['alpha'], write: false, admin: false })
    ).secret;
    expectRefused([await answer(await fetchFrom(h, unused, ip)('/api/v1/sites/alpha/'))]);
    // ...but a key that verified lately is served there too: one client's flood does not lock out
    // the others behind the same address (a NAT).
    const shared = await fetchFrom(h, key, ip)('/api/v1/sites/alpha/');
    expect(shared.status).toBe(200);
    await innocent();
  });

  it('every shape of failed authentication counts, on REST and GraphQL alike', async () => {
    const shapes = [
      'Bearer not-a-token',
      `Bearer ${guessedKey()}`,
      'Bearer bkg_short',
      `Bearer ${await hs256Token({ sites: '*' }, 'another-secret-that-is-long-enough-0123456789')}`,
      `Bearer ${await hs256Token({ sites: '*', exp: expiredAt() })}`,
      'Bearer a.b.c',
      'Basic YWRtaW46YWRtaW4=',
      'Bearer',
    ];
    const ip = clientIp();
    const send = (i: number) => {
      const headers = {
        authorization: shapes[i % shapes.length]!,
        'x-forwarded-for': ip,
        'content-type': 'application/json',
      };
      return i % 2
        ? fetch(`${h.url}/graphql`, { method: 'POST', headers, body: QUERY })
        : fetch(`${h.url}/api/v1/sites/`, { headers });
    };
    const { attack } = await duringAttack(() => flood(LIMIT + shapes.length, 1, send), innocent);
    expect(attack.slice(0, LIMIT).map((a) => [a.status, a.code])).toEqual(Array(LIMIT).fill([401, 'UNAUTHENTICATED']));
    expectRefused(attack.slice(LIMIT));
  });

  it("an address's anonymous requests and failed authentications share its budget", async () => {
    const ip = clientIp();
    const anonymous = () =>
      fetchFrom(
        h,
        null,
        ip,
      )('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY });
    for (let i = 0; i < LIMIT - 1; i++) expect((await anonymous()).status).toBe(200);
    expect((await fetchFrom(h, guessedKey(), ip)('/api/v1/sites/')).status).toBe(401);
    expectRefused([await answer(await fetchFrom(h, guessedKey(), ip)('/api/v1/sites/'))]);
    expectRefused([await answer(await anonymous())]);
  });

  it("successful authentications spend the key's budget, not the address's", async () => {
    const ip = clientIp();
    for (let i = 0; i < LIMIT + 5; i++) expect((await fetchFrom(h, key, ip)('/api/v1/sites/alpha/')).status).toBe(200);
    const res = await fetchFrom(
      h,
      null,
      ip,
    )('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: QUERY });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`remaining=${LIMIT - 1}\\b`));
  });
});
