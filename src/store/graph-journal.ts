/**
 * How the embedded store persists its graphs: per graph, a manifest listing the documents loaded
 * into it since its last replace (segments), each kept as it was received. A replace writes one
 * segment (a copy of the uploaded file, not a dump of the store: dumping 1M triples took as long
 * as parsing them and held the whole graph as text in memory), a merge appends one, a drop removes
 * the manifest. Replaying the segments in order at start rebuilds the graph.
 *
 * Crash safety: a segment is written under a temporary name and renamed; the manifest is
 * switched by an atomic rename only after its segments are in place, so a crash leaves either the
 * old graph or the new one. Files no manifest lists are removed at the next start. Synchronous:
 * it runs in the store's worker thread, between two requests.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RdfFormat } from './graph-store.ts';

/** One document of a graph, in load order. */
export interface Segment {
  readonly file: string;
  readonly format: RdfFormat;
}

/** A segment's content when it is written: a file to copy, or the document itself. */
export type SegmentSource = { readonly path: string } | string | Uint8Array;

const MANIFEST = '.graph.json';
// Before manifests, each graph was one N-Triples dump under this name; still read and replaced.
const LEGACY = '.graph.nt';
const SEGMENT = '.seg';

/** Past this many segments a merge rewrites the graph as one dump, so restarts and disk stay bounded. */
export const MAX_SEGMENTS = 8;

export class GraphJournal {
  private sequence = 0;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /**
   * Every persisted graph with its segments (as absolute paths). The journal's writer (`clean`)
   * also removes files no manifest lists; a reader must not, the writer may be writing one.
   */
  open(clean = true): Map<string, Array<Segment & { path: string }>> {
    const graphs = new Map<string, Array<Segment & { path: string }>>();
    const names = readdirSync(this.dir);
    const listed = new Set<string>();
    for (const name of names) {
      let graph: string;
      let segments: Segment[];
      if (name.endsWith(MANIFEST)) {
        graph = decodeURIComponent(name.slice(0, -MANIFEST.length));
        segments = this.read(graph);
      } else if (name.endsWith(LEGACY) && !names.includes(`${name.slice(0, -LEGACY.length)}${MANIFEST}`)) {
        graph = decodeURIComponent(name.slice(0, -LEGACY.length));
        segments = [{ file: name, format: 'application/n-triples' }];
      } else {
        continue;
      }
      listed.add(name);
      for (const s of segments) listed.add(s.file);
      graphs.set(graph, segments.map((s) => ({ ...s, path: join(this.dir, s.file) })));
    }
    if (clean) for (const name of names) if (!listed.has(name)) rmSync(join(this.dir, name), { force: true, recursive: true });
    return graphs;
  }

  /** The segments of a graph, oldest first (none for a graph never persisted or dropped). */
  segments(graph: string): Array<Segment & { path: string }> {
    return this.read(graph).map((s) => ({ ...s, path: join(this.dir, s.file) }));
  }

  /** The graph is now exactly this document. */
  replace(graph: string, source: SegmentSource, format: RdfFormat): void {
    const old = this.read(graph);
    this.switchTo(graph, [this.writeSegment(graph, source, format)], old);
  }

  /** This document was added to the graph; returns how many segments the graph now has. */
  append(graph: string, source: SegmentSource, format: RdfFormat): number {
    const segments = [...this.read(graph), this.writeSegment(graph, source, format)];
    this.switchTo(graph, segments, []);
    return segments.length;
  }

  /** The graph no longer exists. */
  drop(graph: string): void {
    const old = this.read(graph);
    rmSync(this.manifestPath(graph), { force: true });
    this.removeFiles(old);
  }

  private read(graph: string): Segment[] {
    const manifest = this.manifestPath(graph);
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { segments: Segment[] }).segments;
    const legacy = `${encodeURIComponent(graph)}${LEGACY}`;
    return existsSync(join(this.dir, legacy)) ? [{ file: legacy, format: 'application/n-triples' }] : [];
  }

  private writeSegment(graph: string, source: SegmentSource, format: RdfFormat): Segment {
    const file = `${encodeURIComponent(graph)}.${Date.now().toString(36)}-${(this.sequence++).toString(36)}${SEGMENT}`;
    const path = join(this.dir, file);
    if (typeof source === 'string' || source instanceof Uint8Array) writeFileSync(`${path}.tmp`, source);
    else copyFileSync(source.path, `${path}.tmp`);
    renameSync(`${path}.tmp`, path);
    return { file, format };
  }

  private switchTo(graph: string, segments: readonly Segment[], old: readonly Segment[]): void {
    const manifest = this.manifestPath(graph);
    writeFileSync(`${manifest}.tmp`, JSON.stringify({ graph, segments }));
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
