import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { graph, namedNode, select, triple, variable } from '../rdf/sparql-algebra.ts';
import { BKG, ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { ENTITY_KINDS } from './entity-kind.ts';
import { loadOntologyGraph } from './ontology-graph.ts';
import type { Ontology } from './ontology.ts';

const VERSION = `${BKG}version`;

/**
 * The version of the ontology graph: a hash of the ontology file, of the code that derives the
 * graph from it and of the kinds' classes. What is read of a site against this graph is kept
 * across restarts under it too (src/query/site-caches.ts).
 */
export async function ontologyGraphVersion(ontology: Ontology, ontologyPath: string): Promise<string> {
  const hash = createHash('sha256')
    .update(await readFile(ontologyPath))
    .update(await readFile(new URL('./ontology-graph.ts', import.meta.url)));
  // The kind marks come from code beside this file too (kind roots, replacement links): hashed as
  // derived, so a store kept across an upgrade that changes a kind gets its marks rewritten.
  for (const kind of ENTITY_KINDS) hash.update(`${kind}\n${ontology.sortedKindClasses(kind).join('\n')}\n`);
  return hash.digest('hex');
}

/**
 * Writes the ontology graph unless the store already holds this very version
 * (`ontologyGraphVersion`): an external store shared by several replicas (or kept across
 * restarts) is written once, not at every start. The version is stored in the graph itself after
 * everything else, so a load cut short is written again.
 */
export async function ensureOntologyGraph(
  store: GraphStore,
  ontology: Ontology,
  ontologyPath: string,
  version?: string,
): Promise<{ triples: number; written: boolean }> {
  version ??= await ontologyGraphVersion(ontology, ontologyPath);
  const v = variable('v');
  const found = await store.select(
    select({
      variables: [v],
      where: [graph(namedNode(ONTOLOGY_GRAPH), triple(namedNode(ONTOLOGY_GRAPH), namedNode(VERSION), v))],
    }),
  );
  if (found.length === 1 && found[0]!.v?.value === version)
    return { triples: await store.countTriples(ONTOLOGY_GRAPH), written: false };
  await loadOntologyGraph(store, ontology, ontologyPath);
  // One N-Triples line of constants and a hex digest: nothing in it needs escaping.
  const marker = `<${ONTOLOGY_GRAPH}> <${VERSION}> "${version}" .\n`;
  const { triples } = await store.mergeGraph(ONTOLOGY_GRAPH, marker, 'application/n-triples');
  return { triples, written: true };
}
