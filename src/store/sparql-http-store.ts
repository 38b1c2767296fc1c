/**
 * A GraphStore on any SPARQL 1.1 endpoint: queries and updates over the SPARQL 1.1 Protocol,
 * bulk loads over the Graph Store Protocol when the endpoint has one, else chunked INSERTs.
 * Loads keep the GraphStore contract: the data is parsed here first (line and column on a
 * syntax error) and only the default graph of quad formats is sent, so a bad document or a
 * named graph in a body never reaches the endpoint.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import oxigraph from 'oxigraph';
import { serviceUnavailable } from '../errors/app-error.ts';
import { deadlineExceeded } from '../limits/request-work.ts';
import { aggregate, dropGraph, graph as graphPattern, insertData, moveGraph, namedNode, select, triple, update, variable, type SelectQuery, type Triple, type Update, type VariableTerm } from '../rdf/sparql-algebra.ts';
import type { ConstructQuery } from 'sparqljs';
import { serialize } from '../rdf/sparql-serializer.ts';
import { type ClientQuery, type ClientQueryResult, type GraphStore, type LoadResult, type RdfFormat, type RdfSource, type SelectOptions, type SparqlRow } from './graph-store.ts';
import type { Credentials } from './http-auth.ts';
import { hasBlankNode, ntriple, parseTriples } from './rdf-input.ts';
import { SparqlHttpClient, type HttpAnswer, type SendOptions, type SizedBody } from './sparql-http-client.ts';
import { askAnswer, dialectNamed, dialectOfServer, normalizeRows, type SparqlDialect } from './sparql-dialect.ts';
import { parseResultSetNTriples, parseSelectResults } from './sparql-results.ts';

export interface SparqlHttpStoreOptions {
  readonly queryUrl: string;
  /** Defaults to the query endpoint. */
  readonly updateUrl?: string;
  /** Graph Store Protocol endpoint (`?graph=` names the graph); unset: loads use INSERTs. */
  readonly gspUrl?: string;
  readonly credentials?: Credentials;
  readonly timeoutMs: number;
  readonly maxConnections: number;
  readonly dialect: 'auto' | 'standard' | 'virtuoso';
  /** Where a large document waits on its way to the store; the OS's temporary directory when unset. */
  readonly spoolDir?: string;
}

// Loads without a Graph Store endpoint: triples per INSERT request (Virtuoso's SPARQL parser runs
// out of memory near 5,000 lines).
const INSERT_BATCH = 2_000;
// Loads over the Graph Store Protocol are sent whole, with a length; past this they wait on disk.
const SPOOL_IN_MEMORY = 16 * 1024 * 1024;

const results = { accept: 'application/sparql-results+json' };
const RESULT_SET_ACCEPT = 'application/n-triples';
// Graphs come back in whichever of these the endpoint writes, and are read back with Oxigraph.
const GRAPH_ACCEPT = 'application/n-triples, text/plain;q=0.9, text/turtle;q=0.8';

/** The SPARQL 1.1 protocol store. */
export class SparqlHttpStore implements GraphStore {
  readonly name = 'sparql';
  private readonly client: SparqlHttpClient;
  private readonly queryUrl: URL;
  private readonly updateUrl: URL;
  private readonly gspUrl: URL | undefined;
  private resolvedDialect: Promise<SparqlDialect> | undefined;

  constructor(private readonly options: SparqlHttpStoreOptions) {
    this.client = new SparqlHttpClient(options);
    this.queryUrl = new URL(options.queryUrl);
    this.updateUrl = new URL(options.updateUrl ?? options.queryUrl);
    this.gspUrl = options.gspUrl ? new URL(options.gspUrl) : undefined;
    if (options.dialect !== 'auto') this.resolvedDialect = Promise.resolve(dialectNamed(options.dialect));
  }

  /** The endpoint's dialect; `auto` asks the server once (a GET, which every endpoint answers). */
  dialect(): Promise<SparqlDialect> {
    this.resolvedDialect ??= this.client
      .send(withParams(this.queryUrl, { query: 'ASK {}' }), { method: 'GET', headers: results, deadline: true })
      .then((answer) => dialectOfServer(header(answer, 'server')));
    // A failed attempt (endpoint down) is not remembered: the next request asks again.
    this.resolvedDialect.catch(() => (this.resolvedDialect = undefined));
    return this.resolvedDialect;
  }

