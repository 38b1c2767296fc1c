// GraphQL answers from memory: the same query on an unchanged graph is answered from the cache with
// the same bytes and an ETag (If-None-Match: 304, GET and POST); every kind of change is seen by
// the next read; callers whose access differs never share an answer; live fields and errors are
// never kept; the cache stays within its bound under a flood of distinct queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, fetchAs, jsonBody, postGraphQL, type CreatedKey } from '../../support/api-client.ts';
import { siteGraph } from '../../../src/rdf/vocabulary.ts';
import { createHarness, onEmbeddedStore, type Harness } from '../../support/harness.ts';

const EX = 'https://example.org/cache#';
const MODEL = `@prefix ex: <${EX}> .
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
ex:ahu a brick:AHU ; rdfs:label "AHU" ; brick:feeds ex:vav1 ; brick:hasPoint ex:sat .
ex:vav1 a brick:VAV ; rdfs:label "VAV 1" .
ex:sat a brick:Supply_Air_Temperature_Sensor ; rdfs:label "SAT" ; ref:hasExternalReference [ ref:hasTimeseriesId "ts-sat" ] .
`;
const EQUIPMENT = `query Equipment($site: String!) { equipment(siteId: $site) { id name feeds { id } } }`;

let h: Harness;
let writer: CreatedKey;
let narrow: CreatedKey;

