/**
 * A GraphStore on any SPARQL 1.1 endpoint: queries and updates over the SPARQL 1.1 Protocol,
 * bulk loads over the Graph Store Protocol when the endpoint has one, else chunked INSERTs, each
 * into a temporary graph put in place by one update.
 * Loads keep the GraphStore contract: the data is parsed here first (line and column on a
 * syntax error) and only the default graph of quad formats is sent, so a bad document or a
 * named graph in a body never reaches the endpoint.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import oxigraph from 'oxigraph';
import { serviceUnavailable } from '../errors/app-error.ts';
import { MainThreadSlices } from '../limits/main-thread.ts';
import { deadlineExceeded, type RequestWork } from '../limits/request-work.ts';
import {
  aggregate,
  deleteData,
  dropGraph,
  graph as graphPattern,
  insertData,
  moveGraph,
  namedNode,
  select,
  triple,
  update,
  variable,
  type IriTerm,
  type SelectQuery,
  type Triple,
  type Update,
  type UpdateOperation,
  type VariableTerm,
  valuesRows,
} from '../rdf/sparql-algebra.ts';
import type { Term } from 'sparqljs';
import type { ConstructQuery } from 'sparqljs';
import { serialize } from '../rdf/sparql-serializer.ts';
import { lineHash } from '../rdf/line-hash.ts';
import { rowTermText, tripleText, type GraphPatch } from '../rdf/rdf-patch.ts';
import { planPatch } from './apply-patch.ts';
import { loadDeadlineMs, type LoadDeadline } from '../config/limits-config.ts';
import {
  loadDeadlineExceeded,
  type ChangeResult,
  type ClientQuery,
  type LoadStep,
  type ClientQueryResult,
  type GraphStore,
  type LoadResult,
  type RdfFormat,
  type RdfSource,
  type SelectOptions,
  type SparqlRow,
} from './graph-store.ts';
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
  /** How long one request of a load may wait for the endpoint; unset: as long as it takes. */
  readonly loadDeadline?: LoadDeadline;
}

/** A request's deadline: none, the query deadline, or one of its own. */
type RequestLimit = Pick<SendOptions, 'deadline' | 'ownDeadline'>;

/** What a load sent to its temporary graph. */
interface Sent {
  triples: number;
  /** Bytes of the requests that carried them. */
  bytes: number;
}

