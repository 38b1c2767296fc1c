// Every attack of the hostile suite, in turn, against one running service (a process of its own, as
// operators run it, in production mode): each attacker gets a 4xx, and afterwards the service
// still serves every tenant — health, GraphQL and SPARQL on two sites and the demo site, REST.
// The attacks are sized to run in seconds; the suites beside this file test each one in depth.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRecords } from '../../support/harness.ts';
import { spawnService, type ServiceProcess } from '../../support/spawn-service.ts';
import { subscribe, type Subscription } from '../../support/sse-client.ts';

const ADMIN_KEY = 'attack-run-admin-key-0123456789';
const JWT_SECRET = 'attack-run-jwt-secret-0123456789abcdef';
const SITE = (id: string) => `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
@prefix : <https://example.org/${id}#> .
:AHU-1 a brick:AHU ; brick:hasPoint :SAT ; brick:feeds :VAV-1 .
:VAV-1 a brick:VAV .
:SAT a brick:Supply_Air_Temperature_Sensor ; ref:hasExternalReference [ ref:hasTimeseriesId "${id}-sat" ] .
`;

let dir: string;
let service: ServiceProcess;
let url: string;
const keys: Record<string, string> = {};
const open: Subscription[] = [];

const call = (path: string, init: RequestInit & { token?: string | null } = {}) => {
  const { token = ADMIN_KEY, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set('authorization', `Bearer ${token}`);
  return fetch(`${url}${path}`, { ...rest, headers });
};
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const graphql = async (query: string, token: string | null) => {
  const res = await call('/graphql', { ...json({ query }), token });
  return {
    status: res.status,
    body: (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> },
  };
};
/** A SPARQL query as a form POST (a query of 40 KB does not fit in a URL's headers). */
const sparql = (site: string, query: string, token: string | null) =>
  call(`/api/v1/sites/${site}/sparql`, {
    method: 'POST',
    token,
    headers: { accept: 'application/sparql-results+json', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ query }).toString(),
  });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bkg-attack-run-'));
  await seedRecords(join(dir, 'data'));
  service = spawnService({
    NODE_ENV: 'production',
    BKG_DATA_DIR: join(dir, 'data'),
    BKG_ADMIN_KEY: ADMIN_KEY,
    BKG_JWT_SECRET: JWT_SECRET,
    HOST: '127.0.0.1',
    PORT: '0',
    BKG_DEMO_SIMULATOR: '0',
    BKG_IFC_WORKERS: '0',
    BKG_SPARQL_TIMEOUT_MS: '1000',
    BKG_RATE_LIMIT_ANONYMOUS: '60',
    BKG_MAX_SUBSCRIPTIONS_ANONYMOUS: '2',
  });
  const { port } = await service.waitForLog('listening', 120_000);
  url = `http://127.0.0.1:${port as number}`;
  for (const id of ['alpha', 'beta']) {
    expect((await call('/api/v1/sites/', json({ id, name: id, timezone: 'UTC' }))).status).toBe(201);
    const loaded = await call(`/api/v1/sites/${id}/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: SITE(id),
    });
    expect(loaded.status, await loaded.clone().text()).toBe(200);
    const key = await call('/api/v1/keys/', json({ name: `${id}-app`, sites: [id], write: true }));
    keys[id] = ((await key.json()) as { key: string }).key;
  }
}, 180_000);

afterAll(async () => {
  for (const subscription of open) subscription.close();
  await service?.kill();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a run of every attack against one running service', () => {
  it('answers each attacker with a 4xx', async () => {
    // 1. An answer that explodes: nested lists under six aliases, anonymous.
    const nested = `equipment(siteId: "demo") { id ${'points { id equipment { id '.repeat(5)}${' } }'.repeat(5)} }`;
    const exploded = await graphql(`{ ${Array.from({ length: 6 }, (_, i) => `a${i}: ${nested}`).join(' ')} }`, null);
    expect(exploded.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_LARGE');

    // 2. JSON-LD nested 1,000 deep, on the attacker's own site and to the validator.
    let jsonld = '"x"';
    for (let i = 0; i < 1000; i++) jsonld = `{"urn:p": ${jsonld}}`;
    jsonld = `{"@id": "urn:a", "urn:p": ${jsonld}}`;
    const deepLoad = await call('/api/v1/sites/alpha/graph', {
      method: 'PUT',
      token: keys.alpha,
      headers: { 'content-type': 'application/ld+json' },
      body: jsonld,
    });
    expect(deepLoad.status, await deepLoad.clone().text()).toBe(400);
    const deepCheck = await call('/api/v1/sites/alpha/graph/validate', {
      method: 'POST',
      token: keys.alpha,
      headers: { 'content-type': 'application/ld+json' },
      body: jsonld,
    });
    expect(deepCheck.status).toBe(400);

    // 3. SPARQL nested 700 and 5,000 deep, and a cartesian product past its deadline, anonymous.
    for (const depth of [700, 5000]) {
      const res = await sparql(
        'demo',
        `SELECT * WHERE {${' {'.repeat(depth)} ?s ?p ?o ${'} '.repeat(depth)}} LIMIT 1`,
        null,
      );
      expect(res.status, `${depth} levels`).toBe(400);
    }
    const product = await sparql('demo', 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }', null);
    expect(product.status).toBe(400);
    expect(((await product.json()) as { code: string }).code).toBe('QUERY_TOO_COMPLEX');

    // 4. Subscriptions held open past the cap of an anonymous address.
    const subscription = 'subscription { pointValues(siteId: "demo", pointIds: ["AHU-1-SAT"]) { pointId } }';
    for (let i = 0; i < 2; i++) open.push(await subscribe(`${url}/graphql`, null, subscription));
    const third = await subscribe(`${url}/graphql`, null, subscription);
    open.push(third);
    expect(open.map((s) => s.status)).toEqual([200, 200, 429]);

    // 5. Text with NUL, a readings batch with one bad item, a time range out of range.
    expect((await call('/api/v1/sites/', json({ id: 'gamma', name: 'G\u0000', timezone: 'UTC' }))).status).toBe(400);
    const batch = await call('/api/v1/sites/alpha/readings', {
      ...json([
        { timeseriesId: 'alpha-sat', timestamp: new Date().toISOString(), value: 20 },
        { timeseriesId: 'bad\u0000', timestamp: new Date().toISOString(), value: 1 },
      ]),
      token: keys.alpha,
    });
    expect(batch.status).toBeLessThan(300);
    expect(await batch.json()).toMatchObject({ stored: 1, rejected: [{ index: 1 }] });
    expect(
      (
        await call('/api/v1/sites/alpha/timeseries', {
          ...json({ timeseriesIds: ['alpha-sat'], start: '-99999999d' }),
          token: keys.alpha,
        })
      ).status,
    ).toBe(400);

    // 6. CORS: a page on another origin is never allowed credentials.
    const cors = await call('/graphql', {
      ...json({ query: '{ __typename }' }),
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
    });
    expect(cors.headers.get('access-control-allow-credentials')).toBeNull();

    // 7. A JWT with a `crit` header and a forged signature, then a flood of guessed keys: 401, then 429.
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const crit = `${b64({ alg: 'HS256', crit: ['zz'], zz: 1 })}.${b64({ sub: 'x', sites: '*', exp: 9_999_999_999 })}.${Buffer.from('forged').toString('base64url')}`;
    expect((await call('/api/v1/sites/', { token: crit })).status).toBe(401);
    // From an address of its own (the service trusts X-Forwarded-For from loopback, as behind a proxy).
    const attacker = { 'x-forwarded-for': '203.0.113.7' };
    const statuses = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        call('/api/v1/sites/', { token: `bkg_guess${i}`, headers: attacker }).then((r) => r.status),
      ),
    );
    expect(new Set(statuses)).toEqual(new Set([401, 429]));
  }, 120_000);

  it('still serves every tenant afterwards', async () => {
    const health = await call('/healthz', { token: null });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok', engines: { graph: 'ok' } });
    expect((await call('/readyz', { token: null })).status).toBe(200);
    for (const id of ['alpha', 'beta']) {
      const answer = await graphql(
        `{ equipment(siteId: "${id}", name: "AHU-1", nameMatch: EXACT) { name points { timeseriesId } feeds { name } } }`,
        keys[id]!,
      );
      expect(answer.body.errors, JSON.stringify(answer.body)).toBeUndefined();
      expect(answer.body.data).toEqual({
        equipment: [{ name: 'AHU-1', points: [{ timeseriesId: `${id}-sat` }], feeds: [{ name: 'VAV-1' }] }],
      });
      const ask = await sparql(id, 'ASK { ?s a brick:VAV }', keys[id]!);
      expect(await ask.json()).toMatchObject({ boolean: true });
    }
    const demo = await graphql('{ equipment(siteId: "demo", name: "AHU-1", nameMatch: EXACT) { name } }', keys.beta!);
    expect(demo.body).toEqual({ data: { equipment: [{ name: 'AHU-1' }] }, extensions: { versions: { demo: 0 } } });
    const sites = await call('/api/v1/sites/');
    expect(sites.status).toBe(200);
  }, 60_000);
});
