import { AsyncResource } from 'node:async_hooks';
import { serviceUnavailable } from '../errors/app-error.ts';
import { cancelled, FairQueue } from '../limits/fair-queue.ts';
import type { Logger } from '../log/logger.ts';
import type { ClientQuery, ClientQueryResult, SparqlRow } from './graph-store.ts';
import { SandboxThread, type SandboxSource } from './oxigraph-sandbox-thread.ts';

export interface SandboxOptions {
  /** Threads, each with its own copies: client queries of that many sites run at once. */
  readonly threads: number;
  /** Graphs each thread keeps copies of. */
  readonly maxGraphs: number;
  readonly logger?: Logger;
}

/**
 * Runs client queries of the embedded store in threads of their own over copies of the graphs
 * they read (oxigraph-sandbox-thread.ts). The threads are handed out fairly by site (the query's
 * first graph, confine-query.ts) and a site holds all of them but one at most, so one site's slow
 * queries wait behind each other, never in front of another site's. A query's deadline counts
 * from when it starts on its thread, after its copies are made: neither the wait nor the copy of
 * a large graph counts against it. A query past its deadline, whose client went away while it ran,
 * or that trapped the engine ends its thread; the thread is started again, with copies of what it
 * held, before its slot serves another query, so the cost falls on the site that caused it.
 */
export class OxigraphSandbox {
  /** The thread each slot of the queue runs on; idle threads may change places (`claim`). */
  private readonly threads: SandboxThread[];
  private readonly queue: FairQueue;
  /** Slots held now, by a query or by the restart of its thread. */
  private readonly busy = new Set<number>();
  /**
   * Runs a function outside any request (bound where the sandbox is made, at start-up): a thread's
   * restart is the engine's work, bound by neither the deadline nor the client of the request whose
   * query ended it.
   */
  private readonly detached = AsyncResource.bind(<T>(fn: () => T): T => fn());
  private closed = false;

  constructor(
    source: SandboxSource,
    private readonly options: SandboxOptions,
  ) {
    this.threads = Array.from({ length: options.threads }, () => new SandboxThread(source, options.maxGraphs));
    this.queue = new FairQueue(options.threads, Math.max(1, options.threads - 1));
  }

  /** Runs the query when a thread is free for its site; leaves the queue when the client goes away. */
  async run(query: ClientQuery): Promise<ClientQueryResult> {
    if (this.closed) throw serviceUnavailable('The embedded triplestore is closed.');
    const signal = query.signal;
    const site = query.graphs[0] ?? '';
    const slot = await this.queue.acquire(site, signal);
    const thread = this.claim(slot.index, site);
    const release = () => {
      this.busy.delete(slot.index);
      slot.release();
    };
    try {
      await thread.prepare(query.graphs);
      if (signal?.aborted) throw cancelled(signal);
      return resultOf(query, await thread.query(query, signal));
    } finally {
      const reason = thread.ended;
      if (reason && !this.closed) {
        this.options.logger?.warn(
          { thread: slot.index, reason, site },
          'SPARQL sandbox thread ended, starting another',
        );
        this.detached(() => thread.restart()).then(release, (error: unknown) => {
          this.options.logger?.error({ thread: slot.index, err: error }, 'restarting a SPARQL sandbox thread failed');
          release();
        });
      } else {
        release();
      }
    }
  }

  /**
   * The thread to run slot `index`'s query on. The queue hands out whichever slot is free; when
   * that slot's thread holds no copy of the site's graph and an idle one does, the two change
   * places, so a site's queries keep to the thread with its copy instead of copying it into each.
   */
  private claim(index: number, site: string): SandboxThread {
    const own = this.threads[index]!;
    if (!own.holds(site)) {
      const other = this.threads.findIndex((thread, i) => !this.busy.has(i) && i !== index && thread.holds(site));
      if (other >= 0) [this.threads[index], this.threads[other]] = [this.threads[other]!, own];
    }
    this.busy.add(index);
    return this.threads[index]!;
  }

  /** Ends the threads. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}

/** The sandbox's serialized answer as a ClientQueryResult. */
function resultOf(query: ClientQuery, result: string | boolean | null): ClientQueryResult {
  switch (query.form) {
    case 'ASK':
      return { form: 'ASK', value: result === true };
    case 'SELECT': {
      const document = JSON.parse(result as string) as {
        head: { vars?: string[] };
        results: { bindings: SparqlRow[] };
      };
      return { form: 'SELECT', vars: document.head.vars ?? [], rows: document.results.bindings };
    }
    default:
      return { form: query.form, ntriples: result as string };
  }
}