  private async query(text: string, accept: string, ownDeadline?: SendOptions['ownDeadline'], signal?: AbortSignal): Promise<HttpAnswer> {
    const dialect = await this.dialect();
    try {
      return await this.queryOnce(dialect, text, accept, ownDeadline, signal);
    } catch (error) {
      // The endpoint's planner gave up on the query (see `SparqlDialect.plannerGaveUp`): once more,
      // with its patterns joined in the order written.
      if (!dialect.plannerGaveUp?.(error) || !dialect.orderAsWritten) throw error;
      return this.queryOnce(dialect, `${dialect.orderAsWritten}\n${text}`, accept, ownDeadline, signal);
    }
  }

  private async queryOnce(dialect: SparqlDialect, text: string, accept: string, ownDeadline?: SendOptions['ownDeadline'], signal?: AbortSignal): Promise<HttpAnswer> {
    const answer = await this.client.send(this.queryUrl, {
      method: 'POST',
      headers: {
        accept,
        'content-type': dialect.queryEncoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/sparql-query',
        ...(dialect.keepAlive ? {} : { connection: 'close' }),
      },
      body: () => {
        if (dialect.queryEncoding !== 'form') return text;
        const timeout = ownDeadline && dialect.timeoutParameter ? { [dialect.timeoutParameter]: String(ownDeadline.ms) } : {};
        return new URLSearchParams({ query: text, ...timeout }).toString();
      },
      deadline: true,
      ownDeadline,
      signal,
      idempotent: true,
    });
    // Virtuoso cuts results at ResultSetMaxRows, or at a timeout, and says so only in a header:
    // never pass on a partial answer.
    const cut = header(answer, 'x-sparql-maxrows');
    if (cut !== undefined) throw new Error(`The triplestore cut the results at ${cut} rows; raise its result limit.`);
    if (header(answer, 'x-sql-state') === 'S1TAT') {
      throw ownDeadline?.error() ?? serviceUnavailable('The triplestore stopped the query at its own time limit and answered part of it.');
    }
    return answer;
  }

  /**
   * Within a request, a query may take what is left of the request's deadline when that is shorter
   * than the store's own timeout (the endpoint is told too, where its dialect has a parameter).
   */
  async select(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    const dialect = await this.dialect();
    const work = options?.work;
    const left = work?.remainingMs();
    const ownDeadline = work && left! < this.options.timeoutMs ? { ms: Math.ceil(left!), error: () => deadlineExceeded(work.timeoutMs) } : undefined;
    const started = performance.now();
    const text = serialize(dialect.prepareQuery(query));
    const resultSet = dialect.selectResults === 'result-set';
    let answer: HttpAnswer;
    try {
      answer = await this.query(text, resultSet ? RESULT_SET_ACCEPT : results.accept, ownDeadline, work?.signal);
    } finally {
      work?.chargeTime(performance.now() - started);
    }
    // A result set this reader does not know is asked again as JSON.
    const rows = resultSet ? await parseResultSetNTriples(answer.text) : parseSelectResults(answer.text);
    return normalizeRows(rows ?? parseSelectResults((await this.query(text, results.accept, ownDeadline)).text), dialect);
  }

