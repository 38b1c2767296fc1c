// The ontology graph's version (src/ontology/ensure-ontology-graph.ts): a store kept across an
// upgrade is written again when the kinds' classes change, not only when the ontology file does,
// so its `bkg:kind` marks never lag the code (brick:Collection joined the System kind in #19).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOntologyGraph } from '../../../src/ontology/ensure-ontology-graph.ts';
import type { EntityKind, Ontology } from '../../../src/ontology/ontology.ts';
import { BKG, ONTOLOGY_GRAPH } from '../../../src/rdf/vocabulary.ts';
import type { GraphStore } from '../../../src/store/graph-store.ts';
import { OxigraphStore } from '../../../src/store/oxigraph-store.ts';
import { BRICK, DERIVED_ONTOLOGY_PATH, loadDerivedOntology } from '../../unit/ontology/derived-ontology.ts';
import { selectQuery } from '../../support/select-query.ts';

let store: GraphStore;
let ontology: Ontology;
beforeAll(async () => {
  store = await OxigraphStore.open({ persistDir: await mkdtemp(join(tmpdir(), 'bkg-ontology-version-')) });
  ontology = await loadDerivedOntology();
});
afterAll(async () => {
  await store?.close();
});

/** The ontology as an earlier release saw it: System made of brick:System's classes alone. */
function withSystemsOnly(current: Ontology): Ontology {
  const systems = current.closure(`${BRICK}System`);
  const earlier: Ontology = Object.create(current);
  earlier.kindClasses = (kind: EntityKind) => (kind === 'System' ? systems : current.kindClasses(kind));
  earlier.sortedKindClasses = (kind: EntityKind) =>
    kind === 'System' ? [...systems].sort() : current.sortedKindClasses(kind);
  return earlier;
}

/** Whether the store's ontology graph marks brick:Hot_Water_Loop as a System class. */
const loopIsSystem = async () =>
  (
    await store.select(
      selectQuery(`SELECT ?k WHERE { GRAPH <${ONTOLOGY_GRAPH}> { <${BRICK}Hot_Water_Loop> <${BKG}kind> ?k } }`),
    )
  ).some((row) => row.k?.value === `${BKG}System`);

describe('ensureOntologyGraph', () => {
  it('writes the graph once for the same ontology and kinds', async () => {
    expect((await ensureOntologyGraph(store, ontology, DERIVED_ONTOLOGY_PATH)).written).toBe(true);
    expect((await ensureOntologyGraph(store, ontology, DERIVED_ONTOLOGY_PATH)).written).toBe(false);
  });

  it('writes it again, with the new marks, when a kind gains classes over the same ontology file', async () => {
    expect((await ensureOntologyGraph(store, withSystemsOnly(ontology), DERIVED_ONTOLOGY_PATH)).written).toBe(true);
    expect(await loopIsSystem()).toBe(false);
    expect((await ensureOntologyGraph(store, ontology, DERIVED_ONTOLOGY_PATH)).written).toBe(true);
    expect(await loopIsSystem()).toBe(true);
  });
});
