/**
 * Where the executor's queries go: the store, through `storeRunner`, in the service; canned rows
 * in tests. The executor knows nothing else of the store.
 */
import type { RequestWork } from '../limits/request-work.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import type { SelectQuery } from '../rdf/sparql-algebra.ts';

/** Runs the compiler's queries on a site's graph. */
export interface QueryRunner {
  /** One round trip: the rows `query` selects in `graph`. */
  select(query: SelectQuery, graph: string, work?: RequestWork): Promise<SparqlRow[]>;
}

/** A store as a runner: the query is printed here, at the store's boundary, and run on the site's graph. */
export function storeRunner(store: {
  select(query: SelectQuery, options: { site: string; work?: RequestWork }): Promise<SparqlRow[]>;
}): QueryRunner {
  return { select: (query, graph, work) => store.select(query, { site: graph, work }) };
}
