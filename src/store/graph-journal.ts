/**
 * How the embedded store persists its graphs: per graph, a manifest listing the documents loaded
 * into it since its last replace (segments). A replace writes one segment (a copy of the uploaded
 * file, not a dump of the store: dumping 1M triples took as long as parsing them, and past ~3.5M
 * triples the dump is longer than a JavaScript string can be), a merge appends one, a drop removes
 * the manifest, a change smaller than a document (a patch) appends one holding the patch. Replaying
 * the segments in order rebuilds the graph.
 *
 * A segment is first kept as it was received; the store's compactor (segment-compactor.ts)
 * rewrites a large one as N-Triples of the service's own (`triples` set): one triple per
 * line, read back in chunks without checks at ~1.5× the rate of the uploaded Turtle, with exact
 * progress, and joined by concatenation when a graph has had too many merges (`swap`).
 *
 * Each manifest names its graph's content (`content`): a new name at each replace and append, the
 * same through a swap (the same triples in other files). What is read of a graph and kept across
 * restarts (kept-readings.ts) holds while the name is unchanged.
 *
 * Crash safety: a segment is written under a temporary name and renamed; the manifest is
 * switched by an atomic rename only after its segments are in place, so a crash leaves either the
 * old graph or the new one. Files no manifest lists are removed at the next start. Synchronous:
 * it runs in the store's worker thread between two requests, and on the main thread for a swap,
 * which the store orders with its writes.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { RdfFormat } from './graph-store.ts';

/** A segment holding a change (src/rdf/rdf-patch.ts) rather than a document: replayed in turn by apply-patch.ts. */
export const PATCH_FORMAT = 'application/rdf-patch';

/** What a segment holds: a document in an RDF format, or a patch. */
export type SegmentFormat = RdfFormat | typeof PATCH_FORMAT;

/** One document (or change) of a graph, in load order. */
export interface Segment {
  readonly file: string;
  readonly format: SegmentFormat;
  /**
   * Set when the service wrote the segment as N-Triples itself, one triple per line, from a document
   * it had already checked: it is read back without checks, in chunks, and counts its progress.
   */
  readonly triples?: number;
}

/** A segment with where its file is. */
export type StoredSegment = Segment & { readonly path: string };

/** A persisted graph at start: its segments, their total size, and their triples when every segment counts its own. */
export interface PersistedGraph {
  readonly graph: string;
  readonly segments: readonly StoredSegment[];
  readonly bytes: number;
  readonly triples: number | undefined;
}

/** A graph's manifest file. */
interface Manifest {
  readonly graph: string;
  readonly segments: readonly Segment[];
  /** The name of the graph's content (see the header); missing in manifests written before it was kept. */
  readonly content?: string;
}

/** A new name for a graph's content. */
const newContent = () => randomBytes(12).toString('hex');

/** A segment's content when it is written: a file to copy, or the document itself. */
export type SegmentSource = { readonly path: string } | string | Uint8Array;

const MANIFEST = '.graph.json';
// Before manifests, each graph was one N-Triples dump under this name; still read and replaced.
const LEGACY = '.graph.nt';
const SEGMENT = '.seg';
/** Where the compactor writes a segment before a swap moves it in; emptied at each start. */
const WORK = 'work';
/** Where readings of the graphs are kept (kept-readings.ts): not the journal's, so not cleaned by it. */
export const READINGS = 'readings';

/** Attempts at opening a graph's files while writes replace them (`openSegments`). */
const OPEN_ATTEMPTS = 3;

/** Past this many segments the compactor joins a graph's segments into one, so restarts and disk stay bounded. */
export const MAX_SEGMENTS = 8;

export class GraphJournal {
  private sequence = 0;
  // The store's worker and the main thread (swaps) each name segments: a tag apart keeps the names apart.
  private readonly tag = randomBytes(3).toString('hex');

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Where the compactor writes the segments it makes. */
  get workDir(): string {
    return join(this.dir, WORK);
  }

  /**
   * Every persisted graph with its segments (as absolute paths), smallest first. The journal's
   * writer (`clean`) also removes files no manifest lists and the compactor's unfinished work; a
   * reader must not, the writer may be writing one.
   */
  open(clean = true): PersistedGraph[] {
    const graphs: PersistedGraph[] = [];
    const names = readdirSync(this.dir);
    const listed = new Set<string>([READINGS]);
    for (const name of names) {
      let graph: string;
      let segments: Segment[];
      if (name.endsWith(MANIFEST)) {
        graph = decodeURIComponent(name.slice(0, -MANIFEST.length));
        segments = this.read(graph);
        // A manifest written before manifests named their content gets a name now, so what is read of it can be kept.
        if (clean && this.content(graph) === undefined) this.switchTo(graph, segments, [], newContent());
      } else if (name.endsWith(LEGACY) && !names.includes(`${name.slice(0, -LEGACY.length)}${MANIFEST}`)) {
        graph = decodeURIComponent(name.slice(0, -LEGACY.length));
        segments = [{ file: name, format: 'application/n-triples' }];
      } else {
        continue;
      }
      listed.add(name);
      for (const s of segments) listed.add(s.file);
      const stored = segments.map((s) => this.stored(s));
      const counted = stored.every((s) => s.triples !== undefined);
      graphs.push({
        graph,
        segments: stored,
        bytes: stored.reduce((sum, s) => sum + sizeOf(s.path), 0),
        triples: counted ? stored.reduce((sum, s) => sum + s.triples!, 0) : undefined,
      });
    }
    if (clean) {
      for (const name of names) if (!listed.has(name)) rmSync(join(this.dir, name), { force: true, recursive: true });
      mkdirSync(this.workDir, { recursive: true });
    }
    return graphs.sort((a, b) => a.bytes - b.bytes);
  }

