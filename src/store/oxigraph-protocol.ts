import type { RdfFormat, RdfSource } from './graph-store.ts';

/** Messages from the main thread to the Oxigraph worker. */
export type OxigraphRequest = { id: number } & (
  | { op: 'open' }
  | { op: 'select'; query: string; format: 'text/tab-separated-values' | 'application/sparql-results+json' }
  | { op: 'load'; graph: string; data: RdfSource; format: RdfFormat; replace: boolean; persistent: boolean; maxTriples?: number }
  | { op: 'drop'; graph: string; persistent: boolean }
  | { op: 'dump'; graph: string; format: 'text/turtle' | 'application/n-triples' }
  | { op: 'count'; graph: string }
);

/** The worker's answer to one request. */
export type OxigraphResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; message: string; syntax: boolean; fatal: boolean; quota?: { limit: number; triples: number } };

/** What each worker of the embedded store is started with. */
export interface OxigraphWorkerData {
  /** The journal's directory (graph-journal.ts). */
  readonly persistDir: string;
  /** Whether this worker writes the journal; the others only read it. */
  readonly writer: boolean;
}
