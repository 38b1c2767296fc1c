/**
 * What differs between SPARQL 1.1 endpoints, in one place. The store speaks the standard protocol
 * and asks its dialect wherever an engine is known to depart from it; each departure below is
 * shown by a test in test/integration/stores/virtuoso-dialect.test.ts.
 */
import { AppError } from '../errors/app-error.ts';
import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import type { RdfTerm, SparqlRow } from './graph-store.ts';
import { SparqlEndpointError } from './sparql-http-client.ts';
import { forVirtuoso } from './virtuoso-query.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';

export interface SparqlDialect {
  readonly name: 'standard' | 'virtuoso';
  /**
   * How a query is POSTed: `direct` as `application/sparql-query`, `form` as `query=` in a
   * form body. Every SPARQL 1.1 endpoint must take both.
   */
  readonly queryEncoding: 'direct' | 'form';
  /**
   * The form parameter that makes the endpoint itself stop a query at a client's deadline (in
   * ms), where it has one; without it an abandoned query runs on in the store until its own limit.
   */
  readonly timeoutParameter: string | undefined;
  /**
   * The results format a SELECT's answer is asked in: SPARQL JSON, or the result set as N-Triples
   * (`res:solution`…) where the endpoint writes that faster (sparql-results.ts).
   */
  readonly selectResults: 'json' | 'result-set';
  /**
   * Whether a query may go on a kept-alive connection. Virtuoso writes an answer larger than its
   * buffer in two writes, and Nagle's algorithm holds the second until the first is acknowledged,
   * which a kept-alive connection does after its delayed ACK, 40 ms later: such queries get a
   * connection of their own (about 1 ms more on loopback).
   */
  readonly keepAlive: boolean;
  /**
   * Whether a failure is the endpoint's query planner giving up on a query it could answer (not a
   * fault of the query); such a query is sent once more after `orderAsWritten`, the endpoint's
   * pragma that joins its patterns in the order written instead of searching for a plan.
   */
  readonly plannerGaveUp?: (error: unknown) => boolean;
  readonly orderAsWritten?: string;
  /** Whether `INSERT DATA` may hold blank nodes (SPARQL 1.1 says yes). */
  readonly blankNodesInInsertData: boolean;
  /** A term of a result as the embedded store would write it. */
  normalizeTerm(term: RdfTerm): RdfTerm;
  /** A query of the service as the endpoint runs it correctly (a rewrite of its algebra). */
  prepareQuery(query: SelectQuery): SelectQuery;
}

/** Literals as SPARQL 1.1 JSON results write them: `literal` with a datatype, none for xsd:string. */
function standardTerm(term: RdfTerm): RdfTerm {
  if (term.type !== 'typed-literal' && !(term.type === 'literal' && term.datatype === `${XSD}string`)) return term;
  const { datatype, ...rest } = term;
  return datatype === `${XSD}string` || datatype === undefined
    ? { ...rest, type: 'literal' }
    : { ...rest, type: 'literal', datatype };
}

/** The protocol as written. */
export const standardDialect: SparqlDialect = {
  name: 'standard',
  queryEncoding: 'direct',
  timeoutParameter: undefined,
  selectResults: 'json',
  keepAlive: true,
  blankNodesInInsertData: true,
  normalizeTerm: standardTerm,
  prepareQuery: (query) => query,
};

