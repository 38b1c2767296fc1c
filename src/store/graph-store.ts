import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import { AppError } from '../errors/app-error.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { GraphPatch } from '../rdf/rdf-patch.ts';
import type { RdfTerm, SparqlRow } from '../rdf/result-row.ts';
import { siteOfGraph } from '../rdf/vocabulary.ts';

export type { RdfTerm, SparqlRow };

/** The RDF serializations the stores read (and, for Turtle and N-Triples, write). */
export type RdfFormat = 'text/turtle' | 'application/n-triples' | 'application/n-quads' | 'application/ld+json';

/** RDF to load: text, bytes, or a file read in chunks (large uploads never sit whole in memory). */
export type RdfSource = string | Uint8Array | { readonly path: string };

/** The four SPARQL query forms. */
export type QueryForm = 'SELECT' | 'ASK' | 'CONSTRUCT' | 'DESCRIBE';

/**
 * A read-only query a client wrote, already confined (src/sparql-endpoint/confine-query.ts): its
 * FROM and FROM NAMED clauses name exactly `graphs`, and it has no SERVICE, no update, no GRAPH
 * outside them.
 */
export interface ClientQuery {
  readonly text: string;
  readonly form: QueryForm;
  /** The graphs the query may read: the site's graph and the ontology graph. */
  readonly graphs: readonly string[];
  /** Past this the query is stopped and `deadlineExceeded` (src/limits/request-work.ts) thrown. */
  readonly timeoutMs: number;
  /** The client's request: once it is aborted (the client went away) the query leaves its queue or stops. */
  readonly signal?: AbortSignal;
}

/** A client query's answer, in a form every store produces alike (serialized by the endpoint). */
export type ClientQueryResult =
  | { readonly form: 'SELECT'; readonly vars: readonly string[]; readonly rows: readonly SparqlRow[] }
  | { readonly form: 'ASK'; readonly value: boolean }
  | { readonly form: 'CONSTRUCT' | 'DESCRIBE'; readonly ntriples: string };

/** How a query of the service is run. */
export interface SelectOptions {
  /**
   * The site graph the query reads: a store that queues queries serves sites in turn by it, so one
   * site's slow queries wait behind each other, not in front of other sites'. Unset: the service's own.
   */
  readonly site?: string;
  /**
   * The request the query serves: it stops at the request's deadline, its engine time is charged
   * to the request, and it does not start (or stops) once the request's client has gone away.
   * Unset (start-up, background work, reads shared by requests): the store's own timeout only.
   */
  readonly work?: RequestWork;
}

/** How an engine is: serving, replacing a part that failed, or failed for good (the service must restart). */
export type EngineHealth = 'ok' | 'recovering' | 'broken';

/** QUOTA_EXCEEDED: a load would take a site's graph past its quota of triples; nothing of it was loaded. */
export const tripleQuotaExceeded = (limit: number, triples: number) =>
  new AppError(
    'QUOTA_EXCEEDED',
    `The site's graph would hold ${triples} triples, more than its quota of ${limit}; nothing was loaded. Replace the graph with a smaller one, or ask for a larger quota.`,
    {
      quota_triples: limit,
      triples,
    },
  );

/** A persisted graph not serving since the start: still being read back (with its progress), or failed to be. */
export type GraphRestore =
  | {
      readonly graph: string;
      readonly state: 'loading';
      /** Triples back so far. */
      readonly triples: number;
      /** The graph's triples, when the journal knows them (every segment rewritten by the service). */
      readonly totalTriples?: number;
      /** Size of the graph's journal files. */
      readonly bytes: number;
      /** Queries of the graph are answered (one store thread has it); loads wait until every thread has it. */
      readonly serving: boolean;
      readonly retryAfterSeconds: number;
    }
  | { readonly graph: string; readonly state: 'failed'; readonly file: string; readonly message: string };

const siteName = (graph: string) => {
  const site = siteOfGraph(graph);
  return site === undefined ? `The graph ${graph}` : `The site "${site}"`;
};

/** SITE_LOADING: the site's graph is still being read back after a restart; the request may be sent again after Retry-After. */
export const siteLoading = (restore: Extract<GraphRestore, { state: 'loading' }>) => {
  const of = restore.totalTriples !== undefined ? ` of ${restore.totalTriples.toLocaleString('en')}` : '';
  return new AppError(
    'SITE_LOADING',
    `${siteName(restore.graph)} is being restored after a restart (${restore.triples.toLocaleString('en')}${of} triples so far); retry in ${restore.retryAfterSeconds} s.`,
    { triples: restore.triples, ...(restore.totalTriples !== undefined ? { totalTriples: restore.totalTriples } : {}) },
    { retryAfterSeconds: restore.retryAfterSeconds },
  );
};

/** A site whose persisted graph could not be read back: named with its file, which is kept as it is. */
export const restoreFailed = (graph: string, file: string, message: string) =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    `${siteName(graph)} could not be restored from its journal file ${file} (${message}). The file is kept; replace the site's graph to serve it again (docs: "Restarts and restores").`,
    { file },
  );

/** Where a load of an external store is: sending the triples to a temporary graph, or putting that graph in place. */
export type LoadStep = 'sending' | 'placing';

/**
 * A load the external triplestore did not answer within its deadline (`BKG_LOAD_DEADLINE_*`): stopped,
 * and what was sent of it dropped. Before the step that puts the loaded triples in place the graph
 * is as it was; during that one step (a single update) the store may yet apply it, whole.
 */
