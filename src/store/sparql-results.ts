import type { SparqlRow } from './graph-store.ts';

/** Parses a SPARQL 1.1 Query Results JSON document of a SELECT query into rows. */
export function parseSelectResults(json: string): SparqlRow[] {
  const document = JSON.parse(json) as { results?: { bindings?: SparqlRow[] } };
  return document.results?.bindings ?? [];
}
