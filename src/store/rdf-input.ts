/**
 * RDF read locally before any of it reaches an external store: parsed with Oxigraph (the same
 * parser and messages as the embedded store, with line and column), only the default graph of
 * quad formats kept, and streamed in batches so a large upload never sits whole in memory. The
 * parser is given each chunk only once its nesting is checked (rdf-nesting.ts): past the limit it
 * would trap.
 */
import { createReadStream } from 'node:fs';
import oxigraph from 'oxigraph';
import { QUAD_FORMATS, RdfSyntaxError, type RdfFormat, type RdfSource } from './graph-store.ts';
import { rdfNestingScanner } from './rdf-nesting.ts';

/** Errors of reading the source, which are not the document's fault. */
class SourceReadError extends Error {}

const CHUNK_BYTES = 1 << 20;

/** A text as UTF-8 chunks, never encoded whole: a site's graph exported for validation can be large. */
function* utf8Chunks(text: string): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  for (let rest = text; rest.length > 0;) {
    // A fresh buffer per chunk: the parser may still hold the previous one.
    const chunk = new Uint8Array(Math.min(CHUNK_BYTES, rest.length * 3));
    const { read, written } = encoder.encodeInto(rest, chunk);
    yield chunk.subarray(0, written);
    rest = rest.slice(read);
  }
}

async function* bytesOf(data: RdfSource): AsyncGenerator<Uint8Array> {
  if (data instanceof Uint8Array) {
    yield data;
    return;
  }
  if (typeof data === 'string') {
    yield* utf8Chunks(data);
    return;
  }
  try {
    for await (const chunk of createReadStream(data.path, { highWaterMark: CHUNK_BYTES })) yield chunk as Buffer;
  } catch (error) {
    throw new SourceReadError((error as Error).message, { cause: error });
  }
}

/** The source's chunks, each passed to the parser only after the nesting scan has read it. */
async function* checkedChunks(data: RdfSource, format: RdfFormat): AsyncGenerator<Uint8Array> {
  const scanner = rdfNestingScanner(format);
  for await (const chunk of bytesOf(data)) {
    scanner.push(chunk);
    yield chunk;
  }
}

/**
 * The document's default-graph triples in batches of about `batchSize`. A syntax error throws
 * `RdfSyntaxError` after the batches before it were yielded: callers write them somewhere they
 * can throw away (a temporary graph, a list).
 */
export async function* parseTriples(
  data: RdfSource,
  format: RdfFormat,
  baseIri: string,
  batchSize = 10_000,
): AsyncGenerator<oxigraph.Quad[]> {
  const quads = oxigraph.parse(checkedChunks(data, format), {
    format,
    base_iri: baseIri,
  }) as unknown as AsyncIterableIterator<oxigraph.Quad>;
  const keepAll = !QUAD_FORMATS.has(format);
  let batch: oxigraph.Quad[] = [];
  try {
    for await (const quad of quads) {
      if (!keepAll && quad.graph.termType !== 'DefaultGraph') continue;
      batch.push(quad);
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    if (error instanceof SourceReadError) throw (error.cause as Error) ?? error;
    throw new RdfSyntaxError((error as Error).message);
  }
  if (batch.length > 0) yield batch;
}

/** A triple as an N-Triples line (Oxigraph writes terms in N-Triples syntax). */
export function ntriple(quad: oxigraph.Quad): string {
  return `${quad.subject.toString()} ${quad.predicate.toString()} ${quad.object.toString()} .\n`;
}

/** True when a triple holds a blank node (its label means something only within one document). */
export function hasBlankNode(quad: oxigraph.Quad): boolean {
  return quad.subject.termType === 'BlankNode' || quad.object.termType === 'BlankNode';
}
