// /healthz is the probe an orchestrator restarts the service on: it stays 200 while a failed
// triplestore thread is being rebuilt, and turns 503 `broken` once a thread could not be rebuilt
// (its data directory gone), so the process is restarted rather than left half-serving.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteGraph } from '../../../src/rdf/vocabulary.ts';
import { fetchAs } from '../../support/api-client.ts';
import { createHarness, onEmbeddedStore, type Harness } from '../../support/harness.ts';
import { selectQuery } from '../../support/select-query.ts';

const embedded = onEmbeddedStore();
/** 700 nested groups: Oxigraph's evaluator overflows inside WebAssembly and traps (client SPARQL is refused long before). */
const trappingQuery = (g: string) =>
  selectQuery(`SELECT * WHERE { GRAPH <${g}> { ${'{ '.repeat(700)}?s ?p ?o${' }'.repeat(700)} } } LIMIT 1`);

let h: Harness;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bkg-broken-'));
  // Two store threads, as a service starts with: one that cannot be rebuilt is enough to be broken.
  h = await createHarness({
    sites: { alpha: '<urn:x:a> <urn:x:p> "a" .' },
    env: { BKG_DATA_DIR: dataDir, BKG_STORE_THREADS: '2' },
  });
});
afterAll(async () => {
  await h?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe.skipIf(!embedded)('/healthz when a triplestore thread cannot be rebuilt', () => {
  it('answers 503 broken, naming the graph engine', async () => {
    expect((await fetchAs(h, null)('/healthz')).status).toBe(200);
    // The journal the thread is rebuilt from is gone: every rebuild attempt fails. (Readings of
    // the loaded site are still being written beside the journal: let them land first.)
    await h.services.query.knowledge.profile(siteGraph('alpha'));
    await h.services.store.readings?.settled();
    await rm(join(dataDir, 'graphs'), { recursive: true, force: true });
    await writeFile(join(dataDir, 'graphs'), 'not a directory');
    await expect(
      h.services.store.select(trappingQuery(siteGraph('alpha')), { site: siteGraph('alpha') }),
    ).rejects.toThrow();
    let res = await fetchAs(h, null)('/healthz');
    for (let i = 0; i < 200 && res.status === 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      res = await fetchAs(h, null)('/healthz');
    }
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'broken', engines: { graph: 'broken' } });
  });
});
