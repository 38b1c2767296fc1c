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
  SelectOptions,
  SparqlRow,
} from './graph-store.ts';
import { select, type SelectQuery } from '../rdf/sparql-algebra.ts';
import { composeChanges, namesBlankNode, parseRdfPatch, type GraphPatch } from '../rdf/rdf-patch.ts';
import { serialize } from '../rdf/sparql-serializer.ts';
import { RdfSyntaxError, restoreFailed, siteLoading } from './graph-store.ts';
import { closeSync, createReadStream, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { AppError, serviceUnavailable } from '../errors/app-error.ts';
import { FairQueue, type Slot } from '../limits/fair-queue.ts';
import { deadlineExceeded, type RequestWork } from '../limits/request-work.ts';
import type { Logger } from '../log/logger.ts';
import { parseSelectResults, parseTsvSelectResults } from './sparql-results.ts';
import { EngineTrap, LaneDeadline, OxigraphLane, type LaneRequest } from './oxigraph-lane.ts';
import { OxigraphSandbox } from './oxigraph-sandbox.ts';
import type { PersistedGraphInfo, RestoreEvent } from './oxigraph-protocol.ts';
import { GraphJournal, PATCH_FORMAT, READINGS } from './graph-journal.ts';
import { KeptReadings } from './kept-readings.ts';
import { SegmentCompactor } from './segment-compactor.ts';

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
  /** Uploads from this size on are rewritten as N-Triples for the journal (default 16 MiB; segment-compactor.ts). */
  readonly rewriteFromBytes?: number;
  /** Most triples a persisted (site) graph may hold; a load past it is refused whole (QUOTA_EXCEEDED). */
  readonly maxTriplesPerGraph?: number;
  readonly logger?: Logger;
}

type Write = Extract<LaneRequest, { op: 'load' } | { op: 'drop' } | { op: 'patch' }>;

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
  /** Told the writer's (thread 0's) progress through the document. */
  readonly progress: LoadProgress | undefined;
  readonly applied: Set<number>;
  readonly outcomes: readonly Outcome[];
  /**
   * Whether the other threads wait for the writer before they apply it (a site graph's load):
   * on two cores, loading on every thread at once halves the writer's pace, which the answer
   * waits for; and a document the writer refuses costs the others nothing.
   */
  following: boolean;
}

// Attempts to rebuild a thread before it is given up as broken (then /healthz fails).
const REBUILD_ATTEMPTS = 3;

/** A persisted graph being read back at start: what each thread has of it so far. */
class Restore {
  /** Triples each thread has loaded. */
  readonly loaded: number[];
  /** The threads that have all of it. */
  readonly done = new Set<number>();
  readonly started = performance.now();
  private resolve!: () => void;
  readonly settled = new Promise<void>((resolve) => (this.resolve = resolve));
  private lead!: () => void;
  /** Resolves once one thread has the graph (or it is settled otherwise). */
  readonly led = new Promise<void>((resolve) => (this.lead = resolve));

  constructor(
    readonly info: PersistedGraphInfo,
    threads: number,
  ) {
    this.loaded = new Array<number>(threads).fill(0);
  }

  /** What a request about the graph is told: loaded so far (by the thread furthest on), and when to come back. */
  progress(): Extract<GraphRestore, { state: 'loading' }> {
    const triples = Math.max(...this.loaded);
    const elapsed = (performance.now() - this.started) / 1000;
    const rate = triples / Math.max(elapsed, 0.001);
    const total = this.info.triples;
    // A retry when the rest should be in at the rate so far; a few seconds when the total or the rate is not known yet.
    const retryAfterSeconds =
      total !== undefined && rate > 0 ? Math.min(60, Math.max(1, Math.ceil((total - triples) / rate))) : 5;
    return {
      graph: this.info.graph,
      state: 'loading',
      triples,
      ...(total !== undefined ? { totalTriples: total } : {}),
      bytes: this.info.bytes,
      serving: this.done.size > 0,
      retryAfterSeconds,
    };
  }

  /** One thread has all of the graph. */
  has(thread: number): void {
    this.done.add(thread);
    this.lead();
  }

