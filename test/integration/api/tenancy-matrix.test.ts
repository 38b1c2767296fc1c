// Tenancy (docs/access.md, "Tenancy"): a site the caller may not read answers exactly like a site that does not
// exist, 404 on REST and NOT_FOUND in GraphQL. The matrix walks every site endpoint × (own site,
// foreign site, unknown site) × (API key, user token, anonymous) and asserts each cell; then writes by
// a read-only key (403) and site creation by non-admins (403).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, exportTriples, fetchAs, jsonBody, postGraphQL } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { hs256Token, JWT_SECRET } from '../../support/user-tokens.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

const OWN = 'alpha';
const FOREIGN = 'beta';
const UNKNOWN = 'nowhere';
const TARGETS = { own: OWN, foreign: FOREIGN, unknown: UNKNOWN } as const;
type Target = keyof typeof TARGETS;
type ClientName = 'key' | 'user' | 'anonymous';

let h: Harness;
/** Bearer tokens by client; anonymous sends none. */
const tokens: Record<ClientName, string | null> = { key: null, user: null, anonymous: null };
let readOnlyKey: string;
let foreignBefore: string[];

beforeAll(async () => {
  h = await createHarness({
    sites: { [OWN]: fixture('tenant-a'), [FOREIGN]: fixture('tenant-b') },
    env: { BKG_JWT_SECRET: JWT_SECRET },
  });
  tokens.key = (await createKey(h, { name: 'alpha writer', sites: [OWN], write: true })).key;
  tokens.user = await hs256Token({ sites: [OWN] });
  readOnlyKey = (await createKey(h, { name: 'alpha reader', sites: [OWN] })).key;
  foreignBefore = await exportTriples(h, FOREIGN);
});
afterAll(async () => {
  await h?.close();
});

// --- REST ------------------------------------------------------------------------------------------

const REST: Record<string, (siteId: string) => [string, RequestInit]> = {
  'GET site': (id) => [`/api/v1/sites/${id}/`, {}],
  'GET graph': (id) => [`/api/v1/sites/${id}/graph`, { headers: { accept: 'text/turtle' } }],
  'PUT graph': (id) => [
    `/api/v1/sites/${id}/graph`,
    { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: fixture('tenant-a') },
  ],
  'POST graph': (id) => [
    `/api/v1/sites/${id}/graph`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/n-triples' },
      body: '<https://example.org/f#Bldg> <http://www.w3.org/2000/01/rdf-schema#comment> "touched" .\n',
    },
  ],
  'DELETE site': (id) => [`/api/v1/sites/${id}/`, { method: 'DELETE' }],
  'GET sparql': (id) => [
    `/api/v1/sites/${id}/sparql?query=${encodeURIComponent('SELECT * { ?s ?p ?o } LIMIT 1')}`,
    { headers: { accept: 'application/sparql-results+json' } },
  ],
  'POST validate': (id) => [`/api/v1/sites/${id}/graph/validate`, { method: 'POST' }],
  'GET models': (id) => [`/api/v1/sites/${id}/models`, {}],
  'POST readings': (id) => [
    `/api/v1/sites/${id}/readings`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ timeseriesId: 'ts-x', timestamp: '2026-11-22T10:00:00Z', value: 1 }]),
    },
  ],
  'POST timeseries': (id) => [
    `/api/v1/sites/${id}/timeseries`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeseriesIds: ['ts-x'] }),
    },
  ],
};

/** Expected status per endpoint and client, for [own, foreign, unknown]. */
const REST_MATRIX: Record<string, Record<ClientName, [number, number, number]>> = {
  //                 own  foreign unknown
  'GET site': { key: [200, 404, 404], user: [200, 404, 404], anonymous: [401, 401, 401] },
  'GET graph': { key: [200, 404, 404], user: [200, 404, 404], anonymous: [401, 401, 401] },
  'PUT graph': { key: [200, 404, 404], user: [403, 404, 404], anonymous: [401, 401, 401] },
  'POST graph': { key: [200, 404, 404], user: [403, 404, 404], anonymous: [401, 401, 401] },
  // Deleting a site is for admins: the writer key and the user may see the site, not delete it.
  'DELETE site': { key: [403, 404, 404], user: [403, 404, 404], anonymous: [401, 401, 401] },
  // Like GraphQL, the SPARQL endpoint serves anonymous callers the demo site; any other is not found.
  'GET sparql': { key: [200, 404, 404], user: [200, 404, 404], anonymous: [404, 404, 404] },
  'POST validate': { key: [200, 404, 404], user: [200, 404, 404], anonymous: [401, 401, 401] },
  'GET models': { key: [200, 404, 404], user: [200, 404, 404], anonymous: [401, 401, 401] },
  'POST readings': { key: [200, 404, 404], user: [403, 404, 404], anonymous: [401, 401, 401] },
  'POST timeseries': { key: [200, 404, 404], user: [200, 404, 404], anonymous: [401, 401, 401] },
};

