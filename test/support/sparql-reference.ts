/**
 * A plain SPARQL reference for the GraphQL answers on real-model fixtures: the fixture
 * and the service's own Brick hierarchy loaded into a fresh in-process Oxigraph, in its default
 * graph, and asked a hand-written SPARQL question that says what the answer must be, with none of
 * the service's planner in between. A test compares the service's answer with the reference's.
 */
import { readFileSync } from 'node:fs';
import oxigraph from 'oxigraph';

const HIERARCHY = readFileSync(new URL('../../ontology/brick-hierarchy.ttl', import.meta.url), 'utf8');

export const REFERENCE_PREFIXES = `PREFIX brick: <https://brickschema.org/schema/Brick#>
PREFIX ref: <https://brickschema.org/schema/Brick/ref#>
PREFIX rec: <https://w3id.org/rec#>
PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
`;

/** A store holding the fixture's Turtle and (unless `withOntology` is false) the Brick hierarchy, in one default graph. */
export function referenceStore(turtle: string, options: { withOntology?: boolean } = {}): oxigraph.Store {
  const store = new oxigraph.Store();
  store.load(turtle, { format: 'text/turtle', base_iri: 'urn:fixture:' });
  if (options.withOntology !== false) store.load(HIERARCHY, { format: 'text/turtle' });
  return store;
}

/** The values of the variable `name` in the answers of a SELECT (prefixes above predeclared), sorted, duplicates kept. */
export function referenceColumn(store: oxigraph.Store, query: string, name: string): string[] {
  const results = store.query(REFERENCE_PREFIXES + query) as Map<string, oxigraph.Term>[];
  return results.map((row) => row.get(name)?.value ?? '').sort();
}

/** Relationship paths for reference queries, read in both directions as docs/brick-mapping.md says. */
export const REFERENCE_PATHS = {
  part: '(brick:hasPart|^brick:isPartOf)',
  point: '(brick:hasPoint|^brick:isPointOf)',
  located: '(brick:hasLocation|^brick:isLocationOf)',
} as const;

/** A reference pattern: `v` is an instance of the Brick class `root` or of one of its subclasses. */
export const referenceIsA = (v: string, root: string) => `${v} a/rdfs:subClassOf* brick:${root} .`;
