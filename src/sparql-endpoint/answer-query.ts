import { queryTooComplex } from '../errors/app-error.ts';
import { ONTOLOGY_GRAPH, siteGraph } from '../rdf/vocabulary.ts';
import type { ClientQueryResult, GraphStore } from '../store/graph-store.ts';
import { confineQuery, type ConfinedQuery } from './confine-query.ts';

/** How long a client's query may run and how many results (rows, or triples) it may give. */
export interface SparqlLimits {
  readonly timeoutMs: number;
  readonly maxResults: number;
}

/** The client's query confined to the site's graph and the ontology (throws 400 for what is refused). */
export function siteQuery(siteId: string, text: string, limits: SparqlLimits): ConfinedQuery {
  return confineQuery(text, [siteGraph(siteId), ONTOLOGY_GRAPH], limits.maxResults);
}

/**
 * Runs a confined query within the limits; an answer over the result cap is an error, never a part
 * of it. Each query the store runs (the overflow probe, then the query) may take the endpoint's
 * timeout: the embedded store counts it from when the query starts on its thread, so neither the
 * wait for a thread nor the copy of a large graph counts against the client. `signal` is the
 * request's: once its client has gone away, the query leaves its queue or stops.
 */
export async function answerQuery(
  store: GraphStore,
  query: ConfinedQuery,
  limits: SparqlLimits,
  signal?: AbortSignal,
): Promise<ClientQueryResult> {
  const overCap = (what: string) =>
    queryTooComplex(
      `The answer has more than ${limits.maxResults} ${what}, the endpoint's limit; add a LIMIT (and OFFSET to page) or narrow the query.`,
    );
  if (query.overflowProbe) {
    const probe = await store.clientQuery({
      text: query.overflowProbe,
      form: 'SELECT',
      graphs: query.graphs,
      timeoutMs: limits.timeoutMs,
      signal,
    });
    if (probe.form === 'SELECT' && probe.rows.length > 0)
      throw overCap(`triples (its pattern has more than ${limits.maxResults} solutions)`);
  }
  const result = await store.clientQuery({
    text: query.text,
    form: query.form,
    graphs: query.graphs,
    timeoutMs: limits.timeoutMs,
    signal,
  });
  const size = result.form === 'SELECT' ? result.rows.length : result.form === 'ASK' ? 0 : lineCount(result.ntriples);
  if (size > limits.maxResults) throw overCap(result.form === 'SELECT' ? 'rows' : 'triples');
  return result;
}

function lineCount(text: string): number {
  let lines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
