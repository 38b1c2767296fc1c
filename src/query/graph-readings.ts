/**
 * What the planner reads of a site graph outside a request's round trips and keeps (the site's
 * classes; its ids on an external store: `site-caches.ts`): dropped at once when this process
 * changes the graph (`WatchedGraphs.onChange`), and, where another replica may change it unseen,
 * after the time `keptFor` gives. A reading in flight is shared; a failed one (the site is still
 * being restored, the store is down) is read again next time.
 */
import type { SparqlRow } from '../rdf/result-row.ts';
import type { SelectQuery } from '../rdf/sparql-algebra.ts';

/** A store as the caches see it: told of each change of a graph, and asked outside a request's round trips. */
export interface WatchedGraphs {
  /** Calls `listener` when a graph is about to change (`done` false) and when the change is over (`done` true). */
  onChange(listener: (event: { graph: string; done: boolean }) => void): unknown;
  /** A query that is not one of a request's round trips (a cache being filled). */
  selectUnreported(query: SelectQuery, options: { site: string }): Promise<SparqlRow[]>;
}

export class GraphReadings<T> {
  private readonly readings = new Map<string, { until: number; readonly value: Promise<T> }>();

  /**
   * `read`: the reading of one graph, from an unreported select. `keptFor`: how long a reading
   * that took `readMs` stays; undefined: until the graph changes.
   */
  constructor(
    private readonly store: WatchedGraphs,
    private readonly read: (select: (query: SelectQuery) => Promise<SparqlRow[]>, graph: string) => Promise<T>,
    private readonly keptFor: (readMs: number) => number | undefined,
  ) {
    store.onChange(({ graph }) => this.readings.delete(graph));
  }

  /** The graph's reading, read now if none is kept. */
  of(graph: string): Promise<T> {
    const known = this.readings.get(graph);
    if (known && performance.now() < known.until) return known.value;
    const started = performance.now();
    const value = this.read((query) => this.store.selectUnreported(query, { site: graph }), graph);
    const entry = { until: Infinity, value };
    this.readings.set(graph, entry);
    value.then(
      () => {
        const now = performance.now();
        entry.until = now + (this.keptFor(now - started) ?? Infinity);
      },
      () => {
        if (this.readings.get(graph) === entry) this.readings.delete(graph);
      },
    );
    return value;
  }
}
