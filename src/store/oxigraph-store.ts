import type { Worker } from 'node:worker_threads';
import type { ClientQuery, ClientQueryResult, GraphStore, LoadResult, RdfFormat, RdfSource, SparqlRow } from './graph-store.ts';
import { RdfSyntaxError } from './graph-store.ts';
import type { OxigraphRequest, OxigraphResponse } from './oxigraph-protocol.ts';
import { serviceUnavailable } from '../errors/app-error.ts';
import { parseSelectResults, parseTsvSelectResults } from './sparql-results.ts';
import { startWorker } from '../workers/start-worker.ts';
import { OxigraphSandbox } from './oxigraph-sandbox.ts';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type RequestBody = OxigraphRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface OxigraphStoreOptions {
  /** Directory where graphs persist; undefined keeps everything in memory. */
  readonly persistDir: string | undefined;
  /** Graphs that are rebuilt at every start and need not be written to disk (the ontology). */
  readonly volatileGraphs?: readonly string[];
  /** Graphs the client-query sandbox keeps copies of (default 4); see oxigraph-sandbox.ts. */
  readonly sandboxGraphs?: number;
}

/**
 * The embedded store: Oxigraph (WASM) in a worker thread, persisted to the data directory. Client
 * queries run in a sandbox thread of their own over copies of the graphs they read, so one can be
 * stopped at its deadline without stopping the store.
 */
export class OxigraphStore implements GraphStore {
  readonly name = 'oxigraph';
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;
  /** Bumped by every write to a graph: tells the sandbox its copy is stale. */
  private readonly versions = new Map<string, number>();
  private readonly sandbox: OxigraphSandbox;

  private constructor(private readonly options: OxigraphStoreOptions) {
    this.worker = startWorker(new URL('./oxigraph-worker.ts', import.meta.url), { persistDir: options.persistDir });
    this.sandbox = new OxigraphSandbox(
      { snapshot: (graph) => this.exportGraph(graph, 'application/n-triples'), version: (graph) => this.versions.get(graph) ?? 0 },
      options.sandboxGraphs ?? 4,
    );
    this.worker.on('message', (response: OxigraphResponse) => {
      const pending = this.pending.get(response.id);
      if (!pending) return;
      this.pending.delete(response.id);
      if (response.ok) pending.resolve(response.result);
      else pending.reject(response.syntax ? new RdfSyntaxError(response.message) : new Error(response.message));
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const pending of this.pending.values()) pending.reject(serviceUnavailable('The embedded triplestore stopped', error));
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
  }

  /** Starts the worker and restores persisted graphs. */
  static async open(options: OxigraphStoreOptions): Promise<OxigraphStore> {
    const store = new OxigraphStore(options);
    await store.call({ op: 'open' });
    return store;
  }

  private call<T>(body: RequestBody): Promise<T> {
    if (this.failure) return Promise.reject(serviceUnavailable('The embedded triplestore is not running', this.failure));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...body, id });
    });
  }

  async select(query: string): Promise<SparqlRow[]> {
    const rows = parseTsvSelectResults(await this.call<string>({ op: 'select', query, format: 'text/tab-separated-values' }));
    // A term TSV cannot carry as JSON does (see parseTsvSelectResults): the rare query asks twice.
    return rows ?? parseSelectResults(await this.call<string>({ op: 'select', query, format: 'application/sparql-results+json' }));
  }

  clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    return this.sandbox.run(query);
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    this.changed(graph);
    return this.call({ op: 'load', graph, data, format, replace: true, persistent: this.persistent(graph) });
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    this.changed(graph);
    return this.call({ op: 'load', graph, data, format, replace: false, persistent: this.persistent(graph) });
  }

  dropGraph(graph: string): Promise<void> {
    this.changed(graph);
    return this.call({ op: 'drop', graph });
  }

  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.call({ op: 'dump', graph, format });
  }

  countTriples(graph: string): Promise<number> {
    return this.call({ op: 'count', graph });
  }

  async ping(): Promise<void> {
    await this.select('SELECT * WHERE {} LIMIT 1');
  }

  async close(): Promise<void> {
    // The worker answers in order: once this answers, every write sent before it is on disk.
    if (!this.failure) await this.ping().catch(() => undefined);
    this.failure ??= new Error('closed');
    await this.sandbox.close();
    await this.worker.terminate();
  }

  // Before the write is sent: a copy asked for after this reads the new content (the worker answers in order).
  private changed(graph: string): void {
    this.versions.set(graph, (this.versions.get(graph) ?? 0) + 1);
  }

  private persistent(graph: string): boolean {
    return !(this.options.volatileGraphs ?? []).includes(graph);
  }
}
