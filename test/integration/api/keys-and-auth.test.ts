// API keys (create with the secret shown once, list without secrets, revoke at once) and
// authentication (docs/access.md): Bearer tokens that are the bootstrap admin key, `bkg_` API keys, or user
// JWTs (HS256 with BKG_JWT_SECRET; RS256/ES256 from BKG_JWKS_URL) whose claim `sites` lists readable
// sites; `exp` enforced. No header: anonymous. A bad, expired or revoked token answers 401 with
// `WWW-Authenticate: Bearer error="invalid_token"` on every endpoint, REST and GraphQL.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, fetchAs, jsonBody, postGraphQL, type CreatedKey } from '../../support/api-client.ts';
import { ADMIN_KEY, createHarness, type Harness } from '../../support/harness.ts';
import { expiredAt, hs256Token, JWT_SECRET, startJwksServer, type JwksServer } from '../../support/user-tokens.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

let h: Harness;
let jwks: JwksServer;
beforeAll(async () => {
  jwks = await startJwksServer();
  h = await createHarness({
    sites: { alpha: fixture('tenant-a'), beta: fixture('tenant-b') },
    env: { BKG_JWT_SECRET: JWT_SECRET, BKG_JWKS_URL: jwks.url },
  });
});
afterAll(async () => {
  await h?.close();
  await jwks?.close();
});

const BUILDINGS = '{ alpha: building(siteId: "alpha") { name } }';
const INVALID_TOKEN = 'Bearer error="invalid_token"';

/** What a caller holding `token` may read: REST site reads and GraphQL answers per site. */
async function readable(token: string): Promise<Record<'alpha' | 'beta', { rest: number; graphql: string }>> {
  const out = {} as Record<'alpha' | 'beta', { rest: number; graphql: string }>;
  for (const site of ['alpha', 'beta'] as const) {
    const rest = (await fetchAs(h, token)(`/api/v1/sites/${site}/`)).status;
    const res = await h.graphql(`{ building(siteId: "${site}") { name } }`, undefined, token);
    out[site] = { rest, graphql: res.errors ? String(res.errors[0]?.extensions?.code) : res.data.building[0].name };
  }
  return out;
}

const ALPHA_ONLY = { alpha: { rest: 200, graphql: 'Alpha Building' }, beta: { rest: 404, graphql: 'NOT_FOUND' } };
const BOTH = { alpha: { rest: 200, graphql: 'Alpha Building' }, beta: { rest: 200, graphql: 'Beta Building' } };

/** Expects a 401 that names the token as invalid. */
async function expectInvalidToken(res: Response, graphql = false): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
  const body = await res.json();
  if (graphql) expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  else expect(body).toMatchObject({ code: 'UNAUTHENTICATED' });
}

describe('POST /api/v1/keys/', () => {
  it('answers 201 with the record and the secret in `key`', async () => {
    const res = await h.fetch('/api/v1/keys/', jsonBody('POST', { name: 'reader', sites: ['alpha'] }));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'reader',
      sites: ['alpha'],
      write: false,
      admin: false,
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
      key: expect.stringMatching(/^bkg_/),
    });
    expect(await readable(body.key)).toEqual(ALPHA_ONLY);
  });

  it('keeps write, admin and "*" as given', async () => {
    const key = await createKey(h, { name: 'ops', sites: '*', write: true, admin: true });
    expect(key).toMatchObject({ name: 'ops', sites: '*', write: true, admin: true });
    expect(await readable(key.key)).toEqual(BOTH);
  });

  it('gives each key its own secret', async () => {
    const [a, b] = [await createKey(h, { sites: ['alpha'] }), await createKey(h, { sites: ['alpha'] })];
    expect(a.key).not.toBe(b.key);
    expect(a.id).not.toBe(b.id);
  });

  it.each([
    ['an empty body', {}, ['name', 'sites']],
    ['a blank name', { name: '  ', sites: '*' }, ['name']],
    ['sites as a word', { name: 'k', sites: 'all' }, ['sites']],
    ['a site id that is no slug', { name: 'k', sites: ['Not A Site'] }, ['sites.0']],
    ['write as a string', { name: 'k', sites: '*', write: 'yes' }, ['write']],
  ])('answers 400 with field errors for %s', async (_name, body, fields) => {
    const res = await h.fetch('/api/v1/keys/', jsonBody('POST', body));
    expect(res.status).toBe(400);
    expect(Object.keys(await res.json()).sort()).toEqual(fields);
  });
});

