// The embedded store on several threads (src/store/oxigraph-store.ts): sites are served in turn, a
// query past its request's deadline or one that traps the engine costs only its own thread, which
// is rebuilt from the journal (and the volatile graphs) while the other threads serve, and every
// write reaches every thread before it is answered.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestWork } from '../../../src/limits/request-work.ts';
import { OxigraphStore } from '../../../src/store/oxigraph-store.ts';
import { selectQuery } from '../../support/select-query.ts';

const graph = (name: string) => `urn:bkg:site:${name}`;
const VOLATILE = 'urn:bkg:ontology';
const BUDGET = { entities: 1e9, responseBytes: 1e12, storeRows: 1e12 };

/** `count` triples, enough for a three-way cartesian product to run for minutes. */
const triples = (count: number, tag = 'x') =>
  Array.from({ length: count }, (_, i) => `<urn:${tag}:${i}> <urn:p> "${i}" .`).join('\n');
const slowQuery = (g: string) =>
  selectQuery(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${g}> { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i } }`);
const countOf = (g: string) => selectQuery(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${g}> { ?s ?p ?o } }`);
/** 700 nested groups: Oxigraph's evaluator overflows inside WebAssembly and traps. */
const trappingQuery = (g: string) =>
  selectQuery(`SELECT * WHERE { GRAPH <${g}> { ${'{ '.repeat(700)}?s ?p ?o${' }'.repeat(700)} } } LIMIT 1`);

let store: OxigraphStore;

/** The slow query, as the work of a request with `timeoutMs` of engine time and the client's `signal`. */
const slowSelect = (timeoutMs: number, signal?: AbortSignal) =>
  store.select(slowQuery(graph('slow')), {
    site: graph('slow'),
    work: new RequestWork(signal, timeoutMs, BUDGET, 'client'),
  });

beforeEach(async () => {
  store = await OxigraphStore.open({
    persistDir: await mkdtemp(join(tmpdir(), 'bkg-threads-')),
    volatileGraphs: [VOLATILE],
    threads: 2,
  });
  await store.replaceGraph(graph('slow'), triples(2000), 'application/n-triples');
  await store.replaceGraph(graph('other'), triples(10, 'o'), 'application/n-triples');
  await store.replaceGraph(VOLATILE, triples(3, 'v'), 'application/n-triples');
});

afterEach(async () => {
  await store.close();
});

const count = async (g: string) => Number((await store.select(countOf(g), { site: g }))[0]!.n!.value);

