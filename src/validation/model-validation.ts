import { queryTooComplex, queryTooLarge, serviceUnavailable } from '../errors/app-error.ts';
import { cancelled, FairQueue } from '../limits/fair-queue.ts';
import type { Logger } from '../log/logger.ts';
import { RdfSyntaxError } from '../store/graph-store.ts';
import { EngineTrap, LaneDeadline, OxigraphLane } from '../store/oxigraph-lane.ts';
import type { ValidationConfig } from '../config/validation-config.ts';
import type { ModelSource } from './model-validator.ts';
import type { ValidationReport } from './validation-report.ts';
import type { ValidationRequest, ValidationWorkerData } from './validation-worker.ts';

export interface ModelValidationOptions extends ValidationConfig {
  readonly ontologyPath: string;
  readonly shapesPath?: string;
  readonly logger?: Logger;
}

/** A validator thread: its worker, and when it has loaded the ontology and the shapes. */
interface ValidatorThread {
  readonly lane: OxigraphLane<ValidationRequest>;
  readonly ready: Promise<unknown>;
}

const VALIDATION_WORKER = new URL('./validation-worker.ts', import.meta.url);

/**
 * The service's model validator: worker threads (validation-worker.ts) that load the ontology and
 * the shapes once, all started at the first validation (a service that never validates pays
 * nothing). Threads are handed out fairly by site (the model's base IRI, the site's graph), a site
 * holding all of them but one at most: a site's large validations wait behind each other, never in
 * front of another site's. A validation runs within its deadline, counted from when it starts on
 * its thread, and within the thread's heap. One that passes either, whose client went away while
 * it ran, or that traps or crashes its thread ends that thread alone: only that request fails, and
 * a fresh thread is ready before the slot serves again, so the restart is paid by the site that
 * caused it.
 */
export class ModelValidation {
  private readonly threads: Array<ValidatorThread | undefined>;
  private readonly queue: FairQueue;
  private closed = false;

  constructor(private readonly options: ModelValidationOptions) {
    this.threads = Array.from({ length: options.threads }, () => undefined);
    this.queue = new FairQueue(options.threads, Math.max(1, options.threads - 1));
  }

  /**
   * The report on the model the documents make together; RdfSyntaxError for a document that does
   * not parse. `baseIri` is the site's graph: sites take turns by it. `signal` is the request's:
   * once its client has gone away, the validation leaves its queue or stops.
   */
  async validate(sources: readonly ModelSource[], baseIri: string, signal?: AbortSignal): Promise<ValidationReport> {
    if (this.closed) throw serviceUnavailable('The model validator is closed.');
    const slot = await this.queue.acquire(baseIri, signal);
    for (let i = 0; i < this.threads.length; i++) this.threads[i] ??= this.start();
    const thread = this.threads[slot.index]!;
    try {
      await thread.ready;
      if (signal?.aborted) throw cancelled(signal);
      return await this.run(thread.lane, sources, baseIri, signal);
    } finally {
      if (thread.lane.stopped && !this.closed) {
        this.options.logger?.warn(
          { thread: slot.index, site: baseIri },
          'model validator thread ended, starting another',
        );
        const next = (this.threads[slot.index] = this.start());
        void next.ready.catch(() => undefined).then(() => slot.release());
      } else {
        slot.release();
      }
    }
  }

  /** Ends the threads. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread?.lane.stop()));
  }

  /** Validates on a thread within the deadline; ends the thread when it passes or the client goes away. */
  private async run(
    lane: OxigraphLane<ValidationRequest>,
    sources: readonly ModelSource[],
    baseIri: string,
    signal: AbortSignal | undefined,
  ): Promise<ValidationReport> {
    const stop = () => void lane.stop();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await lane.call<ValidationReport>({ op: 'validate', sources, baseIri }, this.options.timeoutMs);
    } catch (error) {
      if (error instanceof LaneDeadline) {
        void lane.stop();
        const limit = `${Math.round(this.options.timeoutMs / 1000)} s`;
        throw queryTooComplex(
          `The validation ran longer than ${limit} and was stopped; validate the model in smaller parts.`,
        );
      }
      if (signal?.aborted) throw cancelled(signal);
      if (error instanceof EngineTrap) {
        void lane.stop();
        throw error;
      }
      if (lane.stopped) {
        if (((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          const limit = this.options.memoryMb;
          throw queryTooLarge(
            `The model needs more memory than one validation may take (${limit} MiB); validate it in smaller parts.`,
            { exceeded: 'memory', limitMb: limit },
          );
        }
        throw serviceUnavailable('The model validator stopped while validating this model.', error);
      }
      if (error instanceof RdfSyntaxError) throw error;
      throw serviceUnavailable(`Validation failed: ${(error as Error).message}`);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  /** A new thread; its `ready` settles once it has loaded the ontology and the shapes, or failed to. */
  private start(): ValidatorThread {
    const data: ValidationWorkerData = { ontologyPath: this.options.ontologyPath, shapesPath: this.options.shapesPath };
    const lane = new OxigraphLane<ValidationRequest>(data, VALIDATION_WORKER, {
      maxOldGenerationSizeMb: this.options.memoryMb,
    });
    const ready = lane.call({ op: 'ready' }).catch((error: unknown) => {
      void lane.stop();
      throw serviceUnavailable('The model validator could not start.', error);
    });
    // Awaited by validations; a failure to start is theirs to report.
    ready.catch(() => undefined);
    return { lane, ready };
  }
}