describe('GET /api/v1/keys/', () => {
  it('lists every key without its secret', async () => {
    const created = await createKey(h, { name: 'listed', sites: ['beta'], write: true });
    const res = await h.fetch('/api/v1/keys/');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(created.key.slice(4));
    const keys = JSON.parse(text) as Array<Record<string, unknown>>;
    const { key: _secret, ...record } = created;
    expect(keys.find((k) => k.id === created.id)).toEqual(record);
    for (const key of keys)
      expect(Object.keys(key).sort()).toEqual([
        'admin',
        'created_at',
        'id',
        'last_used_at',
        'name',
        'revoked_at',
        'sites',
        'write',
      ]);
  });

  it('records when a key was last used', async () => {
    const created = await createKey(h, { sites: ['alpha'] });
    expect((await fetchAs(h, created.key)('/api/v1/sites/alpha/')).status).toBe(200);
    const keys = (await (await h.fetch('/api/v1/keys/')).json()) as CreatedKey[];
    const used = keys.find((k) => k.id === created.id)!;
    expect(used.last_used_at).not.toBeNull();
    expect(Date.parse(used.last_used_at!)).toBeGreaterThanOrEqual(Date.parse(created.created_at) - 1000);
  });
});

describe('DELETE /api/v1/keys/{id}/', () => {
  it('revokes at once: the very next request with the key answers 401, on REST and GraphQL', async () => {
    const key = await createKey(h, { sites: '*', write: true });
    expect((await fetchAs(h, key.key)('/api/v1/sites/alpha/')).status).toBe(200);
    const res = await h.fetch(`/api/v1/keys/${key.id}/`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    await expectInvalidToken(await fetchAs(h, key.key)('/api/v1/sites/alpha/'));
    await expectInvalidToken(await postGraphQL(h, key.key, BUILDINGS), true);
    const listed = ((await (await h.fetch('/api/v1/keys/')).json()) as CreatedKey[]).find((k) => k.id === key.id)!;
    expect(listed.revoked_at).not.toBeNull();
  });

  it('keeps the first revocation time when revoked twice', async () => {
    const key = await createKey(h, { sites: '*' });
    expect((await h.fetch(`/api/v1/keys/${key.id}/`, { method: 'DELETE' })).status).toBe(204);
    const first = ((await (await h.fetch('/api/v1/keys/')).json()) as CreatedKey[]).find(
      (k) => k.id === key.id,
    )!.revoked_at;
    expect((await h.fetch(`/api/v1/keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    const second = ((await (await h.fetch('/api/v1/keys/')).json()) as CreatedKey[]).find(
      (k) => k.id === key.id,
    )!.revoked_at;
    expect(second).toBe(first);
    await expectInvalidToken(await fetchAs(h, key.key)('/api/v1/sites/'));
  });

  it('answers 404 for an unknown id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await h.fetch(`/api/v1/keys/${id}/`, { method: 'DELETE' });
      expect(res.status, id).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });
});

describe('keys are managed by admins only', () => {
  it('a non-admin key and a user answer 403 on every key operation; anonymous 401', async () => {
    const writer = await createKey(h, { sites: '*', write: true });
    const victim = await createKey(h, { sites: '*' });
    const user = await hs256Token({ sites: '*' });
    for (const token of [writer.key, user]) {
      const as = fetchAs(h, token);
      expect((await as('/api/v1/keys/')).status).toBe(403);
      expect((await as('/api/v1/keys/', jsonBody('POST', { name: 'escalate', sites: '*', admin: true }))).status).toBe(
        403,
      );
      expect((await as(`/api/v1/keys/${victim.id}/`, { method: 'DELETE' })).status).toBe(403);
    }
    const anonymous = fetchAs(h, null);
    expect((await anonymous('/api/v1/keys/')).status).toBe(401);
    expect(
      (await anonymous('/api/v1/keys/', jsonBody('POST', { name: 'escalate', sites: '*', admin: true }))).status,
    ).toBe(401);
    expect((await fetchAs(h, victim.key)('/api/v1/sites/alpha/')).status).toBe(200);
  });

  it('an admin key made with the bootstrap key manages keys and sites itself', async () => {
    const admin = await createKey(h, { name: 'second admin', sites: '*', write: true, admin: true });
    const as = fetchAs(h, admin.key);
    const made = await as('/api/v1/keys/', jsonBody('POST', { name: 'made by admin', sites: ['beta'] }));
    expect(made.status).toBe(201);
    const madeKey = (await made.json()) as CreatedKey;
    expect(await readable(madeKey.key)).toEqual({
      alpha: { rest: 404, graphql: 'NOT_FOUND' },
      beta: { rest: 200, graphql: 'Beta Building' },
    });
    expect((await as(`/api/v1/keys/${madeKey.id}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await as('/api/v1/sites/', jsonBody('POST', { id: 'by-second-admin', name: 'x' }))).status).toBe(201);
  });
});

describe('the bootstrap admin key (BKG_ADMIN_KEY)', () => {
  it('reads and manages everything', async () => {
    expect(await readable(ADMIN_KEY)).toEqual(BOTH);
    expect((await h.fetch('/api/v1/keys/')).status).toBe(200);
  });

  it('is matched exactly', async () => {
    for (const near of [`${ADMIN_KEY}x`, ADMIN_KEY.slice(0, -1), ADMIN_KEY.toUpperCase()]) {
      await expectInvalidToken(await fetchAs(h, near)('/api/v1/sites/'));
    }
  });
});

describe('user tokens', () => {
  it('HS256 with BKG_JWT_SECRET: the sites claim decides what the user reads', async () => {
    expect(await readable(await hs256Token({ sites: ['alpha'] }))).toEqual(ALPHA_ONLY);
    expect(await readable(await hs256Token({ sites: '*' }))).toEqual(BOTH);
  });

  it.each(['RS256', 'ES256'] as const)('%s against the keys at BKG_JWKS_URL', async (alg) => {
    expect(await readable(await jwks.sign(alg, { sites: ['alpha'] }))).toEqual(ALPHA_ONLY);
    expect(await readable(await jwks.sign(alg, { sites: '*' }))).toEqual(BOTH);
  });

  it('without a sites claim (or with one that is no list) reads nothing', async () => {
    for (const token of [
      await hs256Token({}),
      await hs256Token({ sites: 'alpha' }),
      await jwks.sign('RS256', { sites: { alpha: true } }),
    ]) {
      expect(await readable(token)).toEqual({
        alpha: { rest: 404, graphql: 'NOT_FOUND' },
        beta: { rest: 404, graphql: 'NOT_FOUND' },
      });
      expect(await (await fetchAs(h, token)('/api/v1/sites/')).json()).toEqual([]);
    }
  });

  it('accepts the scheme in any case', async () => {
    const token = await hs256Token({ sites: ['alpha'] });
    const res = await fetch(`${h.url}/api/v1/sites/alpha/`, { headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it('enforces exp: an expired token answers 401 and says so', async () => {
    for (const token of [
      await hs256Token({ sites: '*', exp: expiredAt() }),
      await jwks.sign('RS256', { sites: '*', exp: expiredAt() }),
      await jwks.sign('ES256', { sites: '*', exp: expiredAt() }),
    ]) {
      const res = await fetchAs(h, token)('/api/v1/sites/alpha/');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(INVALID_TOKEN);
      expect((await res.json()).detail).toMatch(/expired/i);
      await expectInvalidToken(await postGraphQL(h, token, BUILDINGS), true);
    }
  });
});

/** Tokens that must all be refused with 401 invalid_token. */
async function badTokens(): Promise<Record<string, string>> {
  const unsigned = (payload: object) =>
    `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`;
  const revoked = await createKey(h, { sites: '*', write: true, admin: true });
  expect((await h.fetch(`/api/v1/keys/${revoked.id}/`, { method: 'DELETE' })).status).toBe(204);
  return {
    garbage: 'not-a-token',
    'three dots of garbage': 'abc.def.ghi',
    'an unknown API key': `bkg_${randomBytes(24).toString('base64url')}`,
    'a revoked API key': revoked.key,
    'HS256 signed with another secret': await hs256Token(
      { sites: '*' },
      'another-secret-that-is-long-enough-0123456789',
    ),
    'HS256 expired': await hs256Token({ sites: '*', exp: expiredAt() }),
    'HS256 without exp': await hs256Token({ sites: '*', exp: null }),
    'HS256 without sub': await hs256Token({ sites: '*', sub: null }),
    'RS256 expired': await jwks.sign('RS256', { sites: '*', exp: expiredAt() }),
    'RS256 signed with a key the JWKS does not publish': await jwks.signWithUnpublishedKey('RS256', { sites: '*' }),
    'ES256 signed with a key the JWKS does not publish': await jwks.signWithUnpublishedKey('ES256', { sites: '*' }),
    'alg none': unsigned({ sub: 'mallory', sites: '*', exp: Math.floor(Date.now() / 1000) + 600 }),
  };
}

/** Every endpoint but the probes: [name, path, init]. */
const ENDPOINTS: Array<[string, string, RequestInit]> = [
  ['GET /api/v1/sites/', '/api/v1/sites/', {}],
  ['POST /api/v1/sites/', '/api/v1/sites/', jsonBody('POST', { id: 'intruded', name: 'x' })],
  ['GET /api/v1/sites/alpha/', '/api/v1/sites/alpha/', {}],
  ['DELETE /api/v1/sites/alpha/', '/api/v1/sites/alpha/', { method: 'DELETE' }],
  ['GET /api/v1/sites/alpha/graph', '/api/v1/sites/alpha/graph', {}],
  [
    'PUT /api/v1/sites/alpha/graph',
    '/api/v1/sites/alpha/graph',
    { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: '' },
  ],
  [
    'POST /api/v1/sites/alpha/graph',
    '/api/v1/sites/alpha/graph',
    { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: '' },
  ],
  ['GET /api/sites/alpha/', '/api/sites/alpha/', {}],
  ['GET /api/v1/keys/', '/api/v1/keys/', {}],
  ['POST /api/v1/keys/', '/api/v1/keys/', jsonBody('POST', { name: 'x', sites: '*', admin: true })],
  ['DELETE /api/v1/keys/{id}/', `/api/v1/keys/${randomUUID()}/`, { method: 'DELETE' }],
  ['GET /api/v1/no-such-route', '/api/v1/no-such-route', {}],
];

/** Further routes: authentication comes before every one of them. */
const OTHER_ENDPOINTS: Array<[string, string, RequestInit]> = [
  ['GET /api/v1/sites/alpha/models', '/api/v1/sites/alpha/models', {}],
  ['POST /api/v1/sites/alpha/timeseries', '/api/v1/sites/alpha/timeseries', jsonBody('POST', {})],
  ['GET /api/files/', '/api/files/?site_id=alpha', {}],
];

describe('a bad, expired or revoked token answers 401 invalid_token on every endpoint', () => {
  let tokens: Record<string, string>;
  beforeAll(async () => {
    tokens = await badTokens();
  });

  it('REST: every endpoint × every bad token', async () => {
    const cells: string[] = [];
    for (const [tokenName, token] of Object.entries(tokens)) {
      for (const [endpoint, path, init] of [...ENDPOINTS, ...OTHER_ENDPOINTS]) {
        const res = await fetchAs(h, token)(path, init);
        const body = await res.json();
        const ok =
          res.status === 401 &&
          res.headers.get('www-authenticate') === INVALID_TOKEN &&
          body.code === 'UNAUTHENTICATED';
        if (!ok)
          cells.push(
            `${tokenName} × ${endpoint}: ${res.status} ${res.headers.get('www-authenticate')} ${JSON.stringify(body)}`,
          );
      }
    }
    expect(cells).toEqual([]);
    expect((await h.fetch('/api/v1/sites/alpha/')).status).toBe(200);
    expect((await h.fetch('/api/v1/sites/intruded/')).status).toBe(404);
  });

  it('GraphQL: POST and GET /graphql × every bad token, with a GraphQL error body', async () => {
    const cells: string[] = [];
    for (const [tokenName, token] of Object.entries(tokens)) {
      const responses = [
        ['POST', await postGraphQL(h, token, BUILDINGS)],
        [
          'GET',
          await fetchAs(h, token)(`/graphql?query=${encodeURIComponent(BUILDINGS)}`, {
            headers: { accept: 'application/json' },
          }),
        ],
      ] as const;
      for (const [method, res] of responses) {
        const body = await res.json();
        const ok =
          res.status === 401 &&
          res.headers.get('www-authenticate') === INVALID_TOKEN &&
          body.errors?.[0]?.extensions?.code === 'UNAUTHENTICATED' &&
          body.data === undefined;
        if (!ok) cells.push(`${tokenName} × ${method} /graphql: ${res.status} ${JSON.stringify(body)}`);
      }
    }
    expect(cells).toEqual([]);
  });

  it.each([
    ['another scheme', `Basic ${Buffer.from('admin:secret').toString('base64')}`],
    ['Bearer without a token', 'Bearer'],
    ['Bearer with two tokens', `Bearer ${ADMIN_KEY} ${ADMIN_KEY}`],
    ['the admin key without a scheme', ADMIN_KEY],
  ])('a malformed Authorization header (%s) answers 401 on REST and GraphQL', async (_name, authorization) => {
    await expectInvalidToken(await fetch(`${h.url}/api/v1/sites/`, { headers: { authorization } }));
    const res = await fetch(`${h.url}/graphql`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ query: BUILDINGS }),
    });
    await expectInvalidToken(res, true);
  });
});

describe('no Authorization header: anonymous', () => {
  it('answers 401 with a bare Bearer challenge on every REST endpoint', async () => {
    const anonymous = fetchAs(h, null);
    const cells: string[] = [];
    for (const [endpoint, path, init] of ENDPOINTS.filter(([name]) => !name.includes('no-such-route'))) {
      const res = await anonymous(path, init);
      const body = await res.json();
      // RFC 6750 §3: no credentials sent, so a bare challenge without error="invalid_token".
      if (res.status !== 401 || body.code !== 'UNAUTHENTICATED' || res.headers.get('www-authenticate') !== 'Bearer') {
        cells.push(`${endpoint}: ${res.status} ${res.headers.get('www-authenticate')} ${JSON.stringify(body)}`);
      }
    }
    expect(cells).toEqual([]);
  });

  it('may query GraphQL, but a site other than the demo is not found', async () => {
    const res = await postGraphQL(h, null, BUILDINGS);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