/** Counts of what the answer cache did, by result. */
async function cacheCounts(): Promise<Record<string, number>> {
  const metric = await h.services.metrics.registry.getSingleMetric('bkg_graphql_answer_cache_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [String(v.labels.result), v.value]));
}

/** What the cache did for one request. */
async function cacheResultOf<T>(send: () => Promise<T>): Promise<{ result: string; value: T }> {
  const before = await cacheCounts();
  const value = await send();
  const after = await cacheCounts();
  const changed = Object.keys(after).filter((k) => after[k] !== (before[k] ?? 0));
  expect(changed).toHaveLength(1);
  return { result: changed[0]!, value };
}

const ask = (token: string, query = EQUIPMENT, variables: Record<string, unknown> = { site: 'hq' }, headers = {}) =>
  fetchAs(h, token)('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });

const change = (method: string, path: string, type: string, body: string) =>
  fetchAs(h, writer.key)(`/api/v1/sites/hq${path}`, { method, headers: { 'content-type': type }, body });

beforeAll(async () => {
  h = await createHarness({ sites: {} });
  for (const id of ['hq', 'other'])
    expect((await h.fetch('/api/v1/sites/', jsonBody('POST', { id, name: id }))).status).toBe(201);
  writer = await createKey(h, { name: 'writer', sites: ['hq', 'other'], write: true });
  narrow = await createKey(h, { name: 'narrow', sites: ['hq'] });
  expect((await change('PUT', '/graph', 'text/turtle', MODEL)).status).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

describe('repeated answers', () => {
  it('a repeated query is answered from memory: the same bytes and ETag; If-None-Match is 304 on POST and GET', async () => {
    const first = await cacheResultOf(() => ask(writer.key));
    const body = await first.value.text();
    const etag = first.value.headers.get('etag');
    expect(first.result).toBe('miss');
    expect(etag).toMatch(/^"q[\w-]+"$/);
    expect(first.value.headers.get('cache-control')).toBe('private, no-cache');
    expect(
      JSON.parse(body)
        .data.equipment.map((e: { id: string }) => e.id)
        .sort(),
    ).toEqual(['ahu', 'vav1']);

    const again = await cacheResultOf(() => ask(writer.key));
    expect(again.result).toBe('hit');
    expect(await again.value.text()).toBe(body);
    expect(again.value.headers.get('etag')).toBe(etag);

    const revalidated = await cacheResultOf(() =>
      ask(writer.key, EQUIPMENT, { site: 'hq' }, { 'if-none-match': etag! }),
    );
    expect(revalidated.result).toBe('not_modified');
    expect(revalidated.value.status).toBe(304);
    expect(await revalidated.value.text()).toBe('');

    const params = new URLSearchParams({ query: EQUIPMENT, variables: JSON.stringify({ site: 'hq' }) });
    const get = await fetchAs(h, writer.key)(`/graphql?${params}`, {
      headers: { accept: 'application/json', 'if-none-match': `W/${etag}` },
    });
    expect(get.status).toBe(304);
    const getAgain = await fetchAs(h, writer.key)(`/graphql?${params}`, { headers: { accept: 'application/json' } });
    expect([getAgain.status, await getAgain.text()]).toEqual([200, body]);
  });

  it('every kind of change is seen by the next read, and an old ETag is answered with the new answer', async () => {
    const read = async () => {
      const res = await ask(writer.key);
      return {
        etag: res.headers.get('etag')!,
        names: (await res.json()).data.equipment.map((e: { name: string }) => e.name).sort(),
      };
    };
    const changes: Array<[string, () => Promise<Response>, string[]]> = [
      [
        'PATCH',
        () =>
          change(
            'PATCH',
            '/graph',
            'application/sparql-update',
            `INSERT DATA { <${EX}vav2> a <https://brickschema.org/schema/Brick#VAV> ; <http://www.w3.org/2000/01/rdf-schema#label> "VAV 2" }`,
          ),
        ['AHU', 'VAV 1', 'VAV 2'],
      ],
      [
        'POST',
        () => change('POST', '/graph', 'text/turtle', `<${EX}vav3> a <https://brickschema.org/schema/Brick#VAV> .`),
        ['AHU', 'VAV 1', 'VAV 2', 'vav3'],
      ],
      ['PUT', () => change('PUT', '/graph', 'text/turtle', MODEL), ['AHU', 'VAV 1']],
      [
        'rollback',
        () => change('POST', '/graph/rollback', 'application/json', JSON.stringify({ to: 2 })),
        ['AHU', 'VAV 1', 'VAV 2'],
      ],
      ['DELETE', () => fetchAs(h, writer.key)('/api/v1/sites/hq/graph', { method: 'DELETE' }), []],
      ['PUT again', () => change('PUT', '/graph', 'text/turtle', MODEL), ['AHU', 'VAV 1']],
    ];
    let previous = await read();
    for (const [kind, send, names] of changes) {
      const res = await send();
      expect(res.status, kind).toBeLessThan(300);
      const now = await read();
      expect(now.names, kind).toEqual(names);
      expect(now.etag, kind).not.toBe(previous.etag);
      const stale = await ask(writer.key, EQUIPMENT, { site: 'hq' }, { 'if-none-match': previous.etag });
      expect(stale.status, kind).toBe(200);
      previous = now;
    }
  });

  it('a change made without a version (through the store, as the demo’s reset and the site files are) is seen by the next read', async () => {
    const ids = async () => (await (await ask(writer.key, EQUIPMENT, { site: 'other' })).json()).data.equipment;
    const before = await ids();
    expect(await cacheResultOf(() => ask(writer.key, EQUIPMENT, { site: 'other' }))).toMatchObject({ result: 'hit' });
    const versions = (await (await fetchAs(h, writer.key)('/api/v1/sites/other/graph/versions')).json()).items;
    await h.services.store.mergeGraph(
      siteGraph('other'),
      `<${EX}unversioned> a <https://brickschema.org/schema/Brick#Boiler> .`,
      'text/turtle',
    );
    const after = await cacheResultOf(async () => (await ask(writer.key, EQUIPMENT, { site: 'other' })).json());
    expect(after.result).toBe('miss');
    expect(after.value.data.equipment).toEqual([...before, { id: 'unversioned', name: 'unversioned', feeds: [] }]);
    // No version was made: the change was the store's alone.
    expect((await (await fetchAs(h, writer.key)('/api/v1/sites/other/graph/versions')).json()).items).toEqual(versions);
  });

  it('never shares an answer between callers whose access differs, nor gives one to a caller who may not read the site', async () => {
    await ask(writer.key);
    const other = await cacheResultOf(() => ask(narrow.key));
    expect(other.result).toBe('miss');
    const same = await cacheResultOf(() => ask(narrow.key));
    expect(same.result).toBe('hit');
    const stranger = await createKey(h, { name: 'stranger', sites: ['other'] });
    const refused = await cacheResultOf(async () => (await ask(stranger.key)).json());
    expect(refused.result).toBe('uncached');
    expect(refused.value.errors[0].extensions.code).toBe('NOT_FOUND');
    const anonymous = await postGraphQL(h, null, EQUIPMENT, { site: 'hq' });
    expect((await anonymous.json()).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(anonymous.headers.get('etag')).toBeNull();
  });

  it('never keeps an answer with a live field, nor one with errors', async () => {
    const live = `{ point(siteId: "hq") { id currentValue { value } } }`;
    const first = await cacheResultOf(() => ask(writer.key, live));
    expect(first.result).toBe('uncached');
    expect(first.value.headers.get('etag')).toBeNull();
    expect((await first.value.json()).data.point).toEqual([{ id: 'sat', currentValue: null }]);
    const posted = await fetchAs(h, writer.key)(
      '/api/v1/sites/hq/readings',
      jsonBody('POST', [{ timeseriesId: 'ts-sat', timestamp: new Date().toISOString(), value: 17.5 }]),
    );
    expect((await posted.json()).stored).toBe(1);
    expect((await (await ask(writer.key, live)).json()).data.point).toEqual([
      { id: 'sat', currentValue: { value: 17.5 } },
    ]);

    const wrong = `{ equipment(siteId: "hq", is: "Not_A_Class") { id } }`;
    const failed = await cacheResultOf(() => ask(writer.key, wrong));
    expect(failed.result).toBe('uncached');
    expect(failed.value.headers.get('etag')).toBeNull();
  });
});

// The bound is the cache's, whatever store answered: held on the embedded store only.
describe.runIf(onEmbeddedStore())('the bound (only on the embedded store)', () => {
  let small: Harness;
  beforeAll(async () => {
    const many = Array.from(
      { length: 200 },
      (_, i) => `ex:e${i} a brick:VAV ; rdfs:label "VAV number ${i} of a long name" .`,
    ).join('\n');
    small = await createHarness({
      sites: {
        big: `@prefix ex: <${EX}> .\n@prefix brick: <https://brickschema.org/schema/Brick#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n${many}\n`,
      },
      env: { BKG_GRAPHQL_CACHE_MB: '1' },
    });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('keeps the answers of a flood of distinct queries within its bytes, the newest kept', async () => {
    const query = `query ($n: Int) { equipment(siteId: "big", limit: $n) { id name } }`;
    let sent = 0;
    for (let n = 100; n < 400; n++) {
      const res = await postGraphQL(small, small.adminKey, query, { n });
      expect(res.status).toBe(200);
      sent += (await res.arrayBuffer()).byteLength;
    }
    expect(sent).toBeGreaterThan(2 * 1024 * 1024);
    const bytes = (await small.services.metrics.registry.getSingleMetric('bkg_graphql_answer_cache_bytes')!.get())
      .values[0]!.value;
    expect(bytes).toBeGreaterThan(512 * 1024);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    const newest = await postGraphQL(small, small.adminKey, query, { n: 399 });
    const counts = await small.services.metrics.registry.getSingleMetric('bkg_graphql_answer_cache_total')!.get();
    expect(newest.status).toBe(200);
    expect(counts.values.find((v) => v.labels.result === 'hit')?.value).toBe(1);
  });
});
