// The shared read-only demo site (docs/access.md, "Tenancy"): every read works for every caller, anonymous ones
// through GraphQL; every create, update or delete of it (site, graph) answers 403, admin included.
// It resets to fixtures/demo.ttl every BKG_DEMO_RESET_SECONDS, and queries keep answering while it does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, exportTriples, fetchAs, jsonBody, postGraphQL } from '../../support/api-client.ts';
import { ADMIN_KEY, createHarness, type Harness } from '../../support/harness.ts';
import { hs256Token, JWT_SECRET } from '../../support/user-tokens.ts';

const DEMO_FIXTURE = fileURLToPath(new URL('../../../fixtures/demo.ttl', import.meta.url));
const DEMO_GRAPH = 'urn:bkg:site:demo';
const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

/** The AHUs of fixtures/demo.ttl, with their points: a query with a relation field. */
const AHUS = '{ equipment(siteId: "demo", is: "AHU") { name points { name } } }';
const byName = <T extends { name: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.name.localeCompare(b.name));
type Ahu = { name: string; points: Array<{ name: string }> };
/** AHUs and their points in name order, for comparing answers. */
const sorted = (ahus: Ahu[]) => byName(ahus).map((ahu) => ({ ...ahu, points: byName(ahu.points) }));

let h: Harness;
/** Every kind of authenticated caller, by name. */
const callers: Record<string, string> = {};
/** The demo graph as loaded from the fixture at start-up. */
let fixtureState: string[];
let fixtureAhus: Ahu[];

beforeAll(async () => {
  h = await createHarness({
    sites: { alpha: fixture('tenant-a') },
    // The demo's readings are the simulator suite's (readings/demo-simulator.test.ts): its backfill is left out here.
    env: {
      BKG_DEMO_FIXTURE: DEMO_FIXTURE,
      BKG_DEMO_RESET_SECONDS: '1',
      BKG_DEMO_SIMULATOR: '0',
      BKG_JWT_SECRET: JWT_SECRET,
    },
  });
  Object.assign(callers, {
    'bootstrap admin key': ADMIN_KEY,
    'admin key': (await createKey(h, { sites: '*', write: true, admin: true })).key,
    'write key for every site': (await createKey(h, { sites: '*', write: true })).key,
    'write key for demo': (await createKey(h, { sites: ['demo'], write: true })).key,
    'write key for another site': (await createKey(h, { sites: ['alpha'], write: true })).key,
    'read-only key for another site': (await createKey(h, { sites: ['alpha'] })).key,
    'user for every site': await hs256Token({ sites: '*' }),
    'user for demo': await hs256Token({ sites: ['demo'] }),
    'user for another site': await hs256Token({ sites: ['alpha'] }),
    'user without sites': await hs256Token({}),
  });
  fixtureState = await exportTriples(h, 'demo');
  const res = await h.graphql(AHUS);
  expect(res.errors).toBeUndefined();
  fixtureAhus = res.data.equipment;
});
afterAll(async () => {
  await h?.close();
});

