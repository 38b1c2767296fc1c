/**
 * The compactor's thread (segment-compactor.ts): rewrites a journal segment as the service's own
 * N-Triples, or joins such segments into one, writing only to the file it is given. N3.js reads
 * Turtle at ~245k triples/s here, faster than Oxigraph loads it, and nothing else of the store
 * waits for it. Answers as the store's worker does (OxigraphResponse), to an OxigraphLane.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parentPort } from 'node:worker_threads';
import N3 from 'n3';
import type { RdfFormat } from './graph-store.ts';
import type { OxigraphResponse } from './oxigraph-protocol.ts';

/** Messages from the main thread (the lane adds each one's id). */
export type CompactorRequest =
  /**
   * Rewrites a Turtle or N-Triples document without relative IRIs as N-Triples, blank node labels
   * given `blankPrefix` (unique per segment, as each document's are apart); answers the triples written.
   */
  | { op: 'convert'; path: string; format: RdfFormat; blankPrefix: string; out: string }
  /** Writes the segments one after another into `out`; answers the triples written. */
  | { op: 'join'; paths: readonly string[]; triples: number; out: string };

/** A document this rewrite cannot carry as Oxigraph read it: the segment is kept as it is. */
class NotConvertible extends Error {}

/**
 * The base the rewrite resolves relative IRIs against. N3.js and Oxigraph resolve against a graph's
 * `urn:` IRI differently (`<x>` against `urn:bkg:site:a` is `urn:bkg:site:ax` to one, `urn:x` to
 * the other): an IRI that comes out under this base means the document relied on the graph's
 * IRI as its base, and it stays as it was.
 */
const STAND_IN_BASE = 'http://relative.bkg.invalid/';

function refuseRelative(term: N3.Term): void {
  if (term.termType === 'NamedNode' && term.value.startsWith(STAND_IN_BASE))
    throw new NotConvertible('IRIs relative to the graph');
  if (term.termType === 'Literal' && term.datatype.value.startsWith(STAND_IN_BASE))
    throw new NotConvertible('IRIs relative to the graph');
}

async function convert(request: Extract<CompactorRequest, { op: 'convert' }>): Promise<number> {
  const parser = new N3.StreamParser({
    format: request.format,
    baseIRI: STAND_IN_BASE,
    blankNodePrefix: request.blankPrefix,
  });
  const out = createWriteStream(request.out);
  let triples = 0;
  let lines: string[] = [];
  const flush = async () => {
    if (lines.length === 0) return;
    const text = lines.join('');
    lines = [];
    if (!out.write(text)) await once(out, 'drain');
  };
  const writer = new N3.Writer({ format: 'N-Triples' });
  // The consumer's refusal reaches pipeline() as an abort of the streams before it: kept to be told as it is.
  let refused: NotConvertible | undefined;
  await pipeline(
    createReadStream(request.path, { highWaterMark: 1 << 20 }),
    parser,
    async (quads: AsyncIterable<N3.Quad>) => {
      for await (const quad of quads) {
        try {
          // RDF 1.2 triple terms are written differently by N3.js and Oxigraph: such a document stays as it is.
          if ([quad.subject.termType, quad.object.termType].includes('Quad' as never))
            throw new NotConvertible('triple terms');
          refuseRelative(quad.subject);
          refuseRelative(quad.predicate);
          refuseRelative(quad.object);
        } catch (error) {
          throw (refused = error as NotConvertible);
        }
        lines.push(writer.quadToString(quad.subject, quad.predicate, quad.object));
        triples++;
        if (lines.length >= 4096) await flush();
      }
    },
  ).catch((error: unknown) => {
    throw refused ?? error;
  });
  await flush();
  await close(out);
  return triples;
}

async function join(request: Extract<CompactorRequest, { op: 'join' }>): Promise<number> {
  const out = createWriteStream(request.out);
  for (const path of request.paths) {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
      if (!out.write(chunk)) await once(out, 'drain');
  }
  await close(out);
  return request.triples;
}

async function close(out: WriteStream): Promise<void> {
  out.end();
  await once(out, 'finish');
}

async function handle(request: CompactorRequest): Promise<number> {
  return request.op === 'convert' ? convert(request) : join(request);
}

parentPort!.on('message', (request: CompactorRequest & { id: number }) => {
  handle(request).then(
    (result) => parentPort!.postMessage({ id: request.id, ok: true, result } satisfies OxigraphResponse),
    // `syntax`: the document cannot be rewritten (kept as it is for good); anything else (a file
    // gone, a full disk) may pass, and the rewrite is tried again later.
    (error: Error & { code?: string }) =>
      parentPort!.postMessage({
        id: request.id,
        ok: false,
        message: error.message,
        syntax: error.code === undefined,
        fatal: false,
      } satisfies OxigraphResponse),
  );
});
