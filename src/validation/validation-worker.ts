/**
 * Model validation in a worker thread: SHACL over a model of 100k triples takes seconds of CPU,
 * which must not stall the HTTP event loop. Validations run one at a time, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RdfSyntaxError } from '../store/graph-store.ts';
import { ModelValidator, type ModelSource } from './model-validator.ts';
import type { ValidationReport } from './validation-report.ts';

/** A model to validate. */
export interface ValidationRequest {
  readonly id: number;
  readonly sources: readonly ModelSource[];
  readonly baseIri: string;
}

/** The report, or why there is none. */
export type ValidationResponse =
  | { readonly id: number; readonly ok: true; readonly report: ValidationReport }
  | { readonly id: number; readonly ok: false; readonly message: string; readonly syntax: boolean };

const { ontologyPath, shapesPath } = workerData as { ontologyPath: string; shapesPath?: string };
const validator = ModelValidator.load(ontologyPath, shapesPath);
let queue: Promise<unknown> = Promise.resolve();

parentPort!.on('message', (request: ValidationRequest) => {
  queue = queue.then(async () => {
    let response: ValidationResponse;
    try {
      response = { id: request.id, ok: true, report: await (await validator).validate(request.sources, request.baseIri) };
    } catch (error) {
      response = { id: request.id, ok: false, message: (error as Error).message, syntax: error instanceof RdfSyntaxError };
    }
    parentPort!.postMessage(response);
  });
});