describe('reads', () => {
  it('the demo graph is the fixture: as many triples as fixtures/demo.ttl holds', async () => {
    const parsed = new Parser({ format: 'text/turtle' }).parse(readFileSync(DEMO_FIXTURE, 'utf8'));
    expect(fixtureState).toHaveLength(parsed.length);
    expect(fixtureAhus.length).toBeGreaterThan(0);
  });

  it('every authenticated caller reads the site record, the graph and GraphQL', async () => {
    const failures: string[] = [];
    for (const [name, token] of Object.entries(callers)) {
      const as = fetchAs(h, token);
      const record = await as('/api/v1/sites/demo/');
      if (record.status !== 200 || (await record.json()).name !== 'Demo Tower')
        failures.push(`${name}: GET site ${record.status}`);
      const graph = await as('/api/v1/sites/demo/graph', { headers: { accept: 'application/n-triples' } });
      if (graph.status !== 200 || (await graph.text()).length === 0)
        failures.push(`${name}: GET graph ${graph.status}`);
      const query = await (await postGraphQL(h, token, AHUS)).json();
      if (query.errors || byName(query.data.equipment).length !== fixtureAhus.length)
        failures.push(`${name}: GraphQL ${JSON.stringify(query.errors)}`);
    }
    expect(failures).toEqual([]);
  });

  it('every authenticated caller finds the demo site in the site list', async () => {
    const failures: string[] = [];
    for (const [name, token] of Object.entries(callers)) {
      const ids = ((await (await fetchAs(h, token)('/api/v1/sites/')).json()) as Array<{ id: string }>).map(
        (s) => s.id,
      );
      if (!ids.includes('demo')) failures.push(`${name}: ${JSON.stringify(ids)}`);
    }
    expect(failures).toEqual([]);
  });

  it('an anonymous caller reads it through GraphQL, every root query', async () => {
    const roots = [
      '{ building(siteId: "demo") { name } }',
      '{ equipment(siteId: "demo", is: "AHU") { name } }',
      '{ point(siteId: "demo", is: "Temperature_Sensor") { name } }',
      '{ zone(siteId: "demo") { name } }',
      '{ system(siteId: "demo") { name } }',
      '{ location(siteId: "demo", locationId: "Floor-1") { name } }',
      '{ entityByIfcId(siteId: "demo", ifcId: "0xo6AnBMPFrAV88$ehQfjy") { ... on Building { name } } }',
    ];
    for (const query of roots) {
      const res = await postGraphQL(h, null, query);
      expect(res.status, query).toBe(200);
      const body = await res.json();
      expect(body.errors, query).toBeUndefined();
      const value = Object.values(body.data)[0];
      expect(Array.isArray(value) ? value.length : value, query).toBeTruthy();
    }
    expect((await h.graphql('{ building(siteId: "demo") { name } }', undefined, null)).data.building).toEqual([
      { name: 'Demo Tower' },
    ]);
  });

  it('an anonymous caller gets 401 on REST, the demo site included', async () => {
    for (const path of ['/api/v1/sites/demo/', '/api/v1/sites/demo/graph', '/api/v1/sites/']) {
      expect((await fetchAs(h, null)(path)).status, path).toBe(401);
    }
  });
});

describe('writes answer 403 for every caller, admin included', () => {
  const turtle =
    '@prefix brick: <https://brickschema.org/schema/Brick#> .\n<https://example.org/intruder#AHU-X> a brick:AHU .\n';
  const WRITES: Array<[string, string, RequestInit]> = [
    ['create it again', '/api/v1/sites/', jsonBody('POST', { id: 'demo', name: 'Demo Tower, mine now' })],
    ['delete it', '/api/v1/sites/demo/', { method: 'DELETE' }],
    ['rename it', '/api/v1/sites/demo/', jsonBody('PATCH', { name: 'Demo Tower, mine now', timezone: 'Asia/Tokyo' })],
    [
      'replace its graph',
      '/api/v1/sites/demo/graph',
      { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: turtle },
    ],
    [
      'merge into its graph',
      '/api/v1/sites/demo/graph',
      { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: turtle },
    ],
    [
      'replace its graph (unversioned path)',
      '/api/sites/demo/graph',
      { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: turtle },
    ],
    ['delete it (unversioned path)', '/api/sites/demo/', { method: 'DELETE' }],
  ];

  it('every write × every authenticated caller → 403 FORBIDDEN', async () => {
    const cells: string[] = [];
    for (const [name, token] of Object.entries(callers)) {
      for (const [write, path, init] of WRITES) {
        const res = await fetchAs(h, token)(path, init);
        const body = await res.json();
        if (res.status !== 403 || body.code !== 'FORBIDDEN')
          cells.push(`${name} × ${write}: ${res.status} ${JSON.stringify(body)}`);
      }
    }
    expect(cells).toEqual([]);
  });

  it('an anonymous write answers 401', async () => {
    for (const [write, path, init] of WRITES) expect((await fetchAs(h, null)(path, init)).status, write).toBe(401);
  });

  it('nothing was written', async () => {
    expect(await exportTriples(h, 'demo')).toEqual(fixtureState);
    expect(await (await h.fetch('/api/v1/sites/demo/')).json()).toMatchObject({
      id: 'demo',
      name: 'Demo Tower',
      timezone: 'Europe/Berlin',
    });
  });
});

