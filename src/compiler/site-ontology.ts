/**
 * The ontology as a site reads it (`Ontology.forSite`, MAPPING.md "The ontology"): the classes its
 * entities are typed with, so that names of older Brick vintages are read as Brick 1.4's, and the
 * subclasses its graph declares. One query reads both; it is not one of a request's round trips.
 *
 * Kept until the graph changes where this process sees every change of the store (the embedded
 * stores, through `InstrumentedStore.onChange`). An external store may be changed by another
 * replica, so there the reading is also renewed after `EXTERNAL_TTL_MS`: a class another replica's
 * load brings in is read as its Brick 1.4 class within that time (this replica's own loads at once).
 */
import type { Ontology, SiteClassStatements } from '../ontology/ontology.ts';
import type { IriPair } from '../ontology/hierarchy-extractor.ts';
import { graph, namedNode, select, triple, union, variable, type SelectQuery } from '../rdf/sparql-algebra.ts';
import { RDF, RDFS } from '../rdf/vocabulary.ts';
import type { GraphStore, SparqlRow } from '../store/graph-store.ts';
import { InstrumentedStore } from '../store/instrumented-store.ts';
import { GraphReadings } from './graph-readings.ts';

const EXTERNAL_TTL_MS = 5000;

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

const byStore = new WeakMap<InstrumentedStore, GraphReadings<SiteClassStatements>>();

/** A site graph's class statements, from an unreported select. */
const readStatements = async (run: (query: SelectQuery) => Promise<SparqlRow[]>, graph: string) => statementsOf(await run(classStatementsQuery(graph)));

/** The ontology as the site of `graph` reads it. */
export async function siteOntology(store: GraphStore, ontology: Ontology, graph: string): Promise<Ontology> {
  if (!(store instanceof InstrumentedStore)) return ontology.forSite(await readStatements((query) => store.select(query, { site: graph }), graph));
  let readings = byStore.get(store);
  const keptFor = () => (store.name === 'sparql' ? EXTERNAL_TTL_MS : undefined);
  if (!readings) byStore.set(store, (readings = new GraphReadings(store, readStatements, keptFor)));
  return ontology.forSite(await readings.of(graph));
}
