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
import { iri, prologue, sparql } from '../rdf/sparql.ts';
import type { GraphStore, SparqlRow } from '../store/graph-store.ts';
import { InstrumentedStore } from '../store/instrumented-store.ts';

const EXTERNAL_TTL_MS = 5000;

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

/** Readings of one store's site graphs, dropped when a graph changes (and, for an external store, when old). */
class SiteClassReadings {
  private readonly readings = new Map<string, { readonly at: number; readonly statements: Promise<SiteClassStatements> }>();

  constructor(
    private readonly store: InstrumentedStore,
    private readonly ttlMs: number | undefined,
  ) {
    store.onChange(({ graph }) => this.readings.delete(graph));
  }

  of(graph: string): Promise<SiteClassStatements> {
    const now = performance.now();
    const known = this.readings.get(graph);
    if (known && (this.ttlMs === undefined || now - known.at < this.ttlMs)) return known.statements;
    const statements = this.store.selectUnreported(classStatementsQuery(graph), { site: graph }).then(statementsOf);
    const entry = { at: now, statements };
    this.readings.set(graph, entry);
    // A reading that failed (the site is still being restored) is read again next time.
    statements.catch(() => {
      if (this.readings.get(graph) === entry) this.readings.delete(graph);
    });
    return statements;
  }
}

const byStore = new WeakMap<InstrumentedStore, SiteClassReadings>();

/** The ontology as the site of `graph` reads it. */
export async function siteOntology(store: GraphStore, ontology: Ontology, graph: string): Promise<Ontology> {
  if (!(store instanceof InstrumentedStore)) return ontology.forSite(statementsOf(await store.select(classStatementsQuery(graph), { site: graph })));
  let readings = byStore.get(store);
  if (!readings) byStore.set(store, (readings = new SiteClassReadings(store, store.name === 'sparql' ? EXTERNAL_TTL_MS : undefined)));
  return ontology.forSite(await readings.of(graph));
}
