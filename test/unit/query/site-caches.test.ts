// What the service keeps of each site's graph (profile, ids, class statements) is read once and
// dropped when the graph changes: checked with a fake store that counts its reads and emits changes.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import type { SparqlRow } from '../../../src/rdf/result-row.ts';
import { ONTOLOGY_GRAPH } from '../../../src/rdf/vocabulary.ts';
import type { WatchedGraphs } from '../../../src/query/graph-readings.ts';
import { SiteCaches } from '../../../src/query/site-caches.ts';
import { BRICK, loadDerivedOntology } from '../ontology/derived-ontology.ts';

const G = 'urn:bkg:site:s';
const H = 'urn:bkg:site:h';

/** A store of empty graphs but for one class statement, counting the queries each graph is asked. */
function fakeGraphs() {
  const listeners: Array<(event: { graph: string; done: boolean }) => void> = [];
  const reads = new Map<string, number>();
  const graphs: WatchedGraphs = {
    onChange: (listener) => listeners.push(listener),
    async selectUnreported(query, { site }) {
      reads.set(site, (reads.get(site) ?? 0) + 1);
      const rows: SparqlRow[] = serialize(query).includes('rdfs:subClassOf ?sup')
        ? [{ t: { type: 'uri', value: 'urn:x#MyAHU' }, sup: { type: 'uri', value: `${BRICK}AHU` } }]
        : [];
      return rows;
    },
  };
  /** Tells the caches a graph changed (a load: about to, then done). */
  const change = (graph: string) =>
    listeners.forEach((listener) => (listener({ graph, done: false }), listener({ graph, done: true })));
  return { graphs, change, reads: (graph: string) => reads.get(graph) ?? 0 };
}

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

describe('SiteCaches where this process sees every change', () => {
  it('reads a graph’s profile once, and its ids with it', async () => {
    const { graphs, reads } = fakeGraphs();
    const caches = new SiteCaches(graphs, ontology, { seesEveryChange: true });
    const profile = await caches.profile(G);
    expect(profile).toBeDefined();
    const once = reads(G);
    expect(await caches.profile(G)).toBe(profile);
    expect(await caches.ids(G, profile)).toBe(profile!.ids);
    expect(reads(G)).toBe(once);
  });

  it('drops a graph’s profile when it changes and reads it again, leaving other graphs alone', async () => {
    const { graphs, change, reads } = fakeGraphs();
    const caches = new SiteCaches(graphs, ontology, { seesEveryChange: true });
    const [first, other] = [await caches.profile(G), await caches.profile(H)];
    const [once, otherOnce] = [reads(G), reads(H)];
    change(G);
    const again = await caches.profile(G);
    expect(again).not.toBe(first);
    expect(reads(G)).toBe(2 * once);
    expect(await caches.profile(H)).toBe(other);
    expect(reads(H)).toBe(otherOnce);
  });

  it('drops every profile when the ontology changes', async () => {
    const { graphs, change } = fakeGraphs();
    const caches = new SiteCaches(graphs, ontology, { seesEveryChange: true });
    const first = await caches.profile(G);
    change(ONTOLOGY_GRAPH);
    expect(await caches.profile(G)).not.toBe(first);
  });

  it('reads the site’s classes into its ontology, once until the graph changes', async () => {
    const { graphs, change, reads } = fakeGraphs();
    const caches = new SiteCaches(graphs, ontology, { seesEveryChange: true });
    const site = await caches.ontology(G);
    expect(site.closure(`${BRICK}AHU`).has('urn:x#MyAHU')).toBe(true);
    const once = reads(G);
    await caches.ontology(G);
    expect(reads(G)).toBe(once);
    change(G);
    await caches.ontology(G);
    expect(reads(G)).toBeGreaterThan(once);
  });
});

describe('SiteCaches where another replica may change a graph', () => {
  it('keeps the profile, with its ids, until this process changes the graph, and renews it after a few seconds', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout', 'clearTimeout'] });
    try {
      const { graphs, change, reads } = fakeGraphs();
      const caches = new SiteCaches(graphs, ontology, { seesEveryChange: false });
      const profile = await caches.profile(G);
      expect(profile).toBeDefined();
      const once = reads(G);
      expect(await caches.profile(G)).toBe(profile);
      expect(await caches.ids(G, profile)).toBe(profile!.ids);
      expect(reads(G)).toBe(once);
      // Another replica's change: seen once the reading is renewed, the old one answering meanwhile.
      vi.advanceTimersByTime(6000);
      expect(await caches.profile(G)).toBe(profile);
      await vi.waitFor(() => expect(reads(G)).toBe(2 * once));
      const renewed = await caches.profile(G);
      expect(renewed).not.toBe(profile);
      // This replica's own change: dropped at once, and read again in the background.
      change(G);
      await vi.waitFor(() => expect(reads(G)).toBe(3 * once));
      expect(await caches.profile(G)).not.toBe(renewed);
      expect(reads(G)).toBe(3 * once);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads the ids alone when the profile is late', async () => {
    const { graphs, reads } = fakeGraphs();
    const caches = new SiteCaches(graphs, ontology, { seesEveryChange: false });
    const ids = await caches.ids(G, undefined);
    expect(reads(G)).toBe(1);
    expect(await caches.ids(G, undefined)).toBe(ids);
    expect(reads(G)).toBe(1);
  });
});
