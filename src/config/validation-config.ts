import type { EnvReaders } from './graph-store-config.ts';

/** The model validator's threads and how long one validation may take. */
export interface ValidationConfig {
  /** Validator threads, each loading the ontology and the shapes: validations of that many sites run at once. */
  readonly threads: number;
  /** How long one validation may run on its thread (time waiting for one not counted), in ms. */
  readonly timeoutMs: number;
  /** The heap of one validator thread, in MiB: a model past it ends its thread, failing that validation alone. */
  readonly memoryMb: number;
}

/** The validator settings: `BKG_VALIDATION_THREADS`, `BKG_VALIDATION_TIMEOUT_MS` and `BKG_VALIDATION_MEMORY_MB`. */
export function validationConfig(read: Pick<EnvReaders, 'int'>): ValidationConfig {
  return Object.freeze({
    threads: read.int('BKG_VALIDATION_THREADS', 2, 1, 16),
    // Ten minutes: a 150k-triple model takes 1.5 min, so models of most of a million triples pass,
    // while one request holds a thread and a core for no longer.
    timeoutMs: read.int('BKG_VALIDATION_TIMEOUT_MS', 600_000, 1000, 86_400_000),
    // A model takes about 2.4 kB of heap a triple on top of the ontology and shapes (45 MB): 2 GiB
    // holds the models the deadline lets through, and half of what Node gives a thread unasked.
    memoryMb: read.int('BKG_VALIDATION_MEMORY_MB', 2048, 64, 65_536),
  });
}
