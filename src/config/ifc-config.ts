import type { EnvReaders } from './graph-store-config.ts';

/**
 * Reading and converting IFC files. Each file is read, then converted, in a child process of its
 * own, one file at a time per worker; these bound what that process may take.
 */
export interface IfcConfig {
  /** How many IFC files are processed at once (each in its own child process); 0: none (they stay pending). */
  readonly workers: number;
  /** Larger IFC files are not read (status failed, saying so). */
  readonly maxBytes: number;
  /** Resident memory of one child process, in MB, past which it is killed. */
  readonly memoryMb: number;
  /** Time one child process may take (reading, or converting), in seconds. */
  readonly timeoutSeconds: number;
}

/** The IFC settings: `BKG_IFC_WORKERS`, `BKG_IFC_MAX_BYTES`, `BKG_IFC_MEMORY_MB`, `BKG_IFC_TIMEOUT_SECONDS`. */
export function ifcConfig(read: Pick<EnvReaders, 'int'>): IfcConfig {
  return Object.freeze({
    workers: read.int('BKG_IFC_WORKERS', 1, 0, 16),
    maxBytes: read.int('BKG_IFC_MAX_BYTES', 512 * 1024 ** 2, 1, Number.MAX_SAFE_INTEGER),
    memoryMb: read.int('BKG_IFC_MEMORY_MB', 3072, 512, 1024 * 1024),
    timeoutSeconds: read.int('BKG_IFC_TIMEOUT_SECONDS', 1800, 1, 7 * 86_400),
  });
}
