import type { ClientQuery, ClientQueryResult, EngineHealth, GraphStore, LoadResult, RdfFormat, RdfSource, SelectOptions, SparqlRow } from './graph-store.ts';
import { RdfSyntaxError } from './graph-store.ts';
import { AppError, serviceUnavailable } from '../errors/app-error.ts';
import { FairQueue, type Slot } from '../limits/fair-queue.ts';
import { currentWork, deadlineExceeded } from '../limits/request-work.ts';
import type { Logger } from '../log/logger.ts';
import { parseSelectResults, parseTsvSelectResults } from './sparql-results.ts';
import { EngineTrap, LaneDeadline, OxigraphLane, type LaneRequest } from './oxigraph-lane.ts';
import { OxigraphSandbox } from './oxigraph-sandbox.ts';

export interface OxigraphStoreOptions {
  /** Directory where graphs persist (graph-journal.ts). */
  readonly persistDir: string;
  /** Graphs that are rebuilt at every start and need not be written to disk (the ontology). */
  readonly volatileGraphs?: readonly string[];
  /** Graphs each thread of the client-query sandbox keeps copies of (default 4); see oxigraph-sandbox.ts. */
  readonly sandboxGraphs?: number;
  /** Threads of the client-query sandbox (default 2): client queries of that many sites run at once. */
  readonly sandboxThreads?: number;
  /** Worker threads, each with a whole copy of the graphs (default 2): queries of different sites run at once. */
  readonly threads?: number;
  /** Most triples a persisted (site) graph may hold; a load past it is refused whole (QUOTA_EXCEEDED). */
  readonly maxTriplesPerGraph?: number;
  readonly logger?: Logger;
}

type Write = Extract<LaneRequest, { op: 'load' } | { op: 'drop' }>;

/** One thread's outcome of a write. */
class Outcome {
  resolve!: (value: unknown) => void;
  reject!: (error: Error) => void;
  readonly promise = new Promise<unknown>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });
}

/** A write being applied: each thread's outcome, the writer's (thread 0) deciding the write's. */
interface WriteInProgress {
  readonly request: Write;
  readonly applied: Set<number>;
  readonly outcomes: readonly Outcome[];
}

// Attempts to rebuild a thread before it is given up as broken (then /healthz fails).
const REBUILD_ATTEMPTS = 3;

/**
 * The embedded store: Oxigraph (WASM) in worker threads, each holding every graph, persisted to
 * the data directory by the first. Queries are queued fairly by site (src/limits/fair-queue.ts): a
 * site holds at most all threads but one, so another site's query never waits behind a slow one;
 * a query past its request's deadline, or one that traps the engine, costs its thread, which is
 * replaced and rebuilt from the journal while the others serve. Writes go to every thread, one
 * write at a time, each thread applying it when it is next free; a thread only takes queries once
 * it has applied every write. Client queries run in sandbox threads of their own over copies of
 * the graphs they read (oxigraph-sandbox.ts).
 */
export class OxigraphStore implements GraphStore {
  readonly name = 'oxigraph';
  private readonly lanes: OxigraphLane[];
  private readonly state: Array<'up' | 'rebuilding' | 'broken'>;
  private readonly queue: FairQueue;
  /** Bumped by every write to a graph: tells the sandbox its copy is stale. */
  private readonly versions = new Map<string, number>();
  /** The documents of graphs kept out of the journal, to rebuild a thread with. */
  private readonly volatile = new Map<string, Array<Extract<Write, { op: 'load' }>>>();
  private readonly sandbox: OxigraphSandbox;
  private writes: Promise<unknown> = Promise.resolve();
  private current: WriteInProgress | undefined;
  /** Threads to replace as soon as they are free (a write failed on some threads and not others). */
  private readonly stale = new Set<number>();
  private closed = false;

  private constructor(private readonly options: OxigraphStoreOptions) {
    const threads = options.threads ?? 2;
    this.lanes = Array.from({ length: threads }, (_, i) => this.newLane(i));
    this.state = this.lanes.map(() => 'up');
    this.queue = new FairQueue(threads, Math.max(1, threads - 1));
    this.sandbox = new OxigraphSandbox(
      {
        persistDir: options.persistDir,
        volatile: (graph) => !this.persistent(graph),
        snapshot: (graph) => this.exportGraph(graph, 'application/n-triples'),
        version: (graph) => this.versions.get(graph) ?? 0,
      },
      { threads: options.sandboxThreads ?? 2, maxGraphs: options.sandboxGraphs ?? 4, logger: options.logger },
    );
  }

