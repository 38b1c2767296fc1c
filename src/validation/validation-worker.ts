/**
 * Model validation in a worker thread: SHACL over a model of 100k triples takes seconds of CPU,
 * which must not stall the HTTP event loop. One thread of the validator's pool (model-validation.ts):
 * it is sent one validation at a time, and answers as the store's workers do (OxigraphResponse),
 * to an OxigraphLane.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RdfSyntaxError } from '../store/graph-store.ts';
import type { OxigraphResponse } from '../store/oxigraph-protocol.ts';
import { isWasmTrap, oxigraphIntact } from '../store/wasm-trap.ts';
import { ModelValidator, type ModelSource } from './model-validator.ts';

/** Messages from the main thread (the lane adds each one's id). */
export type ValidationRequest =
  /** Answers once the ontology and the shapes are loaded. */
  | { readonly op: 'ready' }
  /** Answers the report (a ValidationReport) on the model the documents make together. */
  | { readonly op: 'validate'; readonly sources: readonly ModelSource[]; readonly baseIri: string };

/** What each validator thread is started with. */
export interface ValidationWorkerData {
  readonly ontologyPath: string;
  readonly shapesPath?: string;
}

const { ontologyPath, shapesPath } = workerData as ValidationWorkerData;
const validator = ModelValidator.load(ontologyPath, shapesPath);

async function handle(request: ValidationRequest): Promise<unknown> {
  const loaded = await validator;
  return request.op === 'ready' ? null : loaded.validate(request.sources, request.baseIri);
}

let queue: Promise<unknown> = Promise.resolve();

parentPort!.on('message', (request: ValidationRequest & { id: number }) => {
  queue = queue.then(async () => {
    let response: OxigraphResponse;
    try {
      response = { id: request.id, ok: true, result: await handle(request) };
    } catch (error) {
      // The parser reports whatever stopped it as a syntax error, a trap of its engine too.
      const fatal = isWasmTrap(error) || !oxigraphIntact();
      response = {
        id: request.id,
        ok: false,
        message: (error as Error).message,
        syntax: !fatal && error instanceof RdfSyntaxError,
        fatal,
      };
    }
    parentPort!.postMessage(response);
  });
});