export const loadDeadlineExceeded = (ms: number, step: LoadStep) => {
  const seconds = Number((ms / 1000).toFixed(1));
  const outcome =
    step === 'sending'
      ? 'The graph is unchanged: it is as it was before the load.'
      : 'It was putting the loaded triples in place, one update the store applies whole or not at all: the graph holds either its old content or the whole new one, never part of it; read it back to tell.';
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The triplestore did not answer within ${seconds} s, the deadline of this load, which was stopped. ${outcome}`,
    {
      deadlineSeconds: seconds,
      step,
    },
  );
};

/**
 * Told, as a load of a file goes, how many of its bytes the store has parsed and, when it knows,
 * how many triples those bytes hold (a store that cannot tell never calls it).
 */
export type LoadProgress = (bytesParsed: number, triplesParsed?: number) => void;

/** What a change did: the graph's triples after it, and the change as made (a triple removed that was not there, or added that was, left out). */
export interface ChangeResult {
  readonly triples: number;
  readonly patch: GraphPatch;
}

/** What a load did. */
export interface LoadResult {
  /** Triples in the graph after the load. */
  readonly triples: number;
}

/**
 * A triplestore holding one named graph per site and the ontology in its own graph. Every
 * implementation (embedded, SPARQL 1.1 protocol, Comunica) passes the same conformance suite.
 */
export interface GraphStore {
  /** A short name for logs and metrics, e.g. `oxigraph`. */
  readonly name: string;
  /**
   * Runs a SELECT query (algebra, printed by the store in its dialect) and returns its solutions.
   * With a request's work (`options.work`) the query stops at the request's deadline, and does not
   * start when its client has gone away.
   */
  select(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]>;
  /**
   * Runs a client's confined query within its deadline, without holding up the service's own
   * queries past it; throws `deadlineExceeded` when the deadline passes.
   */
  clientQuery(query: ClientQuery): Promise<ClientQueryResult>;
  /**
   * Replaces a graph's content; on a syntax error throws `RdfSyntaxError` and leaves the graph as
   * it was. Of N-Quads and JSON-LD only the default graph is taken: a body can never write
   * another graph.
   */
  replaceGraph(graph: string, data: RdfSource, format: RdfFormat, progress?: LoadProgress): Promise<LoadResult>;
  /** Adds to a graph's content; on a syntax error throws `RdfSyntaxError` and adds nothing. */
  mergeGraph(graph: string, data: RdfSource, format: RdfFormat, progress?: LoadProgress): Promise<LoadResult>;
  /**
   * Changes a graph by a patch (src/rdf/rdf-patch.ts: removals, then additions), all or nothing,
   * at a cost in proportion to the patch, not the graph; `clear` empties the graph first. Past the
   * quota it throws QUOTA_EXCEEDED and changes nothing.
   */
  changeGraph(graph: string, patch: GraphPatch, clear?: boolean): Promise<ChangeResult>;
  /** Removes a graph. */
  dropGraph(graph: string): Promise<void>;
  /** Serializes a graph. */
  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string>;
  /**
   * The graph as N-Triples read in chunks, never whole in memory, with its triple count; undefined
   * when the store cannot (then `exportGraph`). A dump of a few million triples is longer than a
   * JavaScript string may be.
   */
  exportStream?(
    graph: string,
  ): Promise<{ readonly triples: number; readonly chunks: AsyncIterable<Uint8Array> } | undefined>;
  /** Number of triples in a graph. */
  countTriples(graph: string): Promise<number>;
  /** Answers when the store can serve queries; throws otherwise. */
  ping(): Promise<void>;
  /** Whether the engine is broken and not recovering (a store that cannot tell says nothing). */
  health?(): EngineHealth;
  /** The graphs still being read back since the start, and those that failed to be (a store that keeps its graphs elsewhere has none). */
  restoreStatus?(): GraphRestore[];
  /** Resolves when the graph (or every graph) is back since the start, or failed to be. */
  whenRestored?(graph?: string): Promise<void>;
  /** Calls `listener` with each graph that, being restored, starts answering queries. */
  onServing?(listener: (graph: string) => void): void;
  /** Where what is read of a graph is kept across restarts (a store that keeps its graphs itself). */
  readonly readings?: ReadingArchive;
  /** Flushes what must persist and releases resources. */
  close(): Promise<void>;
}

/**
 * Readings of a graph kept across restarts, each as long as the graph is unchanged: what a
 * restart would otherwise read again by scanning the whole graph (the site profile, its ids and
 * classes: src/query/site-caches.ts). `context` names what else a reading depends on (the
 * ontology): a reading kept under another context is not given back.
 */
export interface ReadingArchive {
  /** The reading `name` of the graph, kept under `context` since the graph last changed; undefined otherwise. */
  kept(graph: string, name: string, context: string): Promise<unknown>;
  /** Keeps a reading of the graph as it is now (in the background: a failure is logged, not thrown). */
  keep(graph: string, name: string, context: string, value: unknown): void;
  /** Resolves once every reading being kept is written (or has failed and been logged). */
  settled(): Promise<void>;
}

/** Data that could not be parsed; the message carries the line and column where the parser gave them. */
export class RdfSyntaxError extends Error {
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string) {
    super(message);
    this.name = 'RdfSyntaxError';
    // Oxigraph says "at line L column C", "between line L column C and …" or "at line L between columns C and …".
    const position = /line (\d+) (?:column|between columns) (\d+)/.exec(message);
    this.line = position ? Number(position[1]) : undefined;
    this.column = position ? Number(position[2]) : undefined;
  }
}

/** Formats whose documents may name graphs; loads keep only their default graph. */
export const QUAD_FORMATS: ReadonlySet<RdfFormat> = new Set(['application/n-quads', 'application/ld+json']);
