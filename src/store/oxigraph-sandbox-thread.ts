import { serviceUnavailable } from '../errors/app-error.ts';
import { cancelled } from '../limits/fair-queue.ts';
import { type ClientQuery } from './graph-store.ts';
import { deadlineExceeded } from '../limits/request-work.ts';
import { EngineTrap, LaneDeadline, OxigraphLane } from './oxigraph-lane.ts';
import type { SandboxRequest, SandboxWorkerData } from './oxigraph-sandbox-worker.ts';

/** Where the sandbox gets its copies. */
export interface SandboxSource {
  /** The journal's directory: a persisted graph is copied from its files (oxigraph-sandbox-worker.ts). */
  readonly persistDir: string;
  /** Whether the journal does not hold the graph (the ontology): it is copied from `snapshot`. */
  volatile(graph: string): boolean;
  /** A volatile graph's N-Triples. */
  snapshot(graph: string): Promise<string>;
  /** A number that changes whenever the volatile graph does. */
  version(graph: string): number;
}

/** Why a thread was ended. */
type EndReason = 'deadline' | 'cancelled' | 'trap' | 'crash';

const SANDBOX_WORKER = new URL('./oxigraph-sandbox-worker.ts', import.meta.url);

/**
 * One thread of the SPARQL sandbox with its copies of graphs, at most `maxGraphs` of them (the
 * least recently used go). Its worker starts at its first call. A query past its deadline, whose
 * client went away while it ran, or that trapped the engine ends the thread; `restart` then starts
 * another with copies of what the last one held.
 */
export class SandboxThread {
  private lane: OxigraphLane<SandboxRequest> | undefined;
  /** Graphs held, least recently used first → for a volatile graph, the version copied. */
  private readonly copies = new Map<string, number | undefined>();
  /** Set when the thread was ended, until it is restarted. */
  private endedBy: EndReason | undefined;
  /** What the ended thread held, for `restart` to copy again. */
  private heldBefore: string[] = [];

  constructor(
    private readonly source: SandboxSource,
    private readonly maxGraphs: number,
  ) {}

  /** Whether the thread holds a copy of the graph (current or not). */
  holds(graph: string): boolean {
    return this.copies.has(graph);
  }

  /** Why the thread ended, when it did: it must be restarted before it serves again. */
  get ended(): EndReason | undefined {
    return this.endedBy;
  }

  /**
   * Makes the thread's copies of `graphs` current. Not within the query's deadline: a copy is the
   * engine's work, kept for the site's next queries.
   */
  async prepare(graphs: readonly string[]): Promise<void> {
    for (const graph of graphs) await this.copy(graph);
    while (this.copies.size > this.maxGraphs) {
      const oldest = this.copies.keys().next().value!;
      this.copies.delete(oldest);
      await this.call({ op: 'drop', graph: oldest });
    }
  }

  /**
   * Runs the query within its deadline, counted from now; the thread ends when the deadline
   * passes, or when `signal` aborts first (the client went away).
   */
  async query(query: ClientQuery, signal: AbortSignal | undefined): Promise<string | boolean | null> {
    const stop = () => this.end('cancelled');
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await this.call<string | boolean | null>(
        { op: 'query', text: query.text, form: query.form },
        query.timeoutMs,
      );
    } catch (error) {
      if (error instanceof LaneDeadline) {
        this.end('deadline');
        throw deadlineExceeded(query.timeoutMs);
      }
      if (signal?.aborted) throw cancelled(signal);
      throw error;
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  /** Starts the thread anew with copies of the graphs the last one held, the least recent first. */
  async restart(): Promise<void> {
    this.endedBy = undefined;
    try {
      await this.prepare(this.heldBefore);
    } catch (error) {
      // Left to start afresh at its next query.
      this.end('crash');
      this.endedBy = undefined;
      throw error;
    } finally {
      this.heldBefore = [];
    }
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    await this.lane?.stop();
  }

  private async copy(graph: string): Promise<void> {
    const known = this.copies.has(graph);
    const held = this.copies.get(graph);
    this.copies.delete(graph);
    if (!this.source.volatile(graph)) {
      await this.call({ op: 'copy', graph });
      this.copies.set(graph, undefined);
      return;
    }
    // The version is read before the copy is asked for: a change meanwhile makes the next query copy again.
    const version = this.source.version(graph);
    if (!known || held !== version) await this.call({ op: 'load', graph, ntriples: await this.source.snapshot(graph) });
    this.copies.set(graph, version);
  }

  /**
   * A call to the worker, started if need be. A trap or a crash ends the thread; any other
   * failure is the engine's (the client's query was parsed to be confined: it is valid SPARQL).
   */
  private async call<T>(body: SandboxRequest, timeoutMs?: number): Promise<T> {
    const lane = (this.lane ??= new OxigraphLane<SandboxRequest>(
      { persistDir: this.source.persistDir } satisfies SandboxWorkerData,
      SANDBOX_WORKER,
    ));
    try {
      return await lane.call<T>(body, timeoutMs);
    } catch (error) {
      if (error instanceof LaneDeadline || this.endedBy) throw error;
      if (error instanceof EngineTrap) {
        this.end('trap');
        throw error;
      }
      if (lane.stopped) {
        this.end('crash');
        throw serviceUnavailable('The SPARQL query sandbox stopped.', error);
      }
      throw serviceUnavailable(`The query failed: ${(error as Error).message}`);
    }
  }

  /** Ends the worker now, whatever it is doing; what it held is remembered for `restart`. */
  private end(reason: EndReason): void {
    this.endedBy ??= reason;
    if (this.copies.size > 0) this.heldBefore = [...this.copies.keys()];
    this.copies.clear();
    const lane = this.lane;
    this.lane = undefined;
    void lane?.stop();
  }
}
