import type { GraphStore, LoadResult, RdfFormat, RdfSource, SparqlRow } from './graph-store.ts';

/** Told of every query a store runs: its text and how long it took. */
export type QueryListener = (event: { store: string; query: string; durationMs: number; ok: boolean }) => void;

/** Wraps a store to report each query (round-trip counts in tests, durations in logs and metrics). */
export class InstrumentedStore implements GraphStore {
  private readonly listeners = new Set<QueryListener>();

  constructor(private readonly inner: GraphStore) {}

  get name(): string {
    return this.inner.name;
  }

  /** Adds a listener; returns the function that removes it. */
  onQuery(listener: QueryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async select(query: string): Promise<SparqlRow[]> {
    const started = performance.now();
    let ok = false;
    try {
      const rows = await this.inner.select(query);
      ok = true;
      return rows;
    } finally {
      const event = { store: this.inner.name, query, durationMs: performance.now() - started, ok };
      for (const listener of this.listeners) listener(event);
    }
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.inner.replaceGraph(graph, data, format);
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.inner.mergeGraph(graph, data, format);
  }

  dropGraph(graph: string): Promise<void> {
    return this.inner.dropGraph(graph);
  }

  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.inner.exportGraph(graph, format);
  }

  countTriples(graph: string): Promise<number> {
    return this.inner.countTriples(graph);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
