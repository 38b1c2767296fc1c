import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log/logger.ts';
import { RdfSyntaxError, type RdfFormat } from './graph-store.ts';
import { GraphJournal, MAX_SEGMENTS, PATCH_FORMAT, sizeOf, type StoredSegment } from './graph-journal.ts';
import { OxigraphLane } from './oxigraph-lane.ts';
import type { CompactorRequest } from './segment-compactor-worker.ts';

/** A segment the compactor made: its file (in the work directory) and the triples it holds. */
export interface Made {
  readonly path: string;
  readonly triples: number;
}

/** Puts a segment the compactor made in place of the run of segments it holds (GraphJournal.swap), in order with the store's writes. */
export type Swap = (graph: string, run: readonly string[], made: Made) => Promise<boolean>;

/**
 * Documents smaller than this are kept as uploaded (unless the graph has too many segments): 16 MiB
 * of Turtle (~400k triples) read back in ~3 s as they are, and rewriting every small upload would
 * cost more than it saves (the demo site's is replaced at every start).
 */
export const REWRITE_FROM_BYTES = 16 << 20;

const WORKER = new URL('./segment-compactor-worker.ts', import.meta.url);

/**
 * Keeps the embedded store's journal fast to read back, in the background, one graph at a time:
 * each segment kept as it was uploaded is rewritten as the service's own N-Triples (restored ~1.5×
 * faster, in chunks, with exact progress), and a graph with more than MAX_SEGMENTS segments has
 * each run of rewritten ones joined into one. The new file is made in the journal's work directory by a thread of its
 * own and put in place by the store (`swap`), only if the graph still has what it was made from.
 * A document the rewrite cannot carry (RDF 1.2 triple terms, IRIs relative to the graph, a syntax
 * N3.js reads otherwise) stays as it was: it is still restored, in one checked load.
 */
export class SegmentCompactor {
  private readonly journal: GraphJournal;
  private lane: OxigraphLane<CompactorRequest> | undefined;
  private readonly queued = new Set<string>();
  /** Segments the rewrite failed on: not tried again by this process. */
  private readonly kept = new Set<string>();
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    persistDir: string,
    private readonly swap: Swap,
    private readonly logger?: Logger,
    /** Documents from this size on are rewritten (tests lower it). */
    readonly rewriteFromBytes = REWRITE_FROM_BYTES,
  ) {
    this.journal = new GraphJournal(persistDir);
  }

  /** Compacts the graph when the compactor is next free (once, however often it is asked meanwhile). */
  schedule(graph: string): void {
    if (this.closed || this.queued.has(graph)) return;
    this.queued.add(graph);
    this.running = this.running.then(async () => {
      this.queued.delete(graph);
      if (this.closed) return;
      try {
        await this.compact(graph);
      } catch (error) {
        this.logger?.warn({ graph, err: error }, 'compacting a graph failed; it stays as it is');
      }
    });
  }

  /** Resolves when everything scheduled so far is done. */
  async idle(): Promise<void> {
    let last: Promise<void> | undefined;
    while (last !== this.running) await (last = this.running);
  }

  async close(): Promise<void> {
    this.closed = true;
    // Whatever it was making is left in the work directory, which the next start empties.
    await this.lane?.stop();
  }

  private async compact(graph: string): Promise<void> {
    const all = this.journal.segments(graph);
    for (const segment of all) {
      // A patch stays as it is: replayed in moments, and not a document to rewrite.
      if (
        segment.triples !== undefined ||
        segment.format === PATCH_FORMAT ||
        this.kept.has(segment.file) ||
        this.closed
      )
        continue;
      // A small document reads back in moments as it is (the demo site's, rewritten at every start, would cost more than it saves).
      if (all.length <= MAX_SEGMENTS && sizeOf(segment.path) < this.rewriteFromBytes) continue;
      const started = performance.now();
      const out = this.workFile();
      try {
        const triples = await this.convert(segment.path, segment.format, out);
        const swapped = await this.swap(graph, [segment.file], { path: out, triples });
        this.logger?.info(
          { graph, segment: segment.file, triples, swapped, seconds: seconds(started) },
          'segment rewritten as N-Triples',
        );
      } catch (error) {
        if (!(error instanceof RdfSyntaxError)) throw error;
        this.kept.add(segment.file);
        this.logger?.info({ graph, segment: segment.file, reason: error.message }, 'segment kept as uploaded');
      }
    }
    const segments = this.journal.segments(graph);
    if (segments.length <= MAX_SEGMENTS) return;
    // Each run of rewritten segments becomes one; a document kept as uploaded stays a segment of its own.
    for (const run of ownRuns(segments)) {
      if (this.closed) return;
      const started = performance.now();
      const triples = run.reduce((sum, s) => sum + s.triples!, 0);
      const out = this.workFile();
      await this.call({ op: 'join', paths: run.map((s) => s.path), triples, out });
      const swapped = await this.swap(
        graph,
        run.map((s) => s.file),
        { path: out, triples },
      );
      this.logger?.info(
        { graph, segments: run.length, triples, swapped, seconds: seconds(started) },
        'segments joined',
      );
    }
  }

  /** Rewrites a document into `out`; answers its triples. Its blank nodes get labels of their own, as each document's are apart. */
  private convert(path: string, format: RdfFormat, out: string): Promise<number> {
    return this.call<number>({ op: 'convert', path, format, blankPrefix: `${randomBytes(4).toString('hex')}_`, out });
  }

  private call<T>(request: CompactorRequest): Promise<T> {
    if (!this.lane || this.lane.stopped) {
      this.lane = new OxigraphLane<CompactorRequest>({}, WORKER);
    }
    return this.lane.call<T>(request);
  }

  private workFile(): string {
    mkdirSync(this.journal.workDir, { recursive: true });
    return join(this.journal.workDir, `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}.nt`);
  }
}

/** The runs of two or more consecutive segments of the service's own N-Triples. */
function ownRuns(segments: readonly StoredSegment[]): StoredSegment[][] {
  const runs: StoredSegment[][] = [[]];
  for (const segment of segments) {
    if (segment.triples !== undefined) runs.at(-1)!.push(segment);
    else if (runs.at(-1)!.length > 0) runs.push([]);
  }
  return runs.filter((run) => run.length > 1);
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));
