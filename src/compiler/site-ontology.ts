/**
 * What makes the ontology as a site reads it (`Ontology.forSite`, MAPPING.md "The ontology"): the
 * classes its entities are typed with, so that names of older Brick vintages are read as Brick
 * 1.4's, and the subclasses its graph declares. One query reads both; it is not one of a request's
 * round trips, and its reading is kept outside the compiler (src/query/site-caches.ts).
 */
import type { SiteClassStatements } from '../ontology/ontology.ts';
import type { IriPair } from '../ontology/hierarchy-extractor.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import { graph, namedNode, select, triple, union, variable, type SelectQuery } from '../rdf/sparql-algebra.ts';
import { RDF, RDFS } from '../rdf/vocabulary.ts';

/** The query that reads a site graph's classes and subclass declarations. */
function classStatementsQuery(site: string): SelectQuery {
  const [s, t, sup] = [variable('s'), variable('t'), variable('sup')];
  return select({
    variables: [t, sup],
    distinct: true,
    where: [graph(namedNode(site), union([triple(s, namedNode(`${RDF}type`), t), triple(t, namedNode(`${RDFS}subClassOf`), sup)]))],
  });
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
export async function readClassStatements(select: (query: SelectQuery) => Promise<SparqlRow[]>, graph: string): Promise<SiteClassStatements> {
  return statementsOf(await select(classStatementsQuery(graph)));
}