/** Resolves when `check` holds, polling every 100 ms for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('resets (BKG_DEMO_RESET_SECONDS=1)', () => {
  let resets = 0;
  beforeAll(() => {
    h.services.demo!.onReset(async () => {
      resets++;
    });
  });

  it('a change made behind the API is undone: the graph returns to the fixture state', async () => {
    const before = resets;
    const merged = await h.services.store.mergeGraph(
      DEMO_GRAPH,
      '@prefix brick: <https://brickschema.org/schema/Brick#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<https://example.org/intruder#AHU-X> a brick:AHU ; rdfs:label "Intruder AHU" .\n',
      'text/turtle',
    );
    expect(merged.triples).toBe(fixtureState.length + 2);
    const names = async () => ((await h.graphql(AHUS)).data.equipment as Array<{ name: string }>).map((e) => e.name);
    await eventually(async () => resets > before && !(await names()).includes('Intruder AHU'), 15_000);
    expect(await exportTriples(h, 'demo')).toEqual(fixtureState);
    expect(sorted((await h.graphql(AHUS)).data.equipment)).toEqual(sorted(fixtureAhus));
  });

  it('an answer kept of the graph changed behind the API is not given after the reset', async () => {
    const intruder =
      '@prefix brick: <https://brickschema.org/schema/Brick#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<https://example.org/intruder#AHU-Y> a brick:AHU ; rdfs:label "Kept intruder" .\n';
    const names = async () => ((await h.graphql(AHUS)).data.equipment as Ahu[]).map((e) => e.name);
    // A reset may come between the change and the query: then change it again.
    await eventually(async () => {
      await h.services.store.mergeGraph(DEMO_GRAPH, intruder, 'text/turtle');
      return (await names()).includes('Kept intruder');
    }, 15_000);
    // That answer is kept; the reset makes no version, yet ends it.
    const before = resets;
    await eventually(async () => resets > before, 15_000);
    expect(await h.services.store.countTriples(DEMO_GRAPH)).toBe(fixtureState.length);
    expect(sorted((await h.graphql(AHUS)).data.equipment)).toEqual(sorted(fixtureAhus));
  });

  it('a graph emptied and a record deleted behind the API come back', async () => {
    await h.services.store.replaceGraph(
      DEMO_GRAPH,
      '<https://example.org/x> <https://example.org/y> "z" .',
      'application/n-triples',
    );
    await h.services.sites.delete('demo');
    await eventually(
      async () =>
        (await h.fetch('/api/v1/sites/demo/')).status === 200 &&
        (await h.services.store.countTriples(DEMO_GRAPH)) === fixtureState.length,
      15_000,
    );
    expect(await exportTriples(h, 'demo')).toEqual(fixtureState);
  });

  it('queries keep answering across resets: none fails, none comes back empty', async () => {
    const start = resets;
    const failures: string[] = [];
    let answered = 0;
    const deadline = Date.now() + 30_000;
    const worker = async () => {
      // Until at least two resets have completed while queries were in flight.
      while (resets < start + 2 && Date.now() < deadline) {
        const [graphql, record] = await Promise.all([postGraphQL(h, null, AHUS), h.fetch('/api/v1/sites/demo/')]);
        const body = await graphql.json();
        if (graphql.status !== 200 || body.errors)
          failures.push(`GraphQL ${graphql.status} ${JSON.stringify(body.errors)}`);
        else if (JSON.stringify(sorted(body.data.equipment)) !== JSON.stringify(sorted(fixtureAhus))) {
          failures.push(`GraphQL answered ${JSON.stringify(body.data.equipment).slice(0, 200)}`);
        }
        if (record.status !== 200) failures.push(`GET site ${record.status}`);
        answered++;
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    expect(resets - start, 'resets while querying').toBeGreaterThanOrEqual(2);
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(3);
  });
});
