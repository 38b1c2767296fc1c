/**
 * What makes the ontology as a site reads it (`Ontology.forSite`, MAPPING.md "The ontology"): the
 * classes its entities are typed with, so that names of older Brick vintages are read as Brick
 * 1.4's, and the subclasses its graph declares. One query reads both; it is not one of a request's
 * round trips, and its reading is kept outside the compiler (src/query/site-caches.ts).
 */
import type { SiteClassStatements } from '../ontology/ontology.ts';
import type { IriPair } from '../ontology/hierarchy-extractor.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import { iri, prologue, sparql } from '../rdf/sparql.ts';

/** The query that reads a site graph's classes and subclass declarations. */
function classStatementsQuery(graph: string): string {
  return sparql`${prologue}
SELECT DISTINCT ?t ?sup WHERE { GRAPH ${iri(graph)} { { ?s a ?t } UNION { ?t rdfs:subClassOf ?sup } } }`.text;
}

/** The statements of a site graph's classes, from the rows of `classStatementsQuery`. */
function statementsOf(rows: readonly SparqlRow[]): SiteClassStatements {
  const types = new Set<string>();
  const subClassOf: IriPair[] = [];
  for (const { t, sup } of rows) {
    if (t?.type !== 'uri') continue;
    if (sup === undefined) types.add(t.value);
    else if (sup.type === 'uri') subClassOf.push([t.value, sup.value]);
  }
  return { types: [...types], subClassOf };
}

/** Reads a site graph's class statements through `select` (one query). */
export async function readClassStatements(select: (query: string) => Promise<SparqlRow[]>, graph: string): Promise<SiteClassStatements> {
  return statementsOf(await select(classStatementsQuery(graph)));
}