/**
 * Virtuoso Open Source 7.2:
 * - a POST with `Content-Type: application/sparql-query` never answers: queries go as forms;
 * - `INSERT DATA` with a blank node fails ("Blank node is not allowed in a constant clause"):
 *   such triples go in an `INSERT { } WHERE { }` template, where blank nodes are allowed;
 * - results use the 2008 `typed-literal` type, type plain strings as xsd:string, and write
 *   booleans as `"1"`/`"0"`: normalized to the canonical form the embedded store answers;
 * - ASK is answered as a one-row SELECT of `1` or `0` (askAnswer reads both forms);
 * - a query past its `timeout=` (ms; a client query's deadline is sent so) or past the server's
 *   MaxQueryExecutionTime answers 200 with what it had, flagged only by `X-SQL-State: S1TAT`:
 *   the store turns that into the deadline's error, never a partial answer;
 * - its results writers are slow (an answer of 1,712 rows took it 330 ms to write in JSON, 72 ms
 *   in XML, 27 ms as a result set in N-Triples): a SELECT's answer is asked as N-Triples;
 * - the end of an answer of 35–70 KB waits 40 ms on a kept-alive connection (a 39 KB answer: 44 ms
 *   against 2): a query goes on a connection of its own (`keepAlive`);
 * - its cost-based planner now and then gives up on a large query it answers at other times
 *   (SQ200 "Stack Overflow in cost model", or its memory pool: a floor's rooms in CI): such a query
 *   is sent once more with `sql:select-option "order"`, which joins the patterns as written (the
 *   rewrites above put the required ones first);
 * - repeated property paths (`*`, `+`, `?`) from a variable are refused or answered in part,
 *   and EXISTS is answered wrongly in several shapes: the service's queries are rewritten into
 *   shapes it answers right (virtuoso-query.ts).
 * Quirks every store is guarded against regardless of dialect (so they need no switch here):
 * a Graph Store POST with a chunked body is answered 201 and loads nothing, so bodies are always
 * sent with a length; results cut at `ResultSetMaxRows` say so only in an `X-SPARQL-MaxRows`
 * header, which the store turns into an error; without GRAPH the default graph is the union of
 * all graphs, and every query the compiler writes names its graph.
 */
export const virtuosoDialect: SparqlDialect = {
  name: 'virtuoso',
  queryEncoding: 'form',
  timeoutParameter: 'timeout',
  selectResults: 'result-set',
  keepAlive: false,
  plannerGaveUp: (error) =>
    error instanceof AppError &&
    error.cause instanceof SparqlEndpointError &&
    /\bVirtuoso 42000 Error SQ200\b/.test(error.cause.message),
  orderAsWritten: 'DEFINE sql:select-option "order"',
  blankNodesInInsertData: false,
  prepareQuery: forVirtuoso,
  normalizeTerm(term) {
    const normal = standardTerm(term);
    if (normal.datatype === `${XSD}boolean` && (normal.value === '1' || normal.value === '0')) {
      return { ...normal, value: normal.value === '1' ? 'true' : 'false' };
    }
    return normal;
  },
};

/** The answer of an ASK query: SPARQL's `{"boolean": …}`, or the one-row SELECT some endpoints write instead. */
export function askAnswer(
  document: { boolean?: boolean; results?: { bindings?: SparqlRow[] } },
  dialect: SparqlDialect,
): boolean {
  if (typeof document.boolean === 'boolean') return document.boolean;
  const [row] = normalizeRows(document.results?.bindings ?? [], dialect);
  const value = row && Object.values(row)[0]?.value;
  return value === 'true' || value === '1';
}

/** The dialect a server names in its `Server` header (Virtuoso says `Virtuoso/07...`). */
export function dialectOfServer(server: string | undefined): SparqlDialect {
  return server && /virtuoso/i.test(server) ? virtuosoDialect : standardDialect;
}

/** A dialect by its configured name. */
export function dialectNamed(name: 'standard' | 'virtuoso'): SparqlDialect {
  return name === 'virtuoso' ? virtuosoDialect : standardDialect;
}

/** Rows with every term normalized by the dialect. */
export function normalizeRows(rows: readonly SparqlRow[], dialect: SparqlDialect): SparqlRow[] {
  return rows.map((row) => {
    const out: Record<string, RdfTerm | undefined> = {};
    for (const [name, term] of Object.entries(row)) out[name] = term && dialect.normalizeTerm(term);
    return out;
  });
}