// Loads without a Graph Store endpoint: triples per INSERT request (Virtuoso's SPARQL parser runs
// out of memory near 5,000 lines).
const INSERT_BATCH = 2_000;
/** Triples asked about per query when a change is checked against the graph (VALUES rows). */
const PRESENT_BATCH = 500;
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

  private async query(
    text: string,
    accept: string,
    ownDeadline?: SendOptions['ownDeadline'],
    signal?: AbortSignal,
  ): Promise<HttpAnswer> {
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

  private async queryOnce(
    dialect: SparqlDialect,
    text: string,
    accept: string,
    ownDeadline?: SendOptions['ownDeadline'],
    signal?: AbortSignal,
  ): Promise<HttpAnswer> {
    const answer = await this.client.send(this.queryUrl, {
      method: 'POST',
      headers: {
        accept,
        'content-type':
          dialect.queryEncoding === 'form' ? 'application/x-www-form-urlencoded' : 'application/sparql-query',
        ...(dialect.keepAlive ? {} : { connection: 'close' }),
      },
      body: () => {
        if (dialect.queryEncoding !== 'form') return text;
        const timeout =
          ownDeadline && dialect.timeoutParameter ? { [dialect.timeoutParameter]: String(ownDeadline.ms) } : {};
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
      throw (
        ownDeadline?.error() ??
        serviceUnavailable('The triplestore stopped the query at its own time limit and answered part of it.')
      );
    }
    return answer;
  }

  /**
   * Within a request, a query may take what is left of the request's deadline when that is shorter
   * than the store's own timeout (the endpoint is told too, where its dialect has a parameter).
   */
  async select(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    const work = options?.work;
    const left = work?.remainingMs();
    const ownDeadline =
      work && left! < this.options.timeoutMs
        ? { ms: Math.ceil(left!), error: () => deadlineExceeded(work.timeoutMs) }
        : undefined;
    return this.rows(query, ownDeadline, work);
  }

  /** A SELECT's rows, within `ownDeadline` when given (a request's, or a load's), its time charged to `work`. */
  private async rows(
    query: SelectQuery,
    ownDeadline: SendOptions['ownDeadline'] | undefined,
    work?: RequestWork,
  ): Promise<SparqlRow[]> {
    const dialect = await this.dialect();
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
    return normalizeRows(
      rows ?? parseSelectResults((await this.query(text, results.accept, ownDeadline)).text),
      dialect,
    );
  }

  async clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    const graphResult = query.form === 'CONSTRUCT' || query.form === 'DESCRIBE';
    // The endpoint's own limits stay as they are; ours is a deadline on the request.
    const answer = await this.query(
      query.text,
      graphResult ? GRAPH_ACCEPT : results.accept,
      { ms: query.timeoutMs, error: () => deadlineExceeded(query.timeoutMs) },
      query.signal,
    );
    if (query.form === 'CONSTRUCT' || query.form === 'DESCRIBE') {
      return {
        form: query.form,
        ntriples: graphOf(answer).dump({ format: 'application/n-triples', from_graph_name: oxigraph.defaultGraph() }),
      };
    }
    const document = JSON.parse(answer.text) as {
      head?: { vars?: string[] };
      boolean?: boolean;
      results?: { bindings?: SparqlRow[] };
    };
    const dialect = await this.dialect();
    if (query.form === 'ASK') return { form: 'ASK', value: askAnswer(document, dialect) };
    return {
      form: 'SELECT',
      vars: document.head?.vars ?? [],
      rows: normalizeRows(document.results?.bindings ?? [], dialect),
    };
  }

  /** Runs SPARQL Update operations (one request, so the endpoint may apply them together). */
  async update(operations: Update): Promise<void> {
    await this.sendUpdate(serialize(operations), { deadline: false });
  }

  private async sendUpdate(text: string, limit: RequestLimit): Promise<void> {
    await this.client.send(this.updateUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: () => new URLSearchParams({ update: text }).toString(),
      ...limit,
    });
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.load(graph, data, format, true);
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.load(graph, data, format, false);
  }

  /**
   * Every load fills a temporary graph, then one update puts it in place (MOVE for a replace, ADD
   * for a merge), so a syntax error, a failure or a store that stops answering halfway leaves the
   * graph as it was: Virtuoso's Graph Store endpoint commits as it reads, and a PUT straight into
   * the graph could leave part of it there. Each request waits at most the load deadline for its
   * bytes (`loadDeadline`); the update that puts the graph in place, for all of them.
   */
  private async load(graph: string, data: RdfSource, format: RdfFormat, replace: boolean): Promise<LoadResult> {
    const temporary = namedNode(`urn:bkg:tmp:${randomUUID()}`);
    let step: LoadStep = 'sending';
    let stalled = false;
    const within = (bytes: number): RequestLimit => {
      if (!this.options.loadDeadline) return { deadline: false };
      const ms = loadDeadlineMs(this.options.loadDeadline, bytes);
      const at = step;
      const error = () => {
        stalled = true;
        return loadDeadlineExceeded(ms, at);
      };
      return { deadline: true, ownDeadline: { ms, error } };
    };
    try {
      const sent = this.gspUrl
        ? await this.sendWhole(this.gspUrl, temporary, graph, data, format, within)
        : await this.sendInBatches(temporary, graph, data, format, within);
      step = 'placing';
      const into = namedNode(graph);
      if (replace)
        await this.sendUpdate(
          serialize(update(sent.triples === 0 ? dropGraph(into) : moveGraph(temporary, into))),
          within(sent.bytes),
        );
      else if (sent.triples > 0)
        await this.sendUpdate(
          serialize(update(moveGraph(temporary, into, 'add'), dropGraph(temporary))),
          within(sent.bytes),
        );
    } catch (error) {
      // What reached the temporary graph is dropped, within the query deadline, and not waited for
      // when the store stopped answering. A MOVE or ADD that did not answer may yet be applied: its
      // source stays whole.
      if (step === 'sending' || !stalled) {
        const dropped = this.sendUpdate(serialize(update(dropGraph(temporary))), { deadline: true }).catch(
          () => undefined,
        );
        if (!stalled) await dropped;
      }
      throw error;
    }
    return { triples: await this.countTriples(graph) };
  }

  /**
   * Graph Store Protocol: the whole document is parsed before anything is sent, then goes in one
   * request, so a syntax error sends nothing and blank nodes keep their identity across the document.
   * What the store kept is counted before it is put in place: Virtuoso's Graph Store endpoint
   * commits as it reads, so a PUT it answered having kept part of a document would otherwise go
   * unnoticed. A short count is sent again once; the same count again is the store's own reading
   * (it may merge literals it writes alike), another one a load that lost triples, refused with
   * nothing changed.
   */
  private async sendWhole(
    gsp: URL,
    temporary: IriTerm,
    graph: string,
    data: RdfSource,
    format: RdfFormat,
    within: (bytes: number) => RequestLimit,
  ): Promise<Sent> {
    const spool = await Spool.of(data, format, graph, this.options.spoolDir ?? tmpdir());
    try {
      if (spool.triples === 0) return { triples: 0, bytes: 0 };
      const put = async () => {
        const limit = within(spool.size);
        await this.client.send(withParams(gsp, { graph: temporary.value }), {
          method: 'PUT',
          headers: { 'content-type': 'application/n-triples' },
          body: () => spool.body(),
          ...limit,
        });
        return this.countOf(temporary.value, limit.ownDeadline);
      };
      const kept = await put();
      if (kept < spool.triples) {
        const distinct = await spool.distinctTriples();
        if (kept < distinct) {
          const again = await put();
          if (again < distinct && again !== kept)
            throw serviceUnavailable(
              `The triplestore kept ${again.toLocaleString('en')} of the document's ${distinct.toLocaleString('en')} triples (${kept.toLocaleString('en')} at the first try): the graph was not changed; try again.`,
            );
        }
      }
      return { triples: spool.triples, bytes: spool.size };
    } finally {
      await spool.discard();
    }
  }

  /**
   * Without a Graph Store endpoint: INSERTs as the document is parsed. Triples with blank nodes are
   * sent together at the end: a label names the same node only within one request.
   */
  private async sendInBatches(
    temporary: IriTerm,
    graph: string,
    data: RdfSource,
    format: RdfFormat,
    within: (bytes: number) => RequestLimit,
  ): Promise<Sent> {
    const dialect = await this.dialect();
    const withBlankNodes: oxigraph.Quad[] = [];
    const sent: Sent = { triples: 0, bytes: 0 };
    const insert = async (triples: Triple[], template: boolean) => {
      const text = serialize(update(insertData(temporary, triples, template)));
      const bytes = Buffer.byteLength(text);
      await this.sendUpdate(text, within(bytes));
      sent.triples += triples.length;
      sent.bytes += bytes;
    };
    for await (const batch of parseTriples(data, format, graph, INSERT_BATCH)) {
      const plain: Triple[] = [];
      for (const quad of batch) {
        if (hasBlankNode(quad)) withBlankNodes.push(quad);
        else plain.push(quad as Triple);
      }
      if (plain.length > 0) await insert(plain, false);
    }
    for (const group of blankNodeGroups(withBlankNodes, INSERT_BATCH))
      await insert(group as Triple[], !dialect.blankNodesInInsertData);
    return sent;
  }

  /**
   * Which triples to remove are there and which to add are not is asked first (that is the change
   * as made); then one update applies it, which the store applies whole or not at all.
   */
  async changeGraph(graph: string, patch: GraphPatch, clear = false): Promise<ChangeResult> {
    const plan = planPatch(graph, clear ? { remove: [], add: patch.add } : patch);
    const into = namedNode(graph);
    const present = await this.present(graph, [...plan.remove, ...plan.add.filter((q) => !hasBlankNode(q))]);
    // Every triple is sent, found or not: a store may write a literal otherwise than it was read, and only the answer's counts would be off.
    const removed = plan.remove.filter((q) => present.has(tripleText(q)));
    const added = plan.add.filter((q) => hasBlankNode(q) || !present.has(tripleText(q)));
    const operations: UpdateOperation[] = [];
    if (clear) operations.push(dropGraph(into));
    if (plan.remove.length > 0) operations.push(deleteData(into, [...plan.remove] as unknown as Triple[]));
    operations.push(...plan.patternRemovals);
    if (plan.add.length > 0) {
      const dialect = await this.dialect();
      operations.push(
        insertData(
          into,
          [...plan.add] as unknown as Triple[],
          !dialect.blankNodesInInsertData && plan.add.some(hasBlankNode),
        ),
      );
    }
    if (operations.length > 0) await this.update(update(...operations));
    return {
      triples: await this.countTriples(graph),
      patch: {
        remove: clear ? patch.remove : [...removed.map(tripleText), ...plan.removeByPattern],
        add: added.map(tripleText),
      },
    };
  }

  /** Which of these triples (none naming a blank node) the graph holds, as N-Triples terms; a few hundred a query. */
  private async present(graph: string, quads: readonly oxigraph.Quad[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let at = 0; at < quads.length; at += PRESENT_BATCH) {
      const rows = quads
        .slice(at, at + PRESENT_BATCH)
        .map((q) => ({ s: q.subject, p: q.predicate, o: q.object }) as Record<string, Term>);
      const answer = await this.select(
        select({
          variables: [S, P, O],
          where: [graphPattern(namedNode(graph), valuesRows(rows), triple(S, P, O))],
        }),
      );
      for (const row of answer) found.add(`${rowTermText(row.s!)} ${rowTermText(row.p!)} ${rowTermText(row.o!)}`);
    }
    return found;
  }

  async dropGraph(graph: string): Promise<void> {
    await this.update(update(dropGraph(namedNode(graph))));
  }

  async exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    const accept = GRAPH_ACCEPT;
    const answer = this.gspUrl
      ? // The same deadline as queries: a store that hangs must answer 503, not hold the request forever.
        await this.client.send(withParams(this.gspUrl, { graph }), {
          method: 'GET',
          headers: { accept },
          deadline: true,
          accept: [404],
        })
      : await this.query(serialize(constructAll(graph)), accept);
    if (answer.status === 404) return '';
    // Read back and written by Oxigraph, so every store exports the same text for the same graph.
    return graphOf(answer).dump({ format, from_graph_name: oxigraph.defaultGraph() });
  }

  async countTriples(graph: string): Promise<number> {
    return this.countOf(graph);
  }

  /** The graph's triples, within a load's deadline when given. */
  private async countOf(graph: string, ownDeadline?: SendOptions['ownDeadline']): Promise<number> {
    const rows = await this.rows(
      select({ variables: [[aggregate('count', S), N]], where: [graphPattern(namedNode(graph), triple(S, P, O))] }),
      ownDeadline,
    );
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
  const labels = (q: oxigraph.Quad) =>
    [q.subject, q.object].filter((t) => t.termType === 'BlankNode').map((t) => t.value);
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

const [S, P, O, N] = ['s', 'p', 'o', 'n'].map((name) => variable(name)) as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
];

