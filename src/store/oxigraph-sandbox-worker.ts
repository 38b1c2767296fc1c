/**
 * A thread of the embedded store's sandbox for client queries (the per-site SPARQL endpoint): an
 * Oxigraph store of its own holding copies of the graphs those queries read. A persisted graph is
 * copied straight from the journal's files (graph-journal.ts, only read here), so a copy takes
 * nothing of the store's threads and never passes through the main thread as text; a graph the
 * journal does not hold (the ontology) comes as N-Triples. Oxigraph's calls cannot be interrupted,
 * so a query past its deadline is stopped by ending this thread (oxigraph-sandbox.ts); the
 * service's store (oxigraph-worker.ts) never runs a client's query and is never held up by one.
 * Answers as the store's worker does (OxigraphResponse), to an OxigraphLane.
 */
import { closeSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { GraphJournal } from './graph-journal.ts';
import { loadSegment } from './segment-loading.ts';
import type { QueryForm } from './graph-store.ts';
import type { OxigraphResponse } from './oxigraph-protocol.ts';
import { isWasmTrap } from './wasm-trap.ts';
import { dropGraph as drop, namedNode, update } from '../rdf/sparql-algebra.ts';
import { serialize } from '../rdf/sparql-serializer.ts';

/** Messages from the main thread (the lane adds each one's id). */
export type SandboxRequest =
  /** Makes the copy of a persisted graph current from the journal; answers whether it copied (false: it was). */
  | { op: 'copy'; graph: string }
  /** Replaces the copy of a graph with this text (a graph the journal does not hold). */
  | { op: 'load'; graph: string; ntriples: string }
  | { op: 'drop'; graph: string }
  /** Answers the query serialized: SPARQL JSON results (SELECT), a boolean (ASK), N-Triples (CONSTRUCT, DESCRIBE). */
  | { op: 'query'; text: string; form: QueryForm };

/** What each sandbox thread is started with. */
export interface SandboxWorkerData {
  /** The journal's directory (graph-journal.ts), read only. */
  readonly persistDir: string;
}

const store = new oxigraph.Store();
const journal = new GraphJournal((workerData as SandboxWorkerData).persistDir);
/** Persisted graphs held → the segment files they were copied from: a replace or a merge names new ones. */
const copied = new Map<string, string>();

const dropGraph = (graph: string) => store.update(serialize(update(drop(namedNode(graph)))));

/** Makes the copy of a persisted graph what the journal holds now; true when it had to copy. */
function copy(graph: string): boolean {
  // Opened first: once open, a file stays readable if the journal's writer removes it.
  const segments = journal.openSegments(graph);
  try {
    const files = segments.map((s) => s.file).join('\n');
    if (copied.get(graph) === files) return false;
    copied.delete(graph);
    dropGraph(graph);
    for (const segment of segments) loadSegment(store, graph, segment, segment.fd);
    copied.set(graph, files);
    return true;
  } finally {
    for (const { fd } of segments) closeSync(fd);
  }
}

function handle(request: SandboxRequest): unknown {
  switch (request.op) {
    case 'copy':
      return copy(request.graph);
    case 'load':
      dropGraph(request.graph);
      store.load(request.ntriples, {
        format: 'application/n-triples',
        to_graph_name: oxigraph.namedNode(request.graph),
      });
      return null;
    case 'drop':
      copied.delete(request.graph);
      dropGraph(request.graph);
      return null;
    case 'query':
      // Serialized, not terms: terms would live in the WASM heap until collected (measured: repeated
      // queries slowed sixfold and RSS grew).
      if (request.form === 'ASK') return store.query(request.text) as boolean;
      return store.query(request.text, {
        results_format: request.form === 'SELECT' ? 'application/sparql-results+json' : 'application/n-triples',
      }) as string;
  }
}

parentPort!.on('message', (request: SandboxRequest & { id: number }) => {
  let response: OxigraphResponse;
  try {
    response = { id: request.id, ok: true, result: handle(request) };
  } catch (error) {
    response = {
      id: request.id,
      ok: false,
      message: (error as Error).message,
      syntax: false,
      fatal: isWasmTrap(error),
    };
  }
  parentPort!.postMessage(response);
});
