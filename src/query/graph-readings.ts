/**
 * What the planner reads of a site graph outside a request's round trips and keeps (the site's
 * profile, classes and ids: `site-caches.ts`): dropped at once when this process changes the graph
 * (`WatchedGraphs.onChange`), and, where another replica may change it unseen, renewed after the
 * time `keptFor` gives. A reading in flight is shared; a failed one (the site is still being
 * restored, the store is down) is read again next time.
 *
 * A reading past its time is still answered while its renewal is read in the background, so no
 * request waits for a renewal (a profile takes hundreds of milliseconds at 1M triples): what another
 * replica changed is seen within `keptFor` plus one reading.
 *
 * Readings of one graph run one at a time: a graph changed again while it is being read (a burst
 * of small changes) waits for that reading to end, and a reading superseded meanwhile by a newer
 * one is never read: its callers get the newer one. A thousand changes in a row cost a few
 * readings, not a thousand at once (which filled the site's queue).
 */
import type { SparqlRow } from '../rdf/result-row.ts';
import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import type { ReadingArchive } from '../store/graph-store.ts';
import type { QueryRunner } from './query-runner.ts';
import type { ReadingCodec } from './site-reading-codecs.ts';

/** A store as the caches see it: told of each change of a graph, and asked outside a request's round trips. */
export interface WatchedGraphs {
  /** Calls `listener` when a graph is about to change (`done` false) and when the change is over (`done` true). */
  onChange(listener: (event: { graph: string; done: boolean }) => void): unknown;
  /** A query that is not one of a request's round trips (a cache being filled). */
  selectUnreported(query: SelectQuery, options: { site: string }): Promise<SparqlRow[]>;
  /** Where the store keeps readings across restarts, if it does. */
  readonly readings?: ReadingArchive;
}

/** Readings kept across restarts: where, under which context, and as what JSON. */
export interface KeptAcross<T> {
  readonly archive: ReadingArchive;
  readonly context: string;
  readonly codec: ReadingCodec<T>;
}

interface Reading<T> {
  /** When the reading is to be renewed; Infinity while it is being read, or when it is kept until the graph changes. */
  until: number;
  renewing: boolean;
  readonly value: Promise<T>;
}

export class GraphReadings<T> {
  private readonly readings = new Map<string, Reading<T>>();
  /** The reading of each graph in progress, which the next waits for. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private readonly runner: QueryRunner;

  /**
   * `read`: the reading of one graph, through a runner of unreported selects. `keptFor`: how long a reading
   * that took `readMs` stays before it is renewed; undefined: until the graph changes. `across`: where a
   * reading is kept across restarts: one kept there since the graph last changed is taken instead of read,
   * and one read is kept there unless the graph changed meanwhile.
   */
  constructor(
    private readonly store: WatchedGraphs,
    private readonly read: (runner: QueryRunner, graph: string) => Promise<T>,
    private readonly keptFor: (readMs: number) => number | undefined,
    private readonly across?: KeptAcross<T>,
  ) {
    this.runner = { select: (query, graph) => store.selectUnreported(query, { site: graph }) };
    store.onChange(({ graph }) => this.readings.delete(graph));
  }

  /** The graph's reading, read now if none is kept; one past its time starts its renewal. */
  of(graph: string): Promise<T> {
    const known = this.readings.get(graph);
    if (!known) return this.start(graph).value;
    if (performance.now() >= known.until && !known.renewing) {
      known.renewing = true;
      this.start(graph, known);
    }
    return known.value;
  }

  /** Forgets every reading (what they were read against changed). */
  clear(): void {
    this.readings.clear();
  }

  /** Reads the graph; a renewal takes the place of `current` once read, unless the graph changed meanwhile. */
  private start(graph: string, current?: Reading<T>): Reading<T> {
    const started = performance.now();
    // Whether the value is read from the store now (not taken from where it was kept across restarts).
    const source = { read: true };
    const previous = this.inFlight.get(graph);
    // This reading's own work: the store read, or nothing when superseded (then it ends at once,
    // so the newer reading, waiting for it, goes on).
    const self: { reading?: Reading<T> } = {};
    const readNow = () => (current ? this.read(this.runner, graph) : this.keptOrRead(graph, source));
    let own: Promise<unknown>;
    let value: Promise<T>;
    if (!previous) {
      // None in progress: it starts at once.
      value = own = readNow();
    } else {
      const waited = previous
        .catch(() => undefined)
        .then(async (): Promise<{ read: T } | { newer: Reading<T> }> => {
          const newest = this.readings.get(graph);
          if (!current && newest && newest !== self.reading) return { newer: newest };
          return { read: await readNow() };
        });
      own = waited;
      value = waited.then((done) => {
        if ('read' in done) return done.read;
        source.read = false;
        return done.newer.value;
      });
    }
    const reading: Reading<T> = { until: Infinity, renewing: false, value };
    self.reading = reading;
    if (!current) this.readings.set(graph, reading);
    this.inFlight.set(graph, own);
    const settled = () => {
      if (this.inFlight.get(graph) === own) this.inFlight.delete(graph);
    };
    own.then(settled, settled);
    value.then(
      (value) => {
        const now = performance.now();
        reading.until = now + (this.keptFor(now - started) ?? Infinity);
        if (current && this.readings.get(graph) === current) this.readings.set(graph, reading);
        // Still the graph's reading: the graph did not change while it was read.
        else if (source.read && this.across && this.readings.get(graph) === reading) {
          const { archive, context, codec } = this.across;
          archive.keep(graph, codec.name, context, codec.encode(value));
        }
      },
      () => {
        if (current) current.renewing = false;
        else if (this.readings.get(graph) === reading) this.readings.delete(graph);
      },
    );
    return reading;
  }

  /** The reading kept across restarts, if there is one for the graph as it is (`source.read` false); else read now. */
  private async keptOrRead(graph: string, source: { read: boolean }): Promise<T> {
    if (this.across) {
      const { archive, context, codec } = this.across;
      const kept = await archive.kept(graph, codec.name, context).catch(() => undefined);
      try {
        if (kept !== undefined) {
          const value = codec.decode(kept);
          source.read = false;
          return value;
        }
      } catch {
        // Kept in a shape this code does not read: read again, and kept anew.
      }
    }
    return this.read(this.runner, graph);
  }
}