/** `CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <graph> { ?s ?p ?o } }`: a graph's triples, without a Graph Store endpoint. */
function constructAll(graph: string): ConstructQuery {
  const all = { subject: S, predicate: P, object: O };
  return {
    type: 'query',
    queryType: 'CONSTRUCT',
    prefixes: {},
    template: [all],
    where: [graphPattern(namedNode(graph), triple(S, P, O))],
  };
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
  /** Bytes of N-Triples written. */
  size = 0;
  private file: { dir: string; path: string; stream: WriteStream } | undefined;
  triples = 0;

  private constructor(private readonly dir: string) {}

  static async of(data: RdfSource, format: RdfFormat, baseIri: string, dir: string): Promise<Spool> {
    const spool = new Spool(dir);
    try {
      for await (const batch of parseTriples(data, format, baseIri))
        await spool.write(batch.map(ntriple).join(''), batch.length);
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
    else if (!this.file.stream.write(text))
      await new Promise<void>((resolve) => this.file!.stream.once('drain', () => resolve()));
  }

  private async end(): Promise<void> {
    if (!this.file) return;
    this.file.stream.end();
    await finished(this.file.stream);
  }

  body(): SizedBody {
    return this.file ? { path: this.file.path, size: this.size } : Buffer.from(this.chunks.join(''));
  }

  /** The document's distinct triples (its lines, one triple each, told apart by a 53-bit hash): read again only when a count is short. */
  async distinctTriples(): Promise<number> {
    const seen = new Set<number>();
    const slices = new MainThreadSlices();
    let rest = '';
    const take = async (text: string) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line !== '') seen.add(lineHash(line));
      const pause = slices.step(lines.length);
      if (pause) await pause;
    };
    if (this.file)
      for await (const chunk of createReadStream(this.file.path, { encoding: 'utf8' })) await take(chunk as string);
    else for (const chunk of this.chunks) await take(chunk);
    if (rest !== '') seen.add(lineHash(rest));
    return seen.size;
  }

  async discard(): Promise<void> {
    if (!this.file) return;
    this.file.stream.destroy();
    await rm(this.file.dir, { recursive: true, force: true });
  }
}
