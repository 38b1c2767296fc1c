/**
 * One trial of scripts/measure-nesting.ts, in a thread of its own (a trap leaves Oxigraph's
 * instance unusable): parses an RDF document, or runs a query over a one-triple graph, and answers
 * whether Oxigraph trapped.
 */
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import type { RdfFormat } from '../src/store/graph-store.ts';

/** What the measuring thread sends: a document and its format, or a query (format undefined). */
export interface Trial {
  readonly text: string;
  readonly format: RdfFormat | undefined;
}

/** `trapped`: Oxigraph failed as WebAssembly fails (out of bounds, unreachable, stack), not with an error of the input. */
export interface TrialResult {
  readonly trapped: boolean;
  readonly message: string;
}

const { text, format } = workerData as Trial;
let result: TrialResult;
try {
  const store = new oxigraph.Store();
  store.load('<urn:a> <urn:p> <urn:o> .', {
    format: 'text/turtle',
    to_graph_name: oxigraph.namedNode('urn:bkg:site:measure'),
  });
  if (format) oxigraph.parse(text, { format, base_iri: 'urn:bkg:site:measure' });
  else store.query(text, { results_format: 'application/sparql-results+json' });
  result = { trapped: false, message: 'ok' };
} catch (error) {
  const trapped = error instanceof WebAssembly.RuntimeError || error instanceof RangeError;
  result = { trapped, message: `${(error as Error).name}: ${(error as Error).message.slice(0, 60)}` };
}
parentPort!.postMessage(result);
