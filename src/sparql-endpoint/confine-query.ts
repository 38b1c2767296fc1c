/**
 * A client's SPARQL query made safe to run: parsed with sparqljs, refused if it could change data
 * or reach outside the site (updates, SERVICE, functions outside SPARQL's own, FROM or GRAPH naming
 * another graph), then rewritten so that it reads exactly the site's graph and the ontology graph
 * whatever the store's default dataset is (explicit FROM and FROM NAMED; every `GRAPH ?g` bound to
 * those graphs), and so that it stops one solution past the result cap.
 */
import sparqljs from 'sparqljs';
import type { GraphPattern, Pattern, Query, SparqlQuery } from 'sparqljs';
import { badUserInput } from '../errors/app-error.ts';
import { PREFIXES } from '../ontology/prefixes.ts';
import { RDF, UNIT } from '../rdf/vocabulary.ts';
import type { QueryForm } from '../store/graph-store.ts';
import { describeParseError } from './describe-parse-error.ts';
import { checkQueryDepth, checkQueryNesting } from './query-nesting.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** Prefixes a query may use without declaring them, as on GraphDB or Virtuoso: Brick's and RDF's own. A query's PREFIX overrides one. */
const DECLARED = { ...PREFIXES, rdf: RDF, xsd: XSD, unit: UNIT, qudt: 'http://qudt.org/schema/qudt/' };
/** SPARQL's own casts are the only IRI-named functions allowed (a store's extension functions may read files or URLs). */
const CASTS = new Set(
  ['string', 'integer', 'decimal', 'double', 'float', 'boolean', 'dateTime', 'date', 'time'].map((n) => XSD + n),
);

/**
 * What the stores run. A client's query stays the client's: sparqljs prints the confined AST back
 * as it parsed it, not the service's serializer, whose IRI check (RFC 3987, as Oxigraph) is
 * stricter than SPARQL's grammar: an IRI the client may send is the store's to judge. It goes on
 * as text: it runs in the Oxigraph sandbox thread and on an external endpoint as it is, no dialect
 * rewrites it, and a namespaced store renames its graphs in that text.
 */
export interface ConfinedQuery {
  readonly text: string;
  readonly form: QueryForm;
  /** The graphs it reads: the site's graph and the ontology graph. */
  readonly graphs: readonly string[];
  /**
   * For a CONSTRUCT or DESCRIBE under the added LIMIT: a SELECT that has a row only when the
   * pattern has more solutions than the cap. Their triples are deduplicated, so an answer under
   * the cap in triples can still be one cut at the LIMIT; this tells the two apart.
   */
  readonly overflowProbe: string | undefined;
}

const refuse = (message: string) => badUserInput(message);

/**
 * A client's query or update parsed, with Brick's and RDF's prefixes declared, after its nesting
 * is checked in the text and once parsed (400 QUERY_TOO_COMPLEX past either limit, 400
 * BAD_USER_INPUT naming where it is not SPARQL 1.1).
 */
export function parseClientSparql(text: string, what: 'query' | 'update'): SparqlQuery {
  checkQueryNesting(text);
  let parsed: SparqlQuery;
  try {
    parsed = new sparqljs.Parser({ prefixes: DECLARED }).parse(text);
  } catch (error) {
    throw refuse(`The ${what} is not valid SPARQL 1.1: ${describeParseError(error, text)}.`);
  }
  checkQueryDepth(parsed);
  return parsed;
}

/**
 * Confines a query to `graphs` (the site's first) and to `maxResults` solutions; throws
 * BAD_USER_INPUT (400) for what it refuses, with a message that says why, and QUERY_TOO_COMPLEX
 * (400) for one nested past query-nesting.ts's limits.
 */
