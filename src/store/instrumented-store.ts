import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import type { GraphPatch } from '../rdf/rdf-patch.ts';
import type {
  ChangeResult,
  ClientQuery,
  ClientQueryResult,
  EngineHealth,
  GraphRestore,
  GraphStore,
  LoadProgress,
  LoadResult,
  RdfFormat,
  RdfSource,
  ReadingArchive,
  SelectOptions,
  SparqlRow,
} from './graph-store.ts';

/** Told of every query a store runs: the query (algebra: `serialize` prints it) and how long it took. */
export type QueryListener = (event: { store: string; query: SelectQuery; durationMs: number; ok: boolean }) => void;

/** Told when a graph is about to change (`done` false) and when the change is over (`done` true, failed or not). */
export type ChangeListener = (event: { graph: string; done: boolean }) => void;

/**
 * Wraps a store to report each query (round-trip counts in tests, durations in logs and metrics)
 * and each change of a graph (caches of what a graph holds, src/query/site-caches.ts).
 */
export class InstrumentedStore implements GraphStore {
  private readonly listeners = new Set<QueryListener>();
  private readonly changeListeners = new Set<ChangeListener>();

  constructor(private readonly inner: GraphStore) {
    // A graph back from a restart has changed as a load changes it (caches of it are read anew).
    inner.onServing?.((graph) => {
      for (const listener of this.changeListeners) listener({ graph, done: true });
    });
  }

  get name(): string {
    return this.inner.name;
  }

  get readings(): ReadingArchive | undefined {
    return this.inner.readings;
  }

  /** Adds a listener; returns the function that removes it. */
  onQuery(listener: QueryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a change listener; returns the function that removes it. */
  onChange(listener: ChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** A query that is not one of a request's round trips (a cache being filled): not reported. */
  selectUnreported(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    return this.inner.select(query, options);
  }

  async select(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    const started = performance.now();
    let ok = false;
    try {
      const rows = await this.inner.select(query, options);
      ok = true;
      return rows;
    } finally {
      const event = { store: this.inner.name, query, durationMs: performance.now() - started, ok };
      for (const listener of this.listeners) listener(event);
    }
  }

  // Not reported: listeners count the service's own round trips (and log their text at debug).
  clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    return this.inner.clientQuery(query);
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat, progress?: LoadProgress): Promise<LoadResult> {
    return this.changing(graph, () => this.inner.replaceGraph(graph, data, format, progress));
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat, progress?: LoadProgress): Promise<LoadResult> {
    return this.changing(graph, () => this.inner.mergeGraph(graph, data, format, progress));
  }

  changeGraph(graph: string, patch: GraphPatch, clear?: boolean): Promise<ChangeResult> {
    return this.changing(graph, () => this.inner.changeGraph(graph, patch, clear));
  }

  dropGraph(graph: string): Promise<void> {
    return this.changing(graph, () => this.inner.dropGraph(graph));
  }

  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.inner.exportGraph(graph, format);
  }

  async exportStream(
    graph: string,
  ): Promise<{ readonly triples: number; readonly chunks: AsyncIterable<Uint8Array> } | undefined> {
    return this.inner.exportStream?.(graph);
  }

  countTriples(graph: string): Promise<number> {
    return this.inner.countTriples(graph);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  health(): EngineHealth {
    return this.inner.health?.() ?? 'ok';
  }

  restoreStatus(): GraphRestore[] {
    return this.inner.restoreStatus?.() ?? [];
  }

  async whenRestored(graph?: string): Promise<void> {
    await this.inner.whenRestored?.(graph);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private async changing<T>(graph: string, change: () => Promise<T>): Promise<T> {
    for (const listener of this.changeListeners) listener({ graph, done: false });
    try {
      return await change();
    } finally {
      for (const listener of this.changeListeners) listener({ graph, done: true });
    }
  }
}
