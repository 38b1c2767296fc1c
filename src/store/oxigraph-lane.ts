import type { ResourceLimits, Worker } from 'node:worker_threads';
import { serviceUnavailable } from '../errors/app-error.ts';
import { startWorker } from '../workers/start-worker.ts';
import { RdfSyntaxError, tripleQuotaExceeded } from './graph-store.ts';
import type { LoadEvent, OxigraphRequest, OxigraphResponse, RestoreEvent } from './oxigraph-protocol.ts';

/** What a worker tells unasked: a restore's, a load's or a rewrite's progress. */
export type WorkerEvent = RestoreEvent | LoadEvent;

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** A request to a worker, without the id the lane gives it. */
export type LaneRequest = OxigraphRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** An answer the worker could not give because its engine trapped: the lane must be replaced. */
export class EngineTrap extends Error {
  constructor(message: string) {
    super(`The triplestore engine failed: ${message}`);
    this.name = 'EngineTrap';
  }
}

/** A call stopped at its deadline: the worker is still busy with it and must be replaced. */
export class LaneDeadline extends Error {
  constructor() {
    super('deadline');
    this.name = 'LaneDeadline';
  }
}

/**
 * One worker thread holding a whole copy of the embedded store (oxigraph-worker.ts), or another
 * worker that answers as it does (OxigraphResponse: the SPARQL sandbox, the model validator). Calls
 * are answered in order; a call with a deadline rejects with `LaneDeadline` when it passes, and a
 * trap in the engine with `EngineTrap`: either way the lane is no longer usable and its owner replaces it.
 */
export class OxigraphLane<Request extends object = LaneRequest> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failure: Error | undefined;

  /** Starts `module` (by default the store's worker, oxigraph-worker.ts) with `data` as its workerData; its progress (restores, loads) goes to `onEvent`. */
  constructor(
    data: object,
    module = new URL('./oxigraph-worker.ts', import.meta.url),
    resourceLimits?: ResourceLimits,
    onEvent?: (event: WorkerEvent) => void,
  ) {
    this.worker = startWorker(module, { ...data }, resourceLimits);
    this.worker.on('message', (response: OxigraphResponse | WorkerEvent) => {
      // A message of its own, not an answer: a restore's or a load's progress.
      if (!('id' in response)) {
        onEvent?.(response);
        return;
      }
      const pending = this.pending.get(response.id);
      if (!pending) return;
      this.pending.delete(response.id);
      if (response.ok) pending.resolve(response.result);
      else if (response.fatal) pending.reject(new EngineTrap(response.message));
      else if (response.quota) pending.reject(tripleQuotaExceeded(response.quota.limit, response.quota.triples));
      else pending.reject(response.syntax ? new RdfSyntaxError(response.message) : new Error(response.message));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const pending of this.pending.values())
        pending.reject(serviceUnavailable('The embedded triplestore stopped', error));
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
  }

  /** Whether the worker has stopped (crashed, or ended). */
  get stopped(): boolean {
    return this.failure !== undefined;
  }

  /** Sends a request; past `timeoutMs` (when given) rejects with `LaneDeadline`. */
  call<T>(body: Request, timeoutMs?: number): Promise<T> {
    if (this.failure)
      return Promise.reject(serviceUnavailable('The embedded triplestore is not running', this.failure));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle =
        <A>(fn: (a: A) => void) =>
        (a: A) => {
          clearTimeout(timer);
          fn(a);
        };
      this.pending.set(id, { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject) });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new LaneDeadline());
        }, timeoutMs);
      }
      this.worker.postMessage({ ...body, id });
    });
  }

  /** Ends the worker at once, whatever it is doing. */
  async stop(): Promise<void> {
    this.failure ??= new Error('stopped');
    for (const pending of this.pending.values()) pending.reject(serviceUnavailable('The embedded triplestore stopped'));
    this.pending.clear();
    await this.worker.terminate();
  }
}
