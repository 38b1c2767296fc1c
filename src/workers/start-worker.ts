import { Worker } from 'node:worker_threads';

/** Starts a worker thread that runs a TypeScript module (its file URL) with `data` as its workerData. */
export function startWorker(module: URL, data: Record<string, unknown> = {}): Worker {
  return new Worker(new URL('./typescript-worker.mjs', import.meta.url), { workerData: { ...data, module: module.href } });
}