  /** Starts the threads and restores persisted graphs. */
  static async open(options: OxigraphStoreOptions): Promise<OxigraphStore> {
    const store = new OxigraphStore(options);
    await Promise.all(store.lanes.map((lane) => lane.call({ op: 'open' })));
    return store;
  }

  async select(query: string, options?: SelectOptions): Promise<SparqlRow[]> {
    const rows = await parseTsvSelectResults(await this.read<string>({ op: 'select', query, format: 'text/tab-separated-values' }, options?.site));
    // A term TSV cannot carry as JSON does (see parseTsvSelectResults): the rare query asks twice.
    return rows ?? parseSelectResults(await this.read<string>({ op: 'select', query, format: 'application/sparql-results+json' }, options?.site));
  }

  clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    return this.sandbox.run(query);
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.write({ op: 'load', graph, data, format, replace: true, ...this.loadLimits(graph) });
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.write({ op: 'load', graph, data, format, replace: false, ...this.loadLimits(graph) });
  }

  dropGraph(graph: string): Promise<void> {
    return this.write({ op: 'drop', graph, persistent: this.persistent(graph) });
  }

  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.read({ op: 'dump', graph, format }, graph);
  }

  countTriples(graph: string): Promise<number> {
    return this.read({ op: 'count', graph }, graph);
  }

  async ping(): Promise<void> {
    await this.select('SELECT * WHERE {} LIMIT 1');
  }

  health(): EngineHealth {
    if (this.state.includes('broken')) return 'broken';
    return this.state.includes('rebuilding') ? 'recovering' : 'ok';
  }

  async close(): Promise<void> {
    // Every write is on disk once the last one has settled.
    await this.writes;
    this.closed = true;
    await this.sandbox.close();
    await Promise.all(this.lanes.map((lane) => lane.stop()));
  }

  /** Runs a read on the first thread free for the site, within the request's deadline. */
  private async read<T>(request: LaneRequest, site: string | undefined): Promise<T> {
    if (this.closed) throw serviceUnavailable('The embedded triplestore is closed.');
    if (!this.state.includes('up') && !this.state.includes('rebuilding')) throw serviceUnavailable('The embedded triplestore is broken; the service must be restarted.');
    const work = currentWork();
    // A request already over its budget or deadline does not queue more work.
    work?.remainingMs();
    const slot = await this.queue.acquire(site ?? '', work?.signal);
    const started = performance.now();
    try {
      return await this.lanes[slot.index]!.call<T>(request, work?.remainingMs());
    } catch (error) {
      if (error instanceof LaneDeadline || error instanceof EngineTrap) {
        this.options.logger?.warn({ thread: slot.index, reason: error.name, site }, 'triplestore thread replaced');
        void this.rebuild(slot.keep());
        throw error instanceof LaneDeadline ? deadlineExceeded(work!.timeoutMs) : error;
      }
      throw error;
    } finally {
      work?.chargeTime(performance.now() - started);
      this.done(slot);
    }
  }

  /** A thread's read is over: it applies the write in progress first, if it has not yet. */
  private done(slot: Slot): void {
    if (this.state[slot.index] !== 'up') return;
    if (this.stale.delete(slot.index)) void this.rebuild(slot.keep());
    else if (this.current && !this.current.applied.has(slot.index)) void this.apply(this.current, slot.keep());
    else slot.release();
  }

  /** One write at a time, on every thread; settles as the journal's writer (thread 0) did. */
  private write<T>(request: Write): Promise<T> {
    if (this.closed) return Promise.reject(serviceUnavailable('The embedded triplestore is closed.'));
    // Before the write is sent: a copy asked for after this reads the new content.
    this.versions.set(request.graph, (this.versions.get(request.graph) ?? 0) + 1);
    const run = this.writes.then(async () => {
      const write: WriteInProgress = { request, applied: new Set(), outcomes: this.lanes.map(() => new Outcome()) };
      this.current = write;
      for (let i = 0; i < this.lanes.length; i++) {
        if (this.state[i] === 'broken') write.outcomes[i]!.resolve(undefined);
        const slot = this.state[i] === 'up' ? this.queue.take(i) : undefined;
        if (slot) void this.apply(write, slot);
      }
      const [outcome] = await Promise.allSettled([write.outcomes[0]!.promise, ...write.outcomes.slice(1).map((o) => o.promise.catch(() => undefined))]);
      this.current = undefined;
      if (outcome.status === 'rejected') {
        const error = outcome.reason as Error;
        // Only a syntax error or the quota fails alike on every thread (each put the graph back);
        // after anything else they may differ, and each is rebuilt from the journal, which has none of the write.
        if (!(error instanceof RdfSyntaxError) && !(error instanceof AppError && error.code === 'QUOTA_EXCEEDED')) this.replaceAll();
        throw error;
      }
      if (request.op === 'load' && !request.persistent) this.remember(request);
      if (request.op === 'drop') this.volatile.delete(request.graph);
      return outcome.value as T;
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Applies a write on the slot's thread, then frees the thread (or replaces it, when it trapped). */
  private async apply(write: WriteInProgress, slot: Slot): Promise<void> {
    const i = slot.index;
    write.applied.add(i);
    const request = i === 0 ? write.request : { ...write.request, persistent: false };
    try {
      write.outcomes[i]!.resolve(await this.lanes[i]!.call(request));
      slot.release();
    } catch (error) {
      write.outcomes[i]!.reject(error as Error);
      if (error instanceof EngineTrap) void this.rebuild(slot);
      else slot.release();
    }
  }

  /** Replaces every thread that is up: the free ones now, the busy ones when their query ends. */
  private replaceAll(): void {
    for (let i = 0; i < this.lanes.length; i++) {
      if (this.state[i] !== 'up') continue;
      const slot = this.queue.take(i);
      if (slot) void this.rebuild(slot);
      else this.stale.add(i);
    }
  }

  /** Replaces a thread: a new worker, the journal, the volatile graphs, the write in progress. */
  private async rebuild(slot: Slot): Promise<void> {
    const i = slot.index;
    this.state[i] = 'rebuilding';
    void this.lanes[i]!.stop();
    for (let attempt = 1; attempt <= REBUILD_ATTEMPTS && !this.closed; attempt++) {
      const lane = (this.lanes[i] = this.newLane(i));
      try {
        await lane.call({ op: 'open' });
        for (const loads of this.volatile.values()) for (const load of loads) await lane.call({ ...load, persistent: false });
        const write = this.current;
        if (write && !write.applied.has(i)) {
          write.applied.add(i);
          write.outcomes[i]!.resolve(await lane.call(i === 0 ? write.request : { ...write.request, persistent: false }).catch(() => undefined));
        }
        this.state[i] = 'up';
        this.options.logger?.info({ thread: i, attempt }, 'triplestore thread rebuilt');
        slot.release();
        return;
      } catch (error) {
        this.options.logger?.error({ thread: i, attempt, err: error }, 'rebuilding a triplestore thread failed');
        await lane.stop();
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    this.state[i] = 'broken';
    this.current?.outcomes[i]!.resolve(undefined);
  }

  /**
   * Keeps a volatile graph's documents, to rebuild a thread with: a replace starts them anew.
   * Volatile graphs are loaded from files that stay (the ontology), or from text.
   */
  private remember(load: Extract<Write, { op: 'load' }>): void {
    const loads = this.volatile.get(load.graph);
    if (loads && !load.replace) loads.push(load);
    else this.volatile.set(load.graph, [load]);
  }

  private newLane(index: number): OxigraphLane {
    return new OxigraphLane({ persistDir: this.options.persistDir, writer: index === 0 });
  }

  /** Site graphs persist and are held to the quota; volatile ones (the ontology) neither. */
  private loadLimits(graph: string): { persistent: boolean; maxTriples?: number } {
    const persistent = this.persistent(graph);
    return persistent && this.options.maxTriplesPerGraph !== undefined ? { persistent, maxTriples: this.options.maxTriplesPerGraph } : { persistent };
  }

  private persistent(graph: string): boolean {
    return !(this.options.volatileGraphs ?? []).includes(graph);
  }
}
