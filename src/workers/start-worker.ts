import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * Starts a worker thread that runs a TypeScript module (its file URL) with `data` as its workerData,
 * its heap within `resourceLimits` when given (past them the thread ends, ERR_WORKER_OUT_OF_MEMORY).
 */
export function startWorker(module: URL, data: Record<string, unknown> = {}, resourceLimits?: ResourceLimits): Worker {
  return new Worker(new URL('./typescript-worker.mjs', import.meta.url), {
    workerData: { ...data, module: module.href },
    resourceLimits,
  });
}