/** Waits until the store says it is whole again. */
async function recovered(): Promise<void> {
  for (let i = 0; i < 200 && store.health() !== 'ok'; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(store.health()).toBe('ok');
}

describe('a query past its request deadline', () => {
  it('is stopped at the deadline, and the thread is rebuilt with every graph while the other serves', async () => {
    const started = performance.now();
    await expect(slowSelect(300)).rejects.toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
    expect(performance.now() - started).toBeLessThan(3_000);
    // The other site is answered at once, by the other thread, while the first is rebuilt.
    expect(await count(graph('other'))).toBe(10);
    await recovered();
    // Both threads hold every graph, the volatile one too: ask enough times to reach both.
    const counts = await Promise.all(
      Array.from({ length: 8 }, () => Promise.all([count(graph('slow')), count(VOLATILE)])),
    );
    expect(new Set(counts.map((c) => c.join()))).toEqual(new Set(['2000,3']));
  });

  it('does not count time spent waiting for a thread', async () => {
    // Two slow queries of one site: the second waits behind the first (a site holds one thread of
    // two), then runs for its own 400 ms. Were the wait counted, it would fail at once.
    const runs = [0, 1].map(() =>
      (async () => {
        const started = performance.now();
        await slowSelect(400).catch(() => undefined);
        return performance.now() - started;
      })(),
    );
    const [first, second] = await Promise.all(runs);
    expect(first).toBeGreaterThanOrEqual(390);
    expect(second!).toBeGreaterThan(first! + 300);
  });
});

describe('sites served in turn', () => {
  it("answers another site's queries promptly while one site keeps the store busy with slow ones", async () => {
    const slow = Array.from({ length: 4 }, () => slowSelect(1_500).catch((e: unknown) => e));
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect(await count(graph('other'))).toBe(10);
      times.push(performance.now() - started);
    }
    expect(Math.max(...times)).toBeLessThan(500);
    for (const outcome of await Promise.all(slow)) expect(outcome).toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
  });

  it('drops a waiting query whose client went away', async () => {
    const busy = slowSelect(800).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const controller = new AbortController();
    const waiting = slowSelect(60_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The request was cancelled.' });
    await busy;
  });
});

describe('a thread being rebuilt', () => {
  it("still counts against the site whose query cost it: another site's query finds a thread during the rebuild", async () => {
    // A graph large enough that a rebuild (reading the journal back) takes a while.
    await store.replaceGraph(graph('big'), triples(300_000, 'b'), 'application/n-triples');
    // Answered once the writer has it; the other thread loads it next, and is busy meanwhile.
    await store.whenApplied();
    const controller = new AbortController();
    // Two queries of one site that run to their deadline: the second waits behind the first (a
    // site holds one thread of two), and must still wait while the first's thread is rebuilt.
    const first = slowSelect(300);
    const second = slowSelect(5_000, controller.signal).catch((e: unknown) => e);
    await expect(first).rejects.toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
    // The site asks again meanwhile, which hands out the free thread to whoever is next.
    const third = store
      .select(countOf(graph('slow')), {
        site: graph('slow'),
        work: new RequestWork(controller.signal, 5_000, BUDGET, 'client'),
      })
      .catch((e: unknown) => e);
    const started = performance.now();
    expect(await count(graph('other'))).toBe(10);
    const waited = performance.now() - started;
    const rebuilding = store.health() === 'recovering';
    controller.abort();
    const rebuildStarted = performance.now();
    await recovered();
    expect(waited, 'ms the other site waited for a thread').toBeLessThan(400);
    // The rebuild was still on when the other site was answered, and took long enough to matter.
    expect(rebuilding).toBe(true);
    expect(waited + performance.now() - rebuildStarted).toBeGreaterThan(500);
    for (const waiting of [await second, await third])
      expect(waiting).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The request was cancelled.' });
  });
});

describe('a query that traps the engine', () => {
  it('fails alone: its thread is replaced and rebuilt, every other query is answered', async () => {
    const other = Promise.all(Array.from({ length: 5 }, () => count(graph('other'))));
    await expect(store.select(trappingQuery(graph('slow')), { site: graph('slow') })).rejects.toThrow(/engine failed/);
    expect(await other).toEqual([10, 10, 10, 10, 10]);
    expect(await count(graph('other'))).toBe(10);
    await recovered();
    expect(await count(graph('slow'))).toBe(2000);
  });
});

describe('writes on several threads', () => {
  it('answer a load once the writer has it; no read after the answer misses it, on any thread', async () => {
    await store.replaceGraph(graph('loaded'), triples(100_000, 'l'), 'application/n-triples');
    // Answered while the other thread is still to load it.
    let everywhere = false;
    void store.whenApplied().then(() => (everywhere = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(everywhere).toBe(false);
    const counts = await Promise.all(Array.from({ length: 8 }, () => count(graph('loaded'))));
    expect(counts).toEqual(Array(8).fill(100_000));
    // A document the writer refuses changes no thread.
    await expect(
      store.replaceGraph(graph('loaded'), `${triples(1_000, 'm')}<urn:broken`, 'application/n-triples'),
    ).rejects.toThrow();
    await store.whenApplied();
    expect(await Promise.all(Array.from({ length: 8 }, () => count(graph('loaded'))))).toEqual(Array(8).fill(100_000));
  });

  it('reach every thread before its next query, also while a thread is busy', async () => {
    const busy = slowSelect(600).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.mergeGraph(graph('other'), '<urn:new> <urn:p> "new" .', 'application/n-triples');
    const counts = await Promise.all(Array.from({ length: 8 }, () => count(graph('other'))));
    expect(counts).toEqual(Array(8).fill(11));
    await busy;
    await recovered();
    expect(await Promise.all(Array.from({ length: 8 }, () => count(graph('other'))))).toEqual(Array(8).fill(11));
  });
});