  async clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    const graphResult = query.form === 'CONSTRUCT' || query.form === 'DESCRIBE';
    // The endpoint's own limits stay as they are; ours is a deadline on the request.
    const answer = await this.query(query.text, graphResult ? GRAPH_ACCEPT : results.accept, { ms: query.timeoutMs, error: () => deadlineExceeded(query.timeoutMs) }, query.signal);
    if (query.form === 'CONSTRUCT' || query.form === 'DESCRIBE') {
      return { form: query.form, ntriples: graphOf(answer).dump({ format: 'application/n-triples', from_graph_name: oxigraph.defaultGraph() }) };
    }
    const document = JSON.parse(answer.text) as { head?: { vars?: string[] }; boolean?: boolean; results?: { bindings?: SparqlRow[] } };
    const dialect = await this.dialect();
    if (query.form === 'ASK') return { form: 'ASK', value: askAnswer(document, dialect) };
    return { form: 'SELECT', vars: document.head?.vars ?? [], rows: normalizeRows(document.results?.bindings ?? [], dialect) };
  }

  /** Runs SPARQL Update operations (one request, so the endpoint may apply them together). */
  async update(operations: Update): Promise<void> {
    const text = serialize(operations);
    await this.client.send(this.updateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: () => new URLSearchParams({ update: text }).toString(),
      deadline: false,
    });
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.load(graph, data, format, true);
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.load(graph, data, format, false);
  }

  private async load(graph: string, data: RdfSource, format: RdfFormat, replace: boolean): Promise<LoadResult> {
    if (this.gspUrl) await this.loadWhole(this.gspUrl, graph, data, format, replace);
    else await this.loadInBatches(graph, data, format, replace);
    return { triples: await this.countTriples(graph) };
  }

  /**
   * Graph Store Protocol: the whole document is parsed before anything is sent, then goes in one
   * request (PUT replaces, POST adds), so a syntax error sends nothing and blank nodes keep their
   * identity across the document.
   */
  private async loadWhole(gsp: URL, graph: string, data: RdfSource, format: RdfFormat, replace: boolean): Promise<void> {
    const spool = await Spool.of(data, format, graph, this.options.spoolDir ?? tmpdir());
    try {
      if (spool.triples === 0) {
        if (replace) await this.dropGraph(graph);
        return;
      }
      await this.client.send(withParams(gsp, { graph }), {
        method: replace ? 'PUT' : 'POST',
        headers: { 'content-type': 'application/n-triples' },
        body: () => spool.body(),
        deadline: false,
      });
    } finally {
      await spool.discard();
    }
  }

  /**
   * Without a Graph Store endpoint: INSERTs into a temporary graph as the document is parsed, then
   * one update moves it into place, so a syntax error halfway leaves the graph as it was. Triples
   * with blank nodes are sent together at the end: a label names the same node only within one
   * request.
   */
  private async loadInBatches(graph: string, data: RdfSource, format: RdfFormat, replace: boolean): Promise<void> {
    const dialect = await this.dialect();
    const temporary = `urn:bkg:tmp:${randomUUID()}`;
    const target = namedNode(temporary);
    const withBlankNodes: oxigraph.Quad[] = [];
    let sent = 0;
    try {
      for await (const batch of parseTriples(data, format, graph, INSERT_BATCH)) {
        const plain: Triple[] = [];
        for (const quad of batch) {
          if (hasBlankNode(quad)) withBlankNodes.push(quad);
          else plain.push(quad as Triple);
        }
        if (plain.length > 0) await this.update(update(insertData(target, plain)));
        sent += plain.length;
      }
      for (const group of blankNodeGroups(withBlankNodes, INSERT_BATCH)) {
        await this.update(update(insertData(target, group as Triple[], !dialect.blankNodesInInsertData)));
        sent += group.length;
      }
      const into = namedNode(graph);
      if (replace) {
        await this.update(update(sent === 0 ? dropGraph(into) : moveGraph(target, into)));
      } else if (sent > 0) {
        await this.update(update(moveGraph(target, into, 'add'), dropGraph(target)));
      }
    } catch (error) {
      await this.update(update(dropGraph(target))).catch(() => undefined);
      throw error;
    }
  }

  async dropGraph(graph: string): Promise<void> {
    await this.update(update(dropGraph(namedNode(graph))));
  }

  async exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    const accept = GRAPH_ACCEPT;
    const answer = this.gspUrl
      ? // The same deadline as queries: a store that hangs must answer 503, not hold the request forever.
        await this.client.send(withParams(this.gspUrl, { graph }), { method: 'GET', headers: { accept }, deadline: true, accept: [404] })
      : await this.query(serialize(constructAll(graph)), accept);
    if (answer.status === 404) return '';
    // Read back and written by Oxigraph, so every store exports the same text for the same graph.
    return graphOf(answer).dump({ format, from_graph_name: oxigraph.defaultGraph() });
  }

  async countTriples(graph: string): Promise<number> {
    const rows = await this.select(select({ variables: [[aggregate('count', S), N]], where: [graphPattern(namedNode(graph), triple(S, P, O))] }));
    return Number(rows[0]?.n?.value ?? 0);
  }

  async ping(): Promise<void> {
    // Any JSON answer will do: Virtuoso answers ASK as a one-row SELECT, not as `{"boolean": …}`.
    JSON.parse((await this.query('ASK {}', results.accept)).text);
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Triples with blank nodes packed into groups of about `size`, never splitting the triples that
 * share a blank node (transitively) across two groups: each group is one request, and a label
 * names the same node only within one request.
 */
function blankNodeGroups(quads: readonly oxigraph.Quad[], size: number): oxigraph.Quad[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    if (!parent.has(x)) parent.set(x, x);
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  const labels = (q: oxigraph.Quad) => [q.subject, q.object].filter((t) => t.termType === 'BlankNode').map((t) => t.value);
  for (const quad of quads) {
    const [first, ...rest] = labels(quad);
    for (const other of rest) parent.set(find(other), find(first!));
  }
  const components = new Map<string, oxigraph.Quad[]>();
  for (const quad of quads) {
    const root = find(labels(quad)[0]!);
    let component = components.get(root);
    if (!component) components.set(root, (component = []));
    component.push(quad);
  }
  const groups: oxigraph.Quad[][] = [];
  let current: oxigraph.Quad[] = [];
  for (const component of components.values()) {
    if (current.length > 0 && current.length + component.length > size) {
      groups.push(current);
      current = [];
    }
    current.push(...component);
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

const [S, P, O, N] = ['s', 'p', 'o', 'n'].map((name) => variable(name)) as [VariableTerm, VariableTerm, VariableTerm, VariableTerm];

/** `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <graph> { ?s ?p ?o } }`: a graph's triples, without a Graph Store endpoint. */
function constructAll(graph: string): ConstructQuery {
  const all = { subject: S, predicate: P, object: O };
  return { type: 'query', queryType: 'CONSTRUCT', prefixes: {}, template: [all], where: [graphPattern(namedNode(graph), triple(S, P, O))] };
}

/** A graph the endpoint answered (N-Triples or Turtle), read into an Oxigraph store. */
function graphOf(answer: HttpAnswer): oxigraph.Store {
  const contentType = (header(answer, 'content-type') ?? 'text/turtle').split(';')[0]!.trim();
  const readAs = contentType === 'text/turtle' ? 'text/turtle' : 'application/n-triples';
  return new oxigraph.Store(oxigraph.parse(answer.text, { format: readAs }));
}

function withParams(url: URL, params: Record<string, string>): URL {
  const out = new URL(url);
  for (const [name, value] of Object.entries(params)) out.searchParams.set(name, value);
  return out;
}

function header(answer: HttpAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A document parsed and written as N-Triples: in memory while small, else in a temporary file. */
class Spool {
  private chunks: string[] = [];
  private size = 0;
  private file: { dir: string; path: string; stream: WriteStream } | undefined;
  triples = 0;

  private constructor(private readonly dir: string) {}

  static async of(data: RdfSource, format: RdfFormat, baseIri: string, dir: string): Promise<Spool> {
    const spool = new Spool(dir);
    try {
      for await (const batch of parseTriples(data, format, baseIri)) await spool.write(batch.map(ntriple).join(''), batch.length);
      await spool.end();
      return spool;
    } catch (error) {
      await spool.discard();
      throw error;
    }
  }

  private async write(text: string, triples: number): Promise<void> {
    this.triples += triples;
    this.size += Buffer.byteLength(text);
    if (!this.file && this.size > SPOOL_IN_MEMORY) {
      await mkdir(this.dir, { recursive: true });
      const dir = await mkdtemp(join(this.dir, 'bkg-load-'));
      const path = join(dir, 'data.nt');
      this.file = { dir, path, stream: createWriteStream(path) };
      for (const chunk of this.chunks) this.file.stream.write(chunk);
      this.chunks = [];
    }
    if (!this.file) this.chunks.push(text);
    else if (!this.file.stream.write(text)) await new Promise<void>((resolve) => this.file!.stream.once('drain', () => resolve()));
  }

  private async end(): Promise<void> {
    if (!this.file) return;
    this.file.stream.end();
    await finished(this.file.stream);
  }

  body(): SizedBody {
    return this.file ? { path: this.file.path, size: this.size } : Buffer.from(this.chunks.join(''));
  }

  async discard(): Promise<void> {
    if (!this.file) return;
    this.file.stream.destroy();
    await rm(this.file.dir, { recursive: true, force: true });
  }
}
