/**
 * Reading a journal's segments (graph-journal.ts) back into an Oxigraph store, for the store's
 * workers at start and the sandbox's copies. A segment of the service's own N-Triples is read in
 * chunks cut at line ends, without Oxigraph's checks (the document was checked when it was
 * loaded): 1M generated triples in 4.3 s where their Turtle took 6.5 s, and a worker restoring a
 * large graph answers its other requests between two chunks. Any other segment (a document as it
 * was uploaded) is read in one checked load, and a patch is applied.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import oxigraph from 'oxigraph';
import { parseRdfPatch } from '../rdf/rdf-patch.ts';
import { applyPatch } from './apply-patch.ts';
import { descriptorChunks } from './file-chunks.ts';
import { PATCH_FORMAT, type StoredSegment } from './graph-journal.ts';

/** Bytes of N-Triples read per chunk: ~55k triples of a generated site, ~0.25 s of this machine's load. */
const CHUNK_BYTES = 8 << 20;

const NEWLINE = 0x0a;

/** A segment that could not be read back: the file is named, the store left to its owner. */
export class SegmentUnreadable extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'SegmentUnreadable';
  }
}

/**
 * Loads a segment into `graph`, one step per chunk: each step yields the triples loaded so far
 * (of this segment; a document read whole yields once, at its end, its triples unknown: -1).
 * Run it to its end at once (`loadSegment`) or a step at a time between other work.
 */
export function* segmentSteps(
  store: oxigraph.Store,
  graph: string,
  segment: StoredSegment,
  opened?: number,
): Generator<number, void, void> {
  const to_graph_name = oxigraph.namedNode(graph);
  let fd = opened;
  try {
    fd ??= openSync(segment.path, 'r');
    if (segment.format === PATCH_FORMAT) {
      applyPatch(store, graph, parseRdfPatch(readFileSync(fd, 'utf8')));
      yield -1;
      return;
    }
    if (segment.triples === undefined) {
      store.load(descriptorChunks(fd), { format: segment.format, to_graph_name, base_iri: graph });
      yield -1;
      return;
    }
    let triples = 0;
    for (const chunk of lineChunks(fd)) {
      store.load(chunk, { format: 'application/n-triples', to_graph_name, lenient: true });
      for (let i = chunk.indexOf(NEWLINE); i >= 0; i = chunk.indexOf(NEWLINE, i + 1)) triples++;
      yield triples;
    }
  } catch (error) {
    throw new SegmentUnreadable(segment.file, (error as Error).message);
  } finally {
    if (opened === undefined && fd !== undefined) closeSync(fd);
  }
}

/** Loads a segment into `graph` at once (from `opened`, a descriptor of its file, when given). */
export function loadSegment(store: oxigraph.Store, graph: string, segment: StoredSegment, opened?: number): void {
  for (const _ of segmentSteps(store, graph, segment, opened));
}

/** An open file in chunks of about CHUNK_BYTES, each ending at a line end (the last at the file's end). */
function* lineChunks(fd: number): Generator<Uint8Array> {
  let carry = Buffer.alloc(0);
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const read = readSync(fd, buffer);
    if (read === 0) break;
    const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
    const end = data.lastIndexOf(NEWLINE) + 1;
    if (end > 0) yield data.subarray(0, end);
    carry = Buffer.from(data.subarray(end));
  }
  if (carry.length > 0) yield carry;
}
