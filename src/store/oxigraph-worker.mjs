// Worker threads do not inherit the tsx loader on Node 20: register it, then run the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./oxigraph-worker.ts');
