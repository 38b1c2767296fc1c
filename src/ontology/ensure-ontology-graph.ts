import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { iri, literal, prologue, sparql } from '../rdf/sparql.ts';
import { BKG, ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { loadOntologyGraph } from './ontology-graph.ts';
import type { Ontology } from './ontology.ts';

const VERSION = `${BKG}version`;

/**
 * Writes the ontology graph unless the store already holds this very version: an external store
 * shared by several replicas (or kept across restarts) is written once, not at every start. The
 * version is a hash of the ontology file and of the code that derives the graph from it, stored
 * in the graph itself after everything else, so a load cut short is written again.
 */
export async function ensureOntologyGraph(store: GraphStore, ontology: Ontology, ontologyPath: string): Promise<{ triples: number; written: boolean }> {
  const version = createHash('sha256')
    .update(await readFile(ontologyPath))
    .update(await readFile(new URL('./ontology-graph.ts', import.meta.url)))
    .digest('hex');
  const found = await store.select(
    sparql`${prologue}\nSELECT ?v WHERE { GRAPH ${iri(ONTOLOGY_GRAPH)} { ${iri(ONTOLOGY_GRAPH)} ${iri(VERSION)} ?v } }`.text,
  );
  if (found.length === 1 && found[0]!.v?.value === version) return { triples: await store.countTriples(ONTOLOGY_GRAPH), written: false };
  await loadOntologyGraph(store, ontology, ontologyPath);
  // Turtle takes SPARQL's PREFIX lines, so the one serializer writes the marker too.
  const marker = sparql`${prologue}\n${iri(ONTOLOGY_GRAPH)} ${iri(VERSION)} ${literal(version)} .\n`.text;
  const { triples } = await store.mergeGraph(ONTOLOGY_GRAPH, marker, 'text/turtle');
  return { triples, written: true };
}