export function confineQuery(text: string, graphs: readonly string[], maxResults: number): ConfinedQuery {
  const parsed = parseClientSparql(text, 'query');
  if (parsed.type === 'update')
    throw refuse('This endpoint is read-only: SPARQL Update (INSERT, DELETE, LOAD, CLEAR, DROP, …) is refused.');
  const query: Query = parsed;
  const allowed = new Set(graphs);
  const outside = (names: readonly { value: string }[] | undefined) => names?.find((n) => !allowed.has(n.value));
  const foreign = outside(query.from?.default) ?? outside(query.from?.named);
  if (foreign)
    throw refuse(
      `The query may read only this site's graph (${graphs[0]}) and the ontology (${graphs.slice(1).join(', ')}); FROM <${foreign.value}> is refused.`,
    );
  // A dataset the query states within the allowed graphs is kept; otherwise both graphs.
  const from = query.from && (query.from.default.length > 0 || query.from.named.length > 0) ? query.from : undefined;
  const named = graphs.map((g) => ({ termType: 'NamedNode', value: g }) as never);
  query.from = { default: from?.default.length ? from.default : named, named: from?.named.length ? from.named : named };
  query.where = confinePatterns(query.where ?? [], allowed, graphs) as Pattern[];
  if (query.values) confineNode(query.values, allowed, graphs);
  for (const key of ['having', 'order', 'group', 'variables', 'template'] as const) {
    const part = (query as unknown as Record<string, unknown>)[key];
    if (part) confineNode(part, allowed, graphs);
  }
  let overflowProbe: string | undefined;
  if (query.queryType !== 'ASK') {
    const limited = query as { limit?: number };
    if (limited.limit === undefined || limited.limit > maxResults) {
      // One past the cap: the answer is over it when that solution comes back.
      limited.limit = maxResults + 1;
      if (query.queryType !== 'SELECT' && query.where?.length) overflowProbe = probeText(query, maxResults);
    }
  }
  return { text: new sparqljs.Generator().stringify(query), form: query.queryType, graphs, overflowProbe };
}

/** `SELECT (1 AS ?overflow)` over the query's dataset and pattern, from the solution just past the cap. */
function probeText(query: Query, cap: number): string {
  const { template: _template, ...rest } = query as Query & { template?: unknown };
  const one = { termType: 'Literal', value: '1', datatype: { termType: 'NamedNode', value: `${XSD}integer` } };
  const probe = {
    ...rest,
    queryType: 'SELECT',
    variables: [{ expression: one, variable: { termType: 'Variable', value: 'overflow' } }],
    offset: ((query as { offset?: number }).offset ?? 0) + cap,
    limit: 1,
  };
  return new sparqljs.Generator().stringify(probe as unknown as SparqlQuery);
}

function confinePatterns(
  patterns: readonly unknown[],
  allowed: ReadonlySet<string>,
  graphs: readonly string[],
): unknown[] {
  return patterns.map((pattern) => confineNode(pattern, allowed, graphs));
}

/**
 * A parsed group of patterns (a WHERE clause) confined to `graphs` as a query's is: SERVICE,
 * foreign GRAPH names and extension functions refused, `GRAPH ?g` bound to `graphs`.
 */
export const confineWhere = (patterns: readonly Pattern[], graphs: readonly string[]): Pattern[] =>
  confinePatterns(patterns, new Set(graphs), graphs) as Pattern[];

/**
 * Walks any part of the parsed query (patterns, expressions, subqueries, EXISTS), refusing SERVICE,
 * foreign GRAPH names and extension functions, and binding `GRAPH ?g` to the allowed graphs.
 */
function confineNode(node: unknown, allowed: ReadonlySet<string>, graphs: readonly string[]): unknown {
  if (Array.isArray(node)) return confinePatterns(node, allowed, graphs);
  if (node === null || typeof node !== 'object' || 'termType' in node) return node;
  const record = node as Record<string, unknown>;
  if (record.type === 'service')
    throw refuse('SERVICE is refused: this endpoint makes no requests to other endpoints.');
  if (record.type === 'query' && (record as { from?: unknown }).from)
    throw refuse('A subquery may not have FROM clauses.');
  if (record.type === 'functionCall') {
    const name = record.function as string | { value: string };
    const iri = typeof name === 'string' ? name : name.value;
    if (!CASTS.has(iri))
      throw refuse(
        `The function <${iri}> is refused: only SPARQL 1.1's built-in functions and XSD casts are available.`,
      );
  }
  for (const [key, value] of Object.entries(record)) {
    if (value && typeof value === 'object') record[key] = confineNode(value, allowed, graphs);
  }
  if (record.type === 'graph') {
    const graph = record as unknown as GraphPattern;
    if (graph.name.termType === 'NamedNode') {
      if (!allowed.has(graph.name.value))
        throw refuse(
          `GRAPH <${graph.name.value}> is refused: the query may read only this site's graph (${graphs[0]}) and the ontology.`,
        );
      return graph;
    }
    // FROM NAMED already limits GRAPH ?g; the VALUES makes it so on a store that reads more.
    const variable = graph.name.value;
    const values = {
      type: 'values',
      values: graphs.map((g) => ({ [`?${variable}`]: { termType: 'NamedNode', value: g } })),
    };
    return { type: 'group', patterns: [values, graph] };
  }
  return record;
}
