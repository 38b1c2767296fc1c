/**
 * RDF read locally before any of it reaches an external store: parsed with Oxigraph (the same
 * parser and messages as the embedded store, with line and column), only the default graph of
 * quad formats kept, and streamed in batches so a large upload never sits whole in memory.
 */
import { createReadStream } from 'node:fs';
import oxigraph from 'oxigraph';
import { QUAD_FORMATS, RdfSyntaxError, type RdfFormat, type RdfSource } from './graph-store.ts';

/** Errors of reading the source, which are not the document's fault. */
class SourceReadError extends Error {}

async function* chunksOf(data: RdfSource): AsyncGenerator<string | Uint8Array> {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    yield data;
    return;
  }
  try {
    for await (const chunk of createReadStream(data.path, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
  } catch (error) {
    throw new SourceReadError((error as Error).message, { cause: error });
  }
}

/**
 * The document's default-graph triples in batches of about `batchSize`. A syntax error throws
 * `RdfSyntaxError` after the batches before it were yielded: callers write them somewhere they
 * can throw away (a temporary graph, a list).
 */
export async function* parseTriples(data: RdfSource, format: RdfFormat, baseIri: string, batchSize = 10_000): AsyncGenerator<oxigraph.Quad[]> {
  const quads = oxigraph.parse(chunksOf(data), { format, base_iri: baseIri }) as unknown as AsyncIterableIterator<oxigraph.Quad>;
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
