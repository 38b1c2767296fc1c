/**
 * What makes the ontology as a site reads it (`Ontology.forSite`, docs/brick-mapping.md, "How a site's
 * classes are read"): the classes its entities are typed with, so that names of older Brick vintages are read as Brick
 * 1.4's, and the subclasses its graph declares. One query reads both; it is not one of a request's
 * round trips: src/query/site-readers.ts runs it and src/query/site-caches.ts keeps what it read.
 */
import { graph, namedNode, select, triple, union, variable, type SelectQuery } from '../rdf/sparql-algebra.ts';
import { RDF, RDFS } from '../rdf/vocabulary.ts';

/** The query that reads a site graph's classes (column `t`) and subclass declarations (`t`, `sup`). */
export function classStatementsQuery(site: string): SelectQuery {
  const [s, t, sup] = [variable('s'), variable('t'), variable('sup')];
  return select({
    variables: [t, sup],
    distinct: true,
    where: [
      graph(
        namedNode(site),
        union([triple(s, namedNode(`${RDF}type`), t), triple(t, namedNode(`${RDFS}subClassOf`), sup)]),
      ),
    ],
  });
}
