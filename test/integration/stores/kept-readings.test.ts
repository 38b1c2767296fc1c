// What the service reads of a site's graph (profile, ids, classes) is kept beside the embedded
// store's journal (src/store/kept-readings.ts), so the first query after a restart does not scan
// the graph again: kept while the graph is unchanged (a compaction does not change it), given
// back only under the same context (ontology), and never for a graph changed or dropped since.
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { SiteCaches } from '../../../src/query/site-caches.ts';
import { SITE_READINGS_FORMAT } from '../../../src/query/site-reading-codecs.ts';
import { InstrumentedStore } from '../../../src/store/instrumented-store.ts';
import { OxigraphStore } from '../../../src/store/oxigraph-store.ts';
import { loadDerivedOntology } from '../../unit/ontology/derived-ontology.ts';

const G = 'urn:bkg:site:kept';
const CONTEXT = `${SITE_READINGS_FORMAT} v1`;
const BRICK = 'https://brickschema.org/schema/Brick#';
// Two AHUs share a local name (their ids are suffixes), one point is typed with no class of its kind.
const TURTLE = `@prefix brick: <${BRICK}> .
<urn:x/b1/ahu-1> a brick:AHU ; brick:hasPoint <urn:x/b1/p1> .
<urn:x/b2/ahu-1> a brick:AHU ; brick:hasPoint <urn:x/b2/untyped-point> .
<urn:x/b1/p1> a brick:Supply_Air_Temperature_Sensor .
<urn:x/b1/my-ahu> a <urn:x#MyAHU> .
<urn:x#MyAHU> <http://www.w3.org/2000/01/rdf-schema#subClassOf> brick:AHU .
`;

let ontology: Ontology;
let dir: string;
const open: OxigraphStore[] = [];

beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});

async function openStore(options: { rewriteFromBytes?: number } = {}): Promise<OxigraphStore> {
  const store = await OxigraphStore.open({ persistDir: join(dir, 'graphs'), ...options });
  open.push(store);
  await store.whenRestored();
  return store;
}

/** The caches over a store, counting the queries they send it. */
function cachesOver(store: OxigraphStore, ontologyVersion: string) {
  const watched = new InstrumentedStore(store);
  let reads = 0;
  const counting = Object.assign(Object.create(watched) as InstrumentedStore, {
    selectUnreported: (...args: Parameters<InstrumentedStore['selectUnreported']>) => {
      reads++;
      return watched.selectUnreported(...args);
    },
  });
  const caches = new SiteCaches(counting, ontology, { seesEveryChange: true, ontologyVersion });
  return { caches, watched, reads: () => reads };
}

/** Everything the planner reads of the site: its profile (with ids), its ids and its classes. */
async function readingsOf(caches: SiteCaches) {
  const profile = await caches.profile(G, 60_000);
  const ids = await caches.ids(G, profile);
  const site = await caches.ontology(G);
  return {
    untyped: [...profile!.untyped],
    predicates: [...profile!.predicates!].sort(),
    namespaces: profile!.namespaces,
    tags: profile!.tags && [...profile!.tags],
    ids: ['urn:x/b1/ahu-1', 'urn:x/b2/ahu-1', 'urn:x/b1/p1'].map((iri) => ids.idOf(iri)),
    myAhuIsAnAhu: site.closure(`${BRICK}AHU`).has('urn:x#MyAHU'),
  };
}

/** Until the store has kept the reading (it is written in the background). */
async function kept(store: OxigraphStore, name: string, context: string): Promise<unknown> {
  for (let tries = 0; tries < 100; tries++) {
    const value = await store.readings.kept(G, name, context);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

describe('readings kept across restarts', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-kept-readings-'));
  });

  it('a restarted store gives the readings back: the first reading sends no query, and reads the same', async () => {
    const first = await openStore();
    await first.replaceGraph(G, TURTLE, 'text/turtle');
    const before = cachesOver(first, 'v1');
    const read = await readingsOf(before.caches);
    expect(before.reads()).toBeGreaterThan(0);
    expect(read.ids).toEqual(['b1/ahu-1', 'b2/ahu-1', 'p1']);
    expect(read.myAhuIsAnAhu).toBe(true);
    expect(await kept(first, 'profile', CONTEXT)).toBeDefined();
    expect(await kept(first, 'classes', CONTEXT)).toBeDefined();
    await first.close();
    open.splice(0);

    const again = await openStore();
    const after = cachesOver(again, 'v1');
    expect(await readingsOf(after.caches)).toEqual(read);
    expect(after.reads()).toBe(0);
  });

  it('a graph persisted before manifests named their content gets a name at the next start, and its readings are kept', async () => {
    const manifest = join(dir, 'graphs', `${encodeURIComponent(G)}.graph.json`);
    const { content, ...older } = JSON.parse(await readFile(manifest, 'utf8')) as { content?: string };
    expect(content).toMatch(/^[0-9a-f]+$/);
    await writeFile(manifest, JSON.stringify(older));
    const store = await openStore();
    const caches = cachesOver(store, 'v1');
    await readingsOf(caches.caches);
    expect(caches.reads()).toBeGreaterThan(0);
    expect(await kept(store, 'profile', CONTEXT)).toBeDefined();
  });

  it('under another ontology version the graph is read again', async () => {
    const store = await openStore();
    const other = cachesOver(store, 'v2');
    await readingsOf(other.caches);
    expect(other.reads()).toBeGreaterThan(0);
  });

  it('a change of the graph, before a restart or after it, is never answered from what was kept', async () => {
    const store = await openStore();
    const before = cachesOver(store, 'v1');
    await readingsOf(before.caches);
    await before.watched.mergeGraph(G, `<urn:x/b3/ahu-1> a <${BRICK}AHU> .`, 'text/turtle');
    expect(await store.readings.kept(G, 'profile', CONTEXT)).toBeUndefined();
    await store.close();
    open.splice(0);

    const again = await openStore();
    const after = cachesOver(again, 'v1');
    const read = await readingsOf(after.caches);
    expect(after.reads()).toBeGreaterThan(0);
    expect(read.ids[0]).toBe('b1/ahu-1');
    expect(await after.caches.ids(G, await after.caches.profile(G))).toBeDefined();
    expect((await after.caches.profile(G))!.ids.idOf('urn:x/b3/ahu-1')).toBe('b3/ahu-1');
  });

  it('a compaction rewrites the files but keeps the readings; a dropped graph loses them at the next start', async () => {
    const store = await openStore({ rewriteFromBytes: 1 });
    const caches = cachesOver(store, 'v1');
    await caches.watched.replaceGraph(G, TURTLE, 'text/turtle');
    await readingsOf(caches.caches);
    expect(await kept(store, 'profile', CONTEXT)).toBeDefined();
    await store.whenCompacted();
    expect(await store.readings.kept(G, 'profile', CONTEXT)).toBeDefined();

    await caches.watched.dropGraph(G);
    expect(await store.readings.kept(G, 'profile', CONTEXT)).toBeUndefined();
    // Readings of a graph no longer persisted, whoever left them, go at the next start too.
    await writeFile(join(dir, 'graphs', 'readings', encodeURIComponent('urn:bkg:site:gone')), 'x');
    await store.close();
    open.splice(0);
    await openStore();
    await expect.poll(() => readdir(join(dir, 'graphs', 'readings')), { timeout: 5_000 }).toEqual([]);
  });
});
