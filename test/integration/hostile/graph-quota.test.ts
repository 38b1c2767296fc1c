// A site's graph has a quota of triples (BKG_SITE_QUOTA_TRIPLES): a load or a merge past it is
// refused whole with 413 QUOTA_EXCEEDED, the graph stays as it was on every thread and on disk,
// and another site's queries are answered meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { duringAttack, INNOCENT_TTL } from './hostile-support.ts';

const QUOTA = 50;
const triples = (count: number, tag: string) =>
  Array.from({ length: count }, (_, i) => `<urn:${tag}:${i}> <urn:p> "${i}" .`).join('\n');

let h: Harness;

beforeAll(async () => {
  // Two store threads, as a service starts with: a refused load must leave the graph as it was on each.
  h = await createHarness({
    sites: { innocent: INNOCENT_TTL },
    env: { BKG_SITE_QUOTA_TRIPLES: String(QUOTA), BKG_STORE_THREADS: '2' },
  });
  expect(
    (
      await h.fetch('/api/v1/sites/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'full', name: 'Full', timezone: 'UTC' }),
      })
    ).status,
  ).toBe(201);
}, 120_000);

afterAll(async () => {
  await h?.close();
});

const load = (method: 'PUT' | 'POST', body: string) =>
  h.fetch('/api/v1/sites/full/graph', { method, headers: { 'content-type': 'application/n-triples' }, body });
/**
 * The site's triple counts: as the store's threads hold them (several asks reach each thread),
 * and as the SPARQL endpoint's sandbox reads them from the journal on disk (what a restart finds).
 */
const counts = async () => {
  const held = await Promise.all(Array.from({ length: 6 }, () => h.services.store.countTriples('urn:bkg:site:full')));
  const res = await h.fetch(
    `/api/v1/sites/full/sparql?${new URLSearchParams({ query: 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH <urn:bkg:site:full> { ?s ?p ?o } }' })}`,
    { headers: { accept: 'application/sparql-results+json' } },
  );
  const onDisk = Number((await res.json()).results.bindings[0].n.value);
  return new Set([...held, onDisk]);
};
const innocent = async () => {
  const res = await h.graphql('{ equipment(siteId: "innocent", name: "AHU-1", nameMatch: EXACT) { name } }');
  expect(res.data.equipment).toEqual([{ name: 'AHU-1' }]);
};

describe('the triple quota of a site graph', () => {
  it('takes a load within the quota', async () => {
    expect((await load('PUT', triples(40, 'a'))).status).toBe(200);
    expect(await counts()).toEqual(new Set([40]));
  });

  it('refuses a replace past the quota whole (413 QUOTA_EXCEEDED), the graph as it was', async () => {
    const { attack: res } = await duringAttack(() => load('PUT', triples(60, 'b')), innocent);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', quota_triples: QUOTA, triples: 60 });
    expect(await counts()).toEqual(new Set([40]));
  });

  it('refuses a merge that would take the graph past the quota, the graph as it was', async () => {
    const res = await load('POST', triples(20, 'c'));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', triples: 60 });
    expect(await counts()).toEqual(new Set([40]));
    // Within the quota a merge goes on.
    expect((await load('POST', triples(10, 'c'))).status).toBe(200);
    expect(await counts()).toEqual(new Set([50]));
  });
});
