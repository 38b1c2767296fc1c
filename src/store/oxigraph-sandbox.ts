import type { Worker } from 'node:worker_threads';
import { serviceUnavailable } from '../errors/app-error.ts';
import { startWorker } from '../workers/start-worker.ts';
import { queryTimeout, type ClientQuery, type ClientQueryResult, type SparqlRow } from './graph-store.ts';
import type { SandboxRequest, SandboxResponse } from './oxigraph-sandbox-worker.ts';
import { requestSignal } from '../limits/request-work.ts';

type RequestBody = SandboxRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;
type Pending = { resolve: (value: SandboxResponse) => void; reject: (error: Error) => void };

/** Where the sandbox gets its copies: a graph's N-Triples, and a number that changes whenever the graph does. */
export interface SandboxSource {
  snapshot(graph: string): Promise<string>;
  version(graph: string): number;
}

/**
 * Runs client queries of the embedded store, one at a time, in a thread of their own over copies
 * of the graphs they read (oxigraph-sandbox-worker.ts). A copy is taken when a query first needs
 * it and again after the graph changed; at most `maxGraphs` are kept (least recently used go). A
 * query past its deadline, or whose client went away, ends the thread: the next query starts a
 * fresh one and copies what it needs again.
 */
export class OxigraphSandbox {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Graphs copied into the current thread → the version copied, least recently used first. */
  private readonly copies = new Map<string, number>();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly source: SandboxSource,
    private readonly maxGraphs: number,
  ) {}

  /** Runs the query after those before it, within its deadline (counted from now). */
  run(query: ClientQuery): Promise<ClientQueryResult> {
    const deadline = performance.now() + query.timeoutMs;
    const signal = requestSignal();
    const job = this.queue.then(() => this.execute(query, deadline, signal));
    this.queue = job.catch(() => undefined);
    return job;
  }

  /** Ends the thread. */
  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }

  private async execute(query: ClientQuery, deadline: number, signal: AbortSignal | undefined): Promise<ClientQueryResult> {
    if (signal?.aborted) throw serviceUnavailable('The request was cancelled.');
    for (const graph of query.graphs) await this.copy(graph);
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw queryTimeout(query.timeoutMs);
    const answer = this.call({ op: 'query', text: query.text, form: query.form });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<never>((_, reject) => {
      // Settled before the thread ends, which fails the query's own promise too.
      timer = setTimeout(() => {
        reject(queryTimeout(query.timeoutMs));
        this.restart();
      }, remaining);
      onAbort = () => {
        reject(serviceUnavailable('The request was cancelled.'));
        this.restart();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return resultOf(query, (await Promise.race([answer, stopped])).result);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Makes the thread's copy of the graph current. */
  private async copy(graph: string): Promise<void> {
    const version = this.source.version(graph);
    if (this.copies.get(graph) === version) {
      // Most recently used last.
      this.copies.delete(graph);
      this.copies.set(graph, version);
      return;
    }
    // The version is read before the copy is asked for: a change meanwhile makes the next query copy again.
    const ntriples = await this.source.snapshot(graph);
    await this.call({ op: 'load', graph, ntriples });
    this.copies.delete(graph);
    this.copies.set(graph, version);
    while (this.copies.size > this.maxGraphs) {
      const oldest = this.copies.keys().next().value!;
      this.copies.delete(oldest);
      await this.call({ op: 'drop', graph: oldest });
    }
  }

  private call(body: RequestBody): Promise<SandboxResponse & { ok: true }> {
    if (this.closed) return Promise.reject(serviceUnavailable('The embedded triplestore is closed.'));
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject });
      worker.postMessage({ ...body, id });
    });
  }

  private start(): Worker {
    const worker = startWorker(new URL('./oxigraph-sandbox-worker.ts', import.meta.url));
    worker.on('message', (response: SandboxResponse) => {
      const pending = this.pending.get(response.id);
      if (!pending) return;
      this.pending.delete(response.id);
      if (response.ok) pending.resolve(response);
      // The client's query is valid SPARQL (it was parsed to be confined): an error here is the engine's.
      else pending.reject(serviceUnavailable(`The query failed: ${response.message}`));
    });
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.copies.clear();
      for (const pending of this.pending.values()) pending.reject(serviceUnavailable('The query sandbox stopped', error));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    return worker;
  }

  /** Ends the thread now (a query is past its deadline); the next query starts another. */
  private restart(): void {
    const worker = this.worker;
    this.worker = undefined;
    this.copies.clear();
    for (const pending of this.pending.values()) pending.reject(serviceUnavailable('The query was stopped.'));
    this.pending.clear();
    void worker?.terminate();
  }
}

/** The sandbox's serialized answer as a ClientQueryResult. */
function resultOf(query: ClientQuery, result: string | boolean | null): ClientQueryResult {
  switch (query.form) {
    case 'ASK':
      return { form: 'ASK', value: result === true };
    case 'SELECT': {
      const document = JSON.parse(result as string) as { head: { vars?: string[] }; results: { bindings: SparqlRow[] } };
      return { form: 'SELECT', vars: document.head.vars ?? [], rows: document.results.bindings };
    }
    default:
      return { form: query.form, ntriples: result as string };
  }
}
