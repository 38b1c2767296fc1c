import type { GraphPatch } from '../rdf/rdf-patch.ts';
import type { RdfFormat, RdfSource } from './graph-store.ts';

/** Messages from the main thread to the Oxigraph worker. */
export type OxigraphRequest = { id: number } &
  /** Opens the journal; answers the persisted graphs (`PersistedGraphInfo`), smallest first, none of them loaded. */
  (
    | { op: 'open' }
    /** Reads these persisted graphs back, in order, telling progress (RestoreEvent); answers when all are done. */
    | { op: 'restore'; graphs: readonly string[] }
    | { op: 'select'; query: string; format: 'text/tab-separated-values' | 'application/sparql-results+json' }
    | {
        op: 'load';
        graph: string;
        data: RdfSource;
        format: RdfFormat;
        replace: boolean;
        persistent: boolean;
        maxTriples?: number;
      }
    /** Applies a patch (apply-patch.ts), the graph emptied first with `clear`; answers the triples after it and what changed. */
    | {
        op: 'patch';
        graph: string;
        patch: GraphPatch;
        clear: boolean;
        persistent: boolean;
        maxTriples?: number;
      }
    | { op: 'drop'; graph: string; persistent: boolean }
    | { op: 'dump'; graph: string; format: 'text/turtle' | 'application/n-triples' }
    | { op: 'count'; graph: string }
  );

/** The worker's answer to one request. */
export type OxigraphResponse =
  | { id: number; ok: true; result: unknown }
  | {
      id: number;
      ok: false;
      message: string;
      syntax: boolean;
      fatal: boolean;
      quota?: { limit: number; triples: number };
    };

/** A persisted graph as the journal lists it at start. */
export interface PersistedGraphInfo {
  readonly graph: string;
  readonly bytes: number;
  /** Known when every segment of the graph counts its triples. */
  readonly triples: number | undefined;
  /** Whether a segment is read back in one load (a document kept as uploaded), holding its thread throughout. */
  readonly readWhole: boolean;
}

/** Told by a worker, unasked, as a restore goes: the triples of a graph loaded so far, when it is done, whether it failed. */
export interface RestoreEvent {
  readonly event: 'restore';
  readonly graph: string;
  readonly triples: number;
  readonly done?: boolean;
  /** The segment that could not be read back (file name in the journal's directory) and why. */
  readonly failure?: { readonly file: string; readonly message: string };
}

/** Told by a worker, unasked, as a load goes: the bytes of the document its parser has read. */
export interface LoadEvent {
  readonly event: 'load';
  readonly graph: string;
  readonly bytes: number;
  /** The lines so far, in a line format (N-Triples, N-Quads): its triples, blank and comment lines aside. */
  readonly triples?: number;
}

/** What each worker of the embedded store is started with. */
export interface OxigraphWorkerData {
  /** The journal's directory (graph-journal.ts). */
  readonly persistDir: string;
  /** Whether this worker writes the journal; the others only read it. */
  readonly writer: boolean;
}
