// Worker threads do not inherit the tsx loader on Node 20: register it, then run the TypeScript
// module the parent named in workerData.module (see start-worker.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
