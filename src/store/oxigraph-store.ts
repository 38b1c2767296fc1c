import { Worker } from 'node:worker_threads';
import type { GraphStore, LoadResult, RdfFormat, RdfSource, SparqlRow } from './graph-store.ts';
import { RdfSyntaxError } from './graph-store.ts';
import type { OxigraphRequest, OxigraphResponse } from './oxigraph-protocol.ts';
import { serviceUnavailable } from '../errors/app-error.ts';
import { parseSelectResults } from './sparql-results.ts';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type RequestBody = OxigraphRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export interface OxigraphStoreOptions {
  /** Directory where graphs persist; undefined keeps everything in memory. */
  readonly persistDir: string | undefined;
  /** Graphs that are rebuilt at every start and need not be written to disk (the ontology). */
  readonly volatileGraphs?: readonly string[];
}

/** The embedded store: Oxigraph (WASM) in a worker thread, persisted to the data directory. */
export class OxigraphStore implements GraphStore {
  readonly name = 'oxigraph';
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;

  private constructor(private readonly options: OxigraphStoreOptions) {
    this.worker = new Worker(new URL('./oxigraph-worker.mjs', import.meta.url), {
      workerData: { persistDir: options.persistDir },
    });
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
    return parseSelectResults(await this.call<string>({ op: 'select', query }));
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.call({ op: 'load', graph, data, format, replace: true, persistent: this.persistent(graph) });
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.call({ op: 'load', graph, data, format, replace: false, persistent: this.persistent(graph) });
  }

  dropGraph(graph: string): Promise<void> {
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
    this.failure ??= new Error('closed');
    await this.worker.terminate();
  }

  private persistent(graph: string): boolean {
    return !(this.options.volatileGraphs ?? []).includes(graph);
  }
}
