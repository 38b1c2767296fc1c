/**
 * A store whose graphs are kept under another namespace: the service names its graphs
 * `urn:bkg:site:<id>` and `urn:bkg:ontology`; on the store they are `<namespace>site:<id>` and
 * `<namespace>ontology`. Several deployments (or test runs) can so share one triplestore without
 * seeing each other's sites. In a query only the graph names after GRAPH (and, in a client's text,
 * FROM and FROM NAMED, found by a scan that skips strings and comments) change: never a term in a pattern.
 */
import { namedNode, type SelectQuery } from '../rdf/sparql-algebra.ts';
import { mapPatterns } from './sparql-rewrite.ts';
import type { GraphPatch } from '../rdf/rdf-patch.ts';
import type {
  ChangeResult,
  ClientQuery,
  ClientQueryResult,
  GraphStore,
  LoadResult,
  RdfFormat,
  RdfSource,
  RdfTerm,
  SelectOptions,
  SparqlRow,
} from './graph-store.ts';

const SERVICE_GRAPHS = 'urn:bkg:';

/** Wraps a store so that every graph the service names lives under `namespace` there. */
export class NamespacedStore implements GraphStore {
  constructor(
    private readonly inner: GraphStore,
    private readonly namespace: string,
  ) {}

  get name(): string {
    return this.inner.name;
  }

  /** The store's name for a graph of the service. */
  graph(name: string): string {
    return name.startsWith(SERVICE_GRAPHS) && !name.startsWith(this.namespace)
      ? this.namespace + name.slice(SERVICE_GRAPHS.length)
      : name;
  }

  select(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    return this.inner.select(this.renameGraphs(query), options);
  }

  /** The query with the service's graphs it names (after GRAPH, FROM and FROM NAMED) in the namespace. */
  private renameGraphs(query: SelectQuery): SelectQuery {
    const named = <T extends { termType: string; value: string }>(term: T): T =>
      term.termType === 'NamedNode' && this.graph(term.value) !== term.value
        ? (namedNode(this.graph(term.value)) as unknown as T)
        : term;
    const where = mapPatterns(query.where ?? [], (p, walk) =>
      p.type === 'graph' ? [{ ...p, name: named(p.name), patterns: walk(p.patterns) }] : undefined,
    );
    const from = query.from && { default: query.from.default.map(named), named: query.from.named.map(named) };
    return { ...query, where, ...(from ? { from } : {}) };
  }

  /**
   * A confined client query names its graphs also as terms (a `VALUES` binding `GRAPH ?g`), so
   * there every IRI of a graph it may read is renamed, and the answer names them back.
   */
  async clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    const stored = new Map(query.graphs.map((g) => [g, this.graph(g)]));
    const back = new Map([...stored].map(([service, store]) => [store, service]));
    const text = query.text.replace(TOKEN, (token, iri: string | undefined) =>
      iri !== undefined && stored.has(iri) ? `<${stored.get(iri)}>` : token,
    );
    const result = await this.inner.clientQuery({ ...query, text: this.rename(text), graphs: [...stored.values()] });
    if (result.form === 'ASK') return result;
    if (result.form === 'SELECT') {
      const named = (term: RdfTerm | undefined) =>
        term?.type === 'uri' && back.has(term.value) ? { ...term, value: back.get(term.value)! } : term;
      return {
        ...result,
        rows: result.rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, term]) => [k, named(term)]))),
      };
    }
    let ntriples = result.ntriples;
    for (const [store, service] of back) ntriples = ntriples.replaceAll(`<${store}>`, `<${service}>`);
    return { ...result, ntriples };
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.inner.replaceGraph(this.graph(graph), data, format);
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.inner.mergeGraph(this.graph(graph), data, format);
  }

  changeGraph(graph: string, patch: GraphPatch, clear?: boolean): Promise<ChangeResult> {
    return this.inner.changeGraph(this.graph(graph), patch, clear);
  }

  dropGraph(graph: string): Promise<void> {
    return this.inner.dropGraph(this.graph(graph));
  }

  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.inner.exportGraph(this.graph(graph), format);
  }

  countTriples(graph: string): Promise<number> {
    return this.inner.countTriples(this.graph(graph));
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** A client's query text with its GRAPH names and FROM / FROM NAMED in the namespace. */
  private rename(query: string): string {
    if (!query.includes(SERVICE_GRAPHS)) return query;
    let out = '';
    let last = 0;
    for (const { start, end, iri } of graphNames(query)) {
      out += `${query.slice(last, start)}<${this.graph(iri)}>`;
      last = end;
    }
    return out + query.slice(last);
  }
}

// The tokens that matter here, in SPARQL's terms: strings and comments (skipped whole), IRIs,
// variables and (prefixed) names, so that only the keywords GRAPH, FROM and NAMED count as such.
const TOKEN =
  /"""(?:(?:"|"")?(?:[^"\\]|\\.))*"""|'''(?:(?:'|'')?(?:[^'\\]|\\.))*'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|#[^\n]*|<([^<>"{}|^`\\\u0000-\u0020]*)>|[?$]\w+|[\w-]*:[\w.%-]*|[A-Za-z_]\w*|\S/g;

/** Where the query names a graph: an IRI right after GRAPH, FROM or FROM NAMED, found by a SPARQL-aware scan. */
function* graphNames(query: string): Generator<{ start: number; end: number; iri: string }> {
  let previous = '';
  for (const match of query.matchAll(TOKEN)) {
    const token = match[0];
    if (match[1] !== undefined && /^(GRAPH|FROM|NAMED)$/i.test(previous))
      yield { start: match.index, end: match.index + token.length, iri: match[1] };
    if (token[0] !== '#') previous = token;
  }
}
