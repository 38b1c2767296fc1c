/**
 * What the planner reads of a site graph outside a request's round trips and keeps (the site's
 * classes, `site-ontology.ts`; its ids on an external store, `site-ids-cache.ts`): dropped at
 * once when this process changes the graph (`InstrumentedStore.onChange`), and, where another
 * replica may change it unseen, after the time `keptFor` gives. A reading in flight is shared; a
 * failed one (the site is still being restored, the store is down) is read again next time.
 */
import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import type { SparqlRow } from '../store/graph-store.ts';
import type { InstrumentedStore } from '../store/instrumented-store.ts';

export class GraphReadings<T> {
  private readonly readings = new Map<string, { until: number; readonly value: Promise<T> }>();

  /**
   * `read`: the reading of one graph, from an unreported select. `keptFor`: how long a reading
   * that took `readMs` stays; undefined: until the graph changes.
   */
  constructor(
    private readonly store: InstrumentedStore,
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