  /** The segments of a graph, oldest first (none for a graph never persisted or dropped). */
  segments(graph: string): StoredSegment[] {
    return this.read(graph).map((s) => this.stored(s));
  }

  /**
   * The graph's segments as the manifest lists them now, each file opened (`fd`; the caller closes
   * them): once open, a file stays readable when a write removes it. A write that replaces the
   * graph between reading the manifest and opening the files removes them, and the manifest is read
   * again; writes are seconds apart, so a second attempt meets a settled journal.
   */
  openSegments(graph: string): Array<StoredSegment & { readonly fd: number }> {
    for (let attempt = 1; attempt <= OPEN_ATTEMPTS; attempt++) {
      const opened: Array<StoredSegment & { fd: number }> = [];
      try {
        for (const segment of this.segments(graph)) opened.push({ ...segment, fd: openSync(segment.path, 'r') });
        return opened;
      } catch (error) {
        for (const { fd } of opened) closeSync(fd);
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    throw new Error(`the graph ${graph} changed while its files were being opened, ${OPEN_ATTEMPTS} times`);
  }

  /**
   * The name of the graph's content as its manifest gives it now; undefined for a graph not
   * persisted, or persisted before manifests named their content (until its next change).
   */
  content(graph: string): string | undefined {
    return this.manifest(graph)?.content;
  }

  /** The graph is now exactly this document. */
  replace(graph: string, source: SegmentSource, format: SegmentFormat, triples?: number): void {
    const old = this.read(graph);
    this.switchTo(graph, [this.writeSegment(graph, source, format, triples)], old, newContent());
  }

  /** This document was added to the graph; returns how many segments the graph now has. */
  append(graph: string, source: SegmentSource, format: SegmentFormat, triples?: number): number {
    const segments = [...this.read(graph), this.writeSegment(graph, source, format, triples)];
    this.switchTo(graph, segments, [], newContent());
    return segments.length;
  }

  /**
   * Puts one segment of the service's own N-Triples (a file in `workDir`, moved in) in place of a
   * run of the graph's segments that holds the same triples, when the graph still has that run;
   * answers whether it did (a replace or a drop meanwhile makes the work moot: it is removed).
   */
  swap(graph: string, run: readonly string[], made: { readonly path: string; readonly triples: number }): boolean {
    const segments = this.read(graph);
    const at = segments.findIndex((s) => s.file === run[0]);
    if (at < 0 || run.some((file, i) => segments[at + i]?.file !== file)) {
      rmSync(made.path, { force: true });
      return false;
    }
    const file = this.segmentName(graph);
    renameSync(made.path, join(this.dir, file));
    const segment: Segment = { file, format: 'application/n-triples', triples: made.triples };
    this.switchTo(
      graph,
      [...segments.slice(0, at), segment, ...segments.slice(at + run.length)],
      segments.slice(at, at + run.length),
      this.content(graph),
    );
    return true;
  }

  /** The graph no longer exists. */
  drop(graph: string): void {
    const old = this.read(graph);
    rmSync(this.manifestPath(graph), { force: true });
    this.removeFiles(old);
  }

  private manifest(graph: string): Manifest | undefined {
    const path = this.manifestPath(graph);
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Manifest) : undefined;
  }

  private read(graph: string): Segment[] {
    const manifest = this.manifest(graph);
    if (manifest) return [...manifest.segments];
    const legacy = `${encodeURIComponent(graph)}${LEGACY}`;
    return existsSync(join(this.dir, legacy)) ? [{ file: legacy, format: 'application/n-triples' }] : [];
  }

  private stored(segment: Segment): StoredSegment {
    return { ...segment, path: join(this.dir, segment.file) };
  }

  private segmentName(graph: string): string {
    return `${encodeURIComponent(graph)}.${Date.now().toString(36)}-${this.tag}${(this.sequence++).toString(36)}${SEGMENT}`;
  }

  private writeSegment(
    graph: string,
    source: SegmentSource,
    format: SegmentFormat,
    triples: number | undefined,
  ): Segment {
    const file = this.segmentName(graph);
    const path = join(this.dir, file);
    if (typeof source === 'string' || source instanceof Uint8Array) writeFileSync(`${path}.tmp`, source);
    else copyFileSync(source.path, `${path}.tmp`);
    renameSync(`${path}.tmp`, path);
    return triples === undefined ? { file, format } : { file, format, triples };
  }

  private switchTo(
    graph: string,
    segments: readonly Segment[],
    old: readonly Segment[],
    content: string | undefined,
  ): void {
    const manifest = this.manifestPath(graph);
    writeFileSync(`${manifest}.tmp`, JSON.stringify({ graph, segments, content } satisfies Manifest));
    renameSync(`${manifest}.tmp`, manifest);
    this.removeFiles(old);
  }

  private removeFiles(segments: readonly Segment[]): void {
    for (const s of segments) rmSync(join(this.dir, s.file), { force: true });
  }

  private manifestPath(graph: string): string {
    return join(this.dir, `${encodeURIComponent(graph)}${MANIFEST}`);
  }
}

/** A file's size; 0 when it is gone. */
export function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
