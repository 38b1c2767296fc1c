import type { Worker } from 'node:worker_threads';
import { serviceUnavailable } from '../errors/app-error.ts';
import { RdfSyntaxError } from '../store/graph-store.ts';
import { startWorker } from '../workers/start-worker.ts';
import type { ModelSource } from './model-validator.ts';
import type { ValidationReport } from './validation-report.ts';
import type { ValidationRequest, ValidationResponse } from './validation-worker.ts';

type Pending = { resolve: (report: ValidationReport) => void; reject: (error: Error) => void };

/**
 * The service's model validator: a worker thread (validation-worker.ts), started at the first
 * validation and kept, that loads the ontology and the shapes once.
 */
export class ModelValidation {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly ontologyPath: string,
    private readonly shapesPath?: string,
  ) {}

  /** The report on the model the documents make together; RdfSyntaxError for a document that does not parse. */
  validate(sources: readonly ModelSource[], baseIri: string): Promise<ValidationReport> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, sources, baseIri } satisfies ValidationRequest);
    });
  }

  /** Ends the worker. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = startWorker(new URL('./validation-worker.ts', import.meta.url), { ontologyPath: this.ontologyPath, shapesPath: this.shapesPath });
    worker.on('message', (response: ValidationResponse) => {
      const pending = this.pending.get(response.id);
      if (!pending) return;
      this.pending.delete(response.id);
      if (response.ok) pending.resolve(response.report);
      else pending.reject(response.syntax ? new RdfSyntaxError(response.message) : serviceUnavailable(`Validation failed: ${response.message}`));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const pending of this.pending.values()) pending.reject(serviceUnavailable('The model validator stopped', error));
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`worker exited with code ${code}`)));
    return worker;
  }
}
