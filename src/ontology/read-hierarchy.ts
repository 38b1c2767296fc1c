import { createReadStream } from 'node:fs';
import { StreamParser } from 'n3';
import { HierarchyExtractor, type OntologyHierarchy, type QuadLike } from './hierarchy-extractor.ts';

/** Optional observers of a read: every triple, and a count every `PROGRESS_INTERVAL` triples. */
export interface ReadHierarchyOptions {
  readonly onQuad?: (quad: QuadLike) => void;
  readonly onProgress?: (triplesParsed: number) => void;
}

const PROGRESS_INTERVAL = 10_000;

/** Streams a Turtle file through the hierarchy extractor, so a full Brick.ttl is never held as triples. */
export async function readHierarchy(
  path: string,
  options: ReadHierarchyOptions = {},
): Promise<{ hierarchy: OntologyHierarchy; triples: number }> {
  const { onQuad, onProgress } = options;
  const extractor = new HierarchyExtractor();
  const parser = new StreamParser({ format: 'text/turtle' });
  let triples = 0;
  const input = createReadStream(path);
  // pipe() does not forward read errors (a missing file) to the parser, so fail the parser explicitly.
  input.on('error', (error) => parser.destroy(error));
  for await (const quad of input.pipe(parser)) {
    extractor.add(quad);
    onQuad?.(quad);
    triples += 1;
    if (onProgress && triples % PROGRESS_INTERVAL === 0) onProgress(triples);
  }
  return { hierarchy: extractor.finish(), triples };
}