const REST_CODES: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

const restCells = Object.entries(REST_MATRIX).flatMap(([endpoint, row]) =>
  (Object.entries(row) as Array<[ClientName, [number, number, number]]>).flatMap(([client, statuses]) =>
    (Object.keys(TARGETS) as Target[]).map((target, i) => [endpoint, client, target, statuses[i]!] as const),
  ),
);

describe('REST matrix', () => {
  it.each(restCells)('%s × %s × %s site → %i', async (endpoint, client, target, status) => {
    const [path, init] = REST[endpoint]!(TARGETS[target]);
    const res = await fetchAs(h, tokens[client])(path, init);
    expect(res.status).toBe(status);
    if (status !== 200) expect(await res.json()).toMatchObject({ code: REST_CODES[status] });
  });

  it('answers a foreign site with the very body of an unknown one', async () => {
    for (const client of ['key', 'user'] as const) {
      for (const endpoint of Object.keys(REST)) {
        const bodyFor = async (siteId: string) => {
          const [path, init] = REST[endpoint]!(siteId);
          const res = await fetchAs(h, tokens[client])(path, init);
          return `${res.status} ${(await res.text()).replaceAll(siteId, '<site>')}`;
        };
        expect(await bodyFor(FOREIGN), `${client} ${endpoint}`).toBe(await bodyFor(UNKNOWN));
      }
    }
  });

  it('left the foreign site as it was', async () => {
    expect(await exportTriples(h, FOREIGN)).toEqual(foreignBefore);
    expect((await h.fetch(`/api/v1/sites/${FOREIGN}/`)).status).toBe(200);
  });
});

// --- GraphQL ---------------------------------------------------------------------------------------

const ROOTS: Record<string, (siteId: string) => string> = {
  building: (id) => `{ building(siteId: "${id}") { name } }`,
  equipment: (id) => `{ equipment(siteId: "${id}") { name } }`,
  point: (id) => `{ point(siteId: "${id}") { name } }`,
  zone: (id) => `{ zone(siteId: "${id}") { name } }`,
  system: (id) => `{ system(siteId: "${id}") { name } }`,
  location: (id) => `{ location(siteId: "${id}", locationId: "Room1") { name } }`,
  entityByIfcId: (id) =>
    `{ entityByIfcId(siteId: "${id}", ifcId: "1AlphaAHUGlobalId00001") { ... on Equipment { name } } }`,
};

/** What each root answers on the own site (tenant-a), read off fixtures/small/tenant-a.ttl. */
const OWN_ANSWERS: Record<string, unknown> = {
  building: [{ name: 'Alpha Building' }],
  equipment: expect.arrayContaining([{ name: 'Alpha AHU' }, { name: 'Alpha Chiller' }]),
  point: [{ name: 'Alpha SAT' }],
  zone: [{ name: 'Alpha Zone' }],
  system: [{ name: 'Alpha Air System' }],
  location: { name: 'Alpha Room' },
  entityByIfcId: { name: 'Alpha AHU' },
};

/** Expected outcome per client for [own, foreign, unknown]: OK (the own site's data) or an error code. */
const GRAPHQL_MATRIX: Record<ClientName, [string, string, string]> = {
  key: ['OK', 'NOT_FOUND', 'NOT_FOUND'],
  user: ['OK', 'NOT_FOUND', 'NOT_FOUND'],
  // Anonymous callers read the demo site only (demo-site.test.ts).
  anonymous: ['NOT_FOUND', 'NOT_FOUND', 'NOT_FOUND'],
};