  finish(): void {
    this.lead();
    this.resolve();
  }
}

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
  /** Persisted graphs not yet back on every thread since the start. */
  private readonly restores = new Map<string, Restore>();
  /** Persisted graphs whose journal could not be read back: the file and why. */
  private readonly unreadable = new Map<string, { file: string; message: string }>();
  private restoring: Promise<void> = Promise.resolve();
  /**
   * The thread leading the restore at start, until it has read every graph. A write is sent to it
   * at once and applied in turn (between two chunks, or after a document read whole), and does not
   * wait for it: the writes start-up awaits come while the leader may be reading a large graph.
   */
  private leading: number | undefined;
  /** Threads reading a document back whole, with their slot: taken at once, or when their query in progress ends. */
  private readonly readingWhole = new Map<number, Slot | undefined>();
  private readonly servingListeners: Array<(graph: string) => void> = [];
  private readonly journal: GraphJournal;
  /** What is read of the persisted graphs, kept across restarts. */
  readonly readings: KeptReadings;
  private readonly compactor: SegmentCompactor;
  private closed = false;

  private constructor(private readonly options: OxigraphStoreOptions) {
    const threads = options.threads ?? 2;
    this.lanes = Array.from({ length: threads }, (_, i) => this.newLane(i));
    this.state = this.lanes.map(() => 'up');
    this.queue = new FairQueue(threads, Math.max(1, threads - 1));
    this.journal = new GraphJournal(options.persistDir);
    this.readings = new KeptReadings(join(options.persistDir, READINGS), this.journal, options.logger);
    this.compactor = new SegmentCompactor(
      options.persistDir,
      (graph, run, made) => this.swapSegments(graph, run, made),
      options.logger,
      options.rewriteFromBytes,
    );
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

  /**
   * Starts the threads and begins reading the persisted graphs back, smallest first; answers as
   * soon as the threads are up. A graph not back yet refuses a read with SITE_LOADING until one
   * thread has it, a write until every thread has it (`whenRestored` waits for that); every other
   * graph serves meanwhile.
   */
  static async open(options: OxigraphStoreOptions): Promise<OxigraphStore> {
    const store = new OxigraphStore(options);
    const [graphs] = await Promise.all(store.lanes.map((lane) => lane.call<PersistedGraphInfo[]>({ op: 'open' })));
    store.restore(graphs!);
    void store.readings.prune(new Set(graphs!.map(({ graph }) => graph)));
    return store;
  }

  /** Resolves when the graph (or, without one, every persisted graph) is back from the journal, or failed to be. */
  async whenRestored(graph?: string): Promise<void> {
    if (graph === undefined) await this.restoring;
    else await this.restores.get(graph)?.settled;
  }

  /** Resolves when every write so far has reached every thread (a load is answered once the writer has it). */
  async whenApplied(): Promise<void> {
    await this.writes;
  }

  /** Resolves when the journal's background work scheduled so far (segments rewritten, joined) is done. */
  whenCompacted(): Promise<void> {
    return this.compactor.idle();
  }

  onServing(listener: (graph: string) => void): void {
    this.servingListeners.push(listener);
  }

  /** The persisted graphs still being read back since the start, and those that could not be. */
  restoreStatus(): GraphRestore[] {
    const loading = [...this.restores.values()].map((restore) => restore.progress());
    const failed = [...this.unreadable].map(([graph, { file, message }]) => ({
      graph,
      state: 'failed' as const,
      file,
      message,
    }));
    return [...loading, ...failed];
  }

  /**
   * Reads every persisted graph back on every thread, in the background; the compactor starts once
   * they are all back. The last thread leads; the writer (thread 0) follows, so the writes of
   * start-up (the ontology, the demo site) never wait behind a long restore (see `leading`).
   */
  private restore(graphs: readonly PersistedGraphInfo[]): void {
    if (graphs.length === 0) return;
    for (const info of graphs) this.restores.set(info.graph, new Restore(info, this.lanes.length));
    const started = performance.now();
    const bytes = graphs.reduce((sum, g) => sum + g.bytes, 0);
    this.options.logger?.info({ graphs: graphs.length, bytes }, 'restoring graphs');
    const restoreOn = async (i: number, info: PersistedGraphInfo, lane: OxigraphLane) => {
      // A document read in one load holds its thread throughout: its slot is taken meanwhile, so
      // queries go to the other threads instead of waiting behind it (the restore of a document
      // read in chunks answers them between two chunks).
      if (info.readWhole) this.readingWhole.set(i, this.queue.take(i));
      try {
        await lane.call({ op: 'restore', graphs: [info.graph] });
      } catch (error) {
        // A restore cut short by closing the store is no failure.
        if (this.closed) return;
        // The thread is replaced; its replacement reads every graph back before it serves.
        this.options.logger?.warn({ thread: i, err: error }, 'a triplestore thread failed while restoring');
        this.replace(i);
      } finally {
        const held = this.readingWhole.get(i);
        this.readingWhole.delete(i);
        if (held) this.done(held);
      }
    };
    // The leader reads each graph first, and each other thread once the leader has it: two
    // threads loading at once took 6.8 s each for what one alone loads in 4.3 s (they share the
    // machine's memory bandwidth), and a graph serves queries as soon as one thread has it. A
    // thread replaced meanwhile reads every graph back itself before it serves (rebuild).
    const leader = this.lanes.length - 1;
    this.leading = leader > 0 ? leader : undefined;
    const lead = async (lane = this.lanes[leader]!) => {
      for (const info of graphs) {
        if (this.lanes[leader] !== lane) break;
        await restoreOn(leader, info, lane);
      }
      this.leading = undefined;
    };
    const follow = async (i: number, lane = this.lanes[i]!) => {
      for (const info of graphs) {
        await this.restores.get(info.graph)?.led;
        if (this.lanes[i] !== lane) return;
        if (this.restores.has(info.graph)) await restoreOn(i, info, lane);
      }
    };
    this.restoring = Promise.all([lead(), ...this.lanes.slice(0, leader).map((_, i) => follow(i))]).then(async () => {
      await Promise.all([...this.restores.values()].map((restore) => restore.settled));
      this.options.logger?.info(
        { graphs: graphs.length, bytes, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) },
        'graphs restored',
      );
      for (const { graph } of graphs) if (!this.unreadable.has(graph)) this.compactor.schedule(graph);
    });
  }

  /** A thread's progress reading a graph back: the graph is back once every thread that serves has it. */
  private restored(thread: number, event: RestoreEvent): void {
    const restore = this.restores.get(event.graph);
    if (!restore) return;
    restore.loaded[thread] = event.triples;
    if (!event.done) return;
    if (event.failure) {
      this.unreadable.set(event.graph, event.failure);
      this.options.logger?.error(
        { graph: event.graph, file: event.failure.file, reason: event.failure.message },
        'a graph could not be restored from its journal; its files are kept',
      );
      this.settle(restore);
      return;
    }
    restore.has(thread);
    // Queries of the graph waiting for a thread that has it may now run on this one.
    this.queue.wake();
    if (restore.done.size === 1) {
      this.options.logger?.info(
        {
          graph: event.graph,
          triples: event.triples,
          seconds: Number(((performance.now() - restore.started) / 1000).toFixed(2)),
        },
        'graph restored',
      );
      for (const listener of this.servingListeners) listener(event.graph);
    }
    if (this.whole(restore)) this.settle(restore);
  }

  /** Whether every thread that serves (or may again) has the graph. */
  private whole(restore: Restore): boolean {
    return this.lanes.every((_, i) => restore.done.has(i) || this.state[i] === 'broken');
  }

  private settle(restore: Restore): void {
    this.restores.delete(restore.info.graph);
    restore.finish();
  }

  /**
   * Refuses a request about a graph that could not be read back, or is not back yet: a read until
   * one thread has it, a write until every thread has it (a thread reading the journal back must
   * not meet a change of the graph it has not read).
   */
  private available(graph: string | undefined, write = false): void {
    if (graph === undefined) return;
    const restore = this.restores.get(graph);
    if (restore && (write || !this.lanes.some((_, i) => restore.done.has(i) && this.state[i] === 'up')))
      throw siteLoading(restore.progress());
    const failure = this.unreadable.get(graph);
    if (failure) throw restoreFailed(graph, failure.file, failure.message);
  }

  /** The compactor's new segment put in place, between two writes. */
  private swapSegments(
    graph: string,
    run: readonly string[],
    made: { path: string; triples: number },
  ): Promise<boolean> {
    const swap = this.writes.then(() => this.journal.swap(graph, run, made));
    this.writes = swap.catch(() => undefined);
    return swap;
  }

  async select(algebra: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    const query = serialize(algebra);
    const tsv = await this.read<string>(
      { op: 'select', query, format: 'text/tab-separated-values' },
      options?.site,
      options?.work,
    );
    const rows = await parseTsvSelectResults(tsv, options?.work?.signal);
    // A term TSV cannot carry as JSON does (see parseTsvSelectResults): the rare query asks twice.
    return (
      rows ??
      parseSelectResults(
        await this.read<string>(
          { op: 'select', query, format: 'application/sparql-results+json' },
          options?.site,
          options?.work,
        ),
      )
    );
  }

  async clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    for (const graph of query.graphs) this.available(graph);
    return this.sandbox.run(query);
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat, progress?: LoadProgress): Promise<LoadResult> {
    return this.write({ op: 'load', graph, data, format, replace: true, ...this.loadLimits(graph) }, progress);
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat, progress?: LoadProgress): Promise<LoadResult> {
    return this.write({ op: 'load', graph, data, format, replace: false, ...this.loadLimits(graph) }, progress);
  }

  changeGraph(graph: string, patch: GraphPatch, clear = false): Promise<ChangeResult> {
    if (!this.persistent(graph))
      return Promise.reject(new Error(`${graph} is rebuilt at every start: it is loaded, not changed`));
    return this.write({ op: 'patch', graph, patch, clear, ...this.loadLimits(graph) });
  }

  dropGraph(graph: string): Promise<void> {
    return this.write({ op: 'drop', graph, persistent: this.persistent(graph) });
  }

  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.read({ op: 'dump', graph, format }, graph);
  }

  /**
   * The graph as the journal holds it, when every segment is N-Triples of the service's own: their
   * files one after another (each document's blank nodes apart, a triple merged twice written
   * twice, which loads as once). Read from disk, not through the store's threads or its writes:
   * another site's long load does not hold it up. The files are all opened when the first chunk is
   * asked for, so a write that replaces them meanwhile does not cut the answer.
   */
  async exportStream(graph: string): Promise<{ triples: number; chunks: AsyncIterable<Uint8Array> } | undefined> {
    this.available(graph);
    const segments = this.journal.segments(graph);
    // Documents of the service's own N-Triples, then patches with no blank node: the documents'
    // lines but those the patches remove, then the lines they add.
    const documents = segments.findIndex((s) => s.format === PATCH_FORMAT);
    const base = documents < 0 ? segments : segments.slice(0, documents);
    const patches = documents < 0 ? [] : segments.slice(documents);
    if (base.length === 0 || !base.every((s) => s.triples !== undefined)) return undefined;
    if (!patches.every((s) => s.format === PATCH_FORMAT)) return undefined;
    const patch = composeChanges(patches.map((s) => parseRdfPatch(readFileSync(s.path, 'utf8'))));
    if ([...patch.remove, ...patch.add].some(namesBlankNode)) return undefined;
    const removed = new Set(patch.remove);
    const journal = this.journal;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      const files = journal.openSegments(graph).slice(0, base.length);
      try {
        for (const { fd } of files) {
          const stream = createReadStream('', { fd, autoClose: false, start: 0, highWaterMark: 1 << 20 });
          yield* removed.size === 0 ? stream : withoutLines(stream, removed);
        }
        if (patch.add.length > 0) yield Buffer.from(patch.add.map((t) => `${t} .\n`).join(''));
      } finally {
        for (const { fd } of files) closeSync(fd);
      }
    }
    const triples = base.reduce((sum, s) => sum + s.triples!, 0) - patch.remove.length + patch.add.length;
    return { triples, chunks: chunks() };
  }

  countTriples(graph: string): Promise<number> {
    return this.read({ op: 'count', graph }, graph);
  }

  async ping(): Promise<void> {
    await this.select(select({ variables: '*', where: [], limit: 1 }));
  }

  health(): EngineHealth {
    if (this.state.includes('broken')) return 'broken';
    return this.state.includes('rebuilding') ? 'recovering' : 'ok';
  }

  async close(): Promise<void> {
    // Every write is on disk once the last one has settled.
    await this.writes;
    await this.readings.settled();
    this.closed = true;
    await this.compactor.close();
    await this.sandbox.close();
    await Promise.all(this.lanes.map((lane) => lane.stop()));
  }

  /** Runs a read on the first thread free for the site, within the deadline of the request's `work`, if any. */
  private async read<T>(request: LaneRequest, site: string | undefined, work?: RequestWork): Promise<T> {
    if (this.closed) throw serviceUnavailable('The embedded triplestore is closed.');
    this.available(site);
    if (!this.state.includes('up') && !this.state.includes('rebuilding'))
      throw serviceUnavailable('The embedded triplestore is broken; the service must be restarted.');
    // A request already over its budget or deadline does not queue more work.
    work?.remainingMs();
    // A graph still being read back runs only on the threads that have it.
    const slot = await this.queue.acquire(
      site ?? '',
      work?.signal,
      site !== undefined && this.restores.has(site) ? (i) => this.restores.get(site)?.done.has(i) ?? true : undefined,
    );
    const started = performance.now();
    try {
      return await this.lanes[slot.index]!.call<T>(request, work?.remainingMs());
    } catch (error) {
      if (error instanceof LaneDeadline || error instanceof EngineTrap) {
        this.options.logger?.warn({ thread: slot.index, reason: error.name, site }, 'triplestore thread replaced');
        // The rebuild stays counted against the site whose query cost the thread: were it let go,
        // the site's next query would take the last live thread and every other site would wait
        // out the rebuild.
        void this.rebuild(slot);
        throw error instanceof LaneDeadline ? deadlineExceeded(work!.timeoutMs) : error;
      }
      throw error;
    } finally {
      work?.chargeTime(performance.now() - started);
      this.done(slot);
    }
  }

  /** A thread's work is over: it applies the write in progress first, if it has not yet; one reading a document whole keeps its slot. */
  private done(slot: Slot): void {
    if (this.state[slot.index] !== 'up') return;
    if (this.readingWhole.has(slot.index) && !this.readingWhole.get(slot.index))
      this.readingWhole.set(slot.index, slot.keep());
    else if (this.stale.delete(slot.index)) void this.rebuild(slot.keep());
    else if (this.current && this.due(this.current, slot.index)) void this.apply(this.current, slot.keep());
    else slot.release();
  }

  /** Whether the thread is to apply the write when next free. */
  private due(write: WriteInProgress, i: number): boolean {
    return !write.applied.has(i) && (i === 0 || !write.following);
  }

  /**
   * The writer is done with a load the other threads waited for: each applies it now if free,
   * else when its query ends (`done`); a load the writer refused they do not apply at all.
   */
  private follow(write: WriteInProgress, applied: boolean): void {
    write.following = false;
    for (let i = 1; i < this.lanes.length; i++) {
      if (write.applied.has(i)) continue;
      if (!applied) {
        write.applied.add(i);
        write.outcomes[i]!.resolve(undefined);
        continue;
      }
      const slot = this.state[i] === 'up' ? this.queue.take(i) : undefined;
      if (slot) void this.apply(write, slot);
    }
  }

  /** One write at a time, on every thread; settles as the journal's writer (thread 0) did. */
  private write<T>(request: Write, progress?: LoadProgress): Promise<T> {
    if (this.closed) return Promise.reject(serviceUnavailable('The embedded triplestore is closed.'));
    try {
      // A graph that could not be read back may be replaced or dropped (what an operator does to
      // mend it), not merged into: the merge would build on a graph that is not there.
      if (this.restores.has(request.graph) || (request.op === 'load' && !request.replace) || request.op === 'patch')
        this.available(request.graph, true);
    } catch (error) {
      return Promise.reject(error);
    }
    // Before the write is sent: a copy asked for after this reads the new content.
    this.versions.set(request.graph, (this.versions.get(request.graph) ?? 0) + 1);
    // A patch or a site graph's load is answered as soon as the writer (thread 0) has applied it:
    // another thread applies it before its next query (`done`), so no read misses it, and one busy
    // with a long query (a site profile at 5M triples) or the load itself does not hold up the
    // answer. The next write still waits for every thread.
    const siteLoad = request.op === 'load' && request.persistent;
    const early = request.op === 'patch' || siteLoad;
    const lead = new Outcome();
    // Only an early answer's caller waits on it: another's failure is told through `run`, not left unhandled here.
    lead.promise.catch(() => undefined);
    const run = this.writes.then(async () => {
      const leading = this.leading;
      const write: WriteInProgress = {
        request,
        progress,
        applied: new Set(),
        outcomes: this.lanes.map(() => new Outcome()),
        // Not while a restore leads: the writes start-up awaits are small, and the leader takes them in turn.
        following: siteLoad && leading === undefined,
      };
      this.current = write;
      if (write.following)
        write.outcomes[0]!.promise.then(
          () => this.follow(write, true),
          () => this.follow(write, false),
        );
      for (let i = 0; i < this.lanes.length; i++) {
        if (this.state[i] === 'broken') write.outcomes[i]!.resolve(undefined);
        if (i === leading && this.state[i] === 'up') {
          this.send(write, i);
          continue;
        }
        const slot = this.state[i] === 'up' && this.due(write, i) ? this.queue.take(i) : undefined;
        if (slot) void this.apply(write, slot);
      }
      // What the writer answered, as the caller gets it (a load's triples); from then on a graph
      // that could not be read back is served again, replaced.
      const answer = write.outcomes[0]!.promise.then((value) => {
        this.unreadable.delete(request.graph);
        return request.op === 'load' ? { triples: (value as { triples: number }).triples } : value;
      });
      lead.resolve(answer);
      const others = write.outcomes
        .slice(1)
        .map((o, i) => (i + 1 === leading ? undefined : o.promise.catch(() => undefined)));
      const [outcome] = await Promise.allSettled([write.outcomes[0]!.promise, ...others]);
      this.current = undefined;
      if (outcome.status === 'rejected') {
        const error = outcome.reason as Error;
        // Only a syntax error or the quota fails alike on every thread (each put the graph back);
        // after anything else they may differ, and each is rebuilt from the journal, which has none of the write.
        if (!(error instanceof RdfSyntaxError) && !(error instanceof AppError && error.code === 'QUOTA_EXCEEDED'))
          this.replaceAll();
        throw error;
      }
      if (request.op === 'load' && !request.persistent) this.remember(request);
      if (request.op === 'drop') this.volatile.delete(request.graph);
      // A large upload is rewritten for the journal after every thread has it (a second parse
      // beside the writer's would slow it ~1.8× on two cores), a patch joined to the segments before it.
      if (early) this.compactor.schedule(request.graph);
      return (await answer) as T;
    });
    this.writes = run.catch(() => undefined);
    if (!early) return run;
    run.catch((error: unknown) => lead.reject(error as Error));
    return lead.promise as Promise<T>;
  }

  /** Applies a write on the slot's thread, then frees the thread (or replaces it, when it trapped). */
  private async apply(write: WriteInProgress, slot: Slot): Promise<void> {
    const i = slot.index;
    write.applied.add(i);
    const request = i === 0 ? write.request : { ...write.request, persistent: false };
    try {
      write.outcomes[i]!.resolve(await this.lanes[i]!.call(request));
      this.done(slot);
    } catch (error) {
      write.outcomes[i]!.reject(error as Error);
      if (error instanceof EngineTrap) void this.rebuild(slot);
      else slot.release();
    }
  }

  /**
   * Sends a write to the thread leading the restore without its slot: the thread applies it in the
   * order it was sent, before any query sent after it. A thread whose engine trapped is replaced.
   */
  private send(write: WriteInProgress, i: number): void {
    write.applied.add(i);
    const lane = this.lanes[i]!;
    lane.call({ ...write.request, persistent: false }).then(
      (value) => write.outcomes[i]!.resolve(value),
      (error: unknown) => {
        // A thread replaced before it applied the write applies it once rebuilt, as any thread would.
        if (this.lanes[i] !== lane) write.applied.delete(i);
        else write.outcomes[i]!.resolve(undefined);
        if (error instanceof EngineTrap) this.replace(i);
      },
    );
  }

  /** Replaces every thread that is up: the free ones now, the busy ones when their query ends. */
  private replaceAll(): void {
    for (let i = 0; i < this.lanes.length; i++) this.replace(i);
  }

  /** Replaces a thread that is up: now when it is free, else when its query ends. */
  private replace(i: number): void {
    if (this.state[i] !== 'up' || this.closed) return;
    const slot = this.queue.take(i);
    if (slot) void this.rebuild(slot);
    else this.stale.add(i);
  }

  /**
   * Replaces a thread: a new worker, the journal, the volatile graphs, the write in progress. The
   * slot is held until the thread serves again, counted against whoever holds it.
   */
  private async rebuild(slot: Slot): Promise<void> {
    const i = slot.index;
    this.state[i] = 'rebuilding';
    void this.lanes[i]!.stop();
    for (let attempt = 1; attempt <= REBUILD_ATTEMPTS && !this.closed; attempt++) {
      const lane = (this.lanes[i] = this.newLane(i));
      try {
        const graphs = await lane.call<PersistedGraphInfo[]>({ op: 'open' });
        await lane.call({ op: 'restore', graphs: graphs.map((g) => g.graph) });
        for (const loads of this.volatile.values())
          for (const load of loads) await lane.call({ ...load, persistent: false });
        const write = this.current;
        if (write && this.due(write, i)) {
          write.applied.add(i);
          write.outcomes[i]!.resolve(
            await lane.call(i === 0 ? write.request : { ...write.request, persistent: false }).catch(() => undefined),
          );
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
    // The broken thread stays out of the queue for good, counted against no site.
    slot.keep();
    this.current?.outcomes[i]!.resolve(undefined);
    // A graph waiting for this thread to have it waits no more.
    for (const restore of [...this.restores.values()]) if (this.whole(restore)) this.settle(restore);
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
    return new OxigraphLane(
      { persistDir: this.options.persistDir, writer: index === 0 },
      undefined,
      undefined,
      (event) => {
        if (event.event === 'restore') this.restored(index, event);
        else if (event.event === 'load' && index === 0 && this.current?.request.graph === event.graph)
          this.current.progress?.(event.bytes, event.triples);
      },
    );
  }

  /** Site graphs persist and are held to the quota; volatile ones (the ontology) neither. */
  private loadLimits(graph: string): { persistent: boolean; maxTriples?: number } {
    const persistent = this.persistent(graph);
    return persistent && this.options.maxTriplesPerGraph !== undefined
      ? { persistent, maxTriples: this.options.maxTriplesPerGraph }
      : { persistent };
  }

  private persistent(graph: string): boolean {
    return !(this.options.volatileGraphs ?? []).includes(graph);
  }
}

/** N-Triples chunks without the lines `removed` names (`<s> <p> <o>`, without the final dot), cut at line ends. */
async function* withoutLines(chunks: AsyncIterable<Buffer>, removed: ReadonlySet<string>): AsyncGenerator<Uint8Array> {
  let carry = '';
  // A chunk may end within a character: the decoder keeps its first bytes for the next.
  const decoder = new StringDecoder('utf8');
  const keep = (line: string) => !removed.has(line.slice(0, line.lastIndexOf(' .')));
  for await (const chunk of chunks) {
    const text = carry + decoder.write(chunk);
    const end = text.lastIndexOf('\n') + 1;
    carry = text.slice(end);
    const lines = text.slice(0, end).split('\n');
    lines.pop();
    yield Buffer.from(
      lines
        .filter(keep)
        .map((line) => `${line}\n`)
        .join(''),
    );
  }
  if (carry && keep(carry)) yield Buffer.from(carry);
}