const graphqlCells = Object.keys(ROOTS).flatMap((root) =>
  (Object.entries(GRAPHQL_MATRIX) as Array<[ClientName, [string, string, string]]>).flatMap(([client, outcomes]) =>
    (Object.keys(TARGETS) as Target[]).map((target, i) => [root, client, target, outcomes[i]!] as const),
  ),
);

describe('GraphQL matrix', () => {
  it.each(graphqlCells)('%s × %s × %s site → %s', async (root, client, target, outcome) => {
    const res = await postGraphQL(h, tokens[client], ROOTS[root]!(TARGETS[target]));
    expect(res.status).toBe(200);
    const body = await res.json();
    if (outcome === 'OK') {
      expect(body.errors).toBeUndefined();
      expect(body.data[root]).toEqual(OWN_ANSWERS[root]);
    } else {
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].extensions.code).toBe(outcome);
      expect(body.errors[0].path).toEqual([root]);
      expect(body.data?.[root] ?? null).toBeNull();
    }
  });

  it('answers a foreign site with the very error of an unknown one', async () => {
    for (const token of [tokens.key, tokens.user, null]) {
      for (const root of Object.values(ROOTS)) {
        const bodyFor = async (siteId: string) =>
          (await (await postGraphQL(h, token, root(siteId))).text()).replaceAll(siteId, '<site>');
        expect(await bodyFor(FOREIGN)).toBe(await bodyFor(UNKNOWN));
      }
    }
  });

  it('gives the data of readable sites and NOT_FOUND for the rest in one request', async () => {
    const res = await postGraphQL(
      h,
      tokens.key,
      `{ mine: building(siteId: "${OWN}") { name } theirs: building(siteId: "${FOREIGN}") { name } }`,
    );
    const body = await res.json();
    expect(
      body.errors.map((e: { path: string[]; extensions: { code: string } }) => [e.path, e.extensions.code]),
    ).toEqual([[['theirs'], 'NOT_FOUND']]);
    expect(JSON.stringify(body)).not.toContain('Beta');
  });
});

// --- Write and admin rights ------------------------------------------------------------------------

describe('write and admin rights', () => {
  it('a read-only key reads its site but every write answers 403 and changes nothing', async () => {
    const before = await exportTriples(h, OWN);
    const as = fetchAs(h, readOnlyKey);
    for (const endpoint of ['PUT graph', 'POST graph', 'DELETE site']) {
      const [path, init] = REST[endpoint]!(OWN);
      const res = await as(path, init);
      expect(res.status, endpoint).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    for (const endpoint of ['GET site', 'GET graph']) {
      const [path, init] = REST[endpoint]!(OWN);
      expect((await as(path, init)).status, endpoint).toBe(200);
    }
    expect(await exportTriples(h, OWN)).toEqual(before);
  });

  it('a read-only key writing to a foreign site still answers 404, not 403', async () => {
    const [path, init] = REST['PUT graph']!(FOREIGN);
    expect((await fetchAs(h, readOnlyKey)(path, init)).status).toBe(404);
  });

  it('site creation by a non-admin answers 403 (401 when anonymous) and creates nothing', async () => {
    const callers: Array<[string, string | null, number]> = [
      ['write key', tokens.key, 403],
      ['read-only key', readOnlyKey, 403],
      ['user', tokens.user, 403],
      ['user for every site', await hs256Token({ sites: '*' }), 403],
      ['anonymous', null, 401],
    ];
    for (const [name, token, status] of callers) {
      const res = await fetchAs(h, token)('/api/v1/sites/', jsonBody('POST', { id: 'grabbed', name: 'Grabbed' }));
      expect(res.status, name).toBe(status);
    }
    expect((await h.fetch('/api/v1/sites/grabbed/')).status).toBe(404);
  });

  it('a write key for every site may write to any site but still not create or delete sites', async () => {
    const everywhere = (await createKey(h, { name: 'writer everywhere', sites: '*', write: true })).key;
    const as = fetchAs(h, everywhere);
    const [path, init] = REST['POST graph']!(FOREIGN);
    expect((await as(path, init)).status).toBe(200);
    expect((await as('/api/v1/sites/', jsonBody('POST', { id: 'grabbed', name: 'Grabbed' }))).status).toBe(403);
    expect((await as(`/api/v1/sites/${FOREIGN}/`, { method: 'DELETE' })).status).toBe(403);
  });
});
