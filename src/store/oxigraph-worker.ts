/**
 * One copy of the embedded Oxigraph store, run in a worker thread: Oxigraph's calls are
 * synchronous, and a long query or load here must not stall the HTTP event loop. Each site graph
 * persists in the data directory as the documents loaded into it (graph-journal.ts); of the
 * store's workers one writes the journal, every one reads it back. Messages are answered in order,
 * but for a restore, which reads the journal back a chunk at a time and answers the requests that
 * came meanwhile between two chunks, telling its progress as it goes (RestoreEvent).
 */
import { parentPort, workerData } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileChunks } from './file-chunks.ts';
import type {
  LoadEvent,
  OxigraphRequest,
  OxigraphResponse,
  OxigraphWorkerData,
  RestoreEvent,
} from './oxigraph-protocol.ts';
import { QUAD_FORMATS, type RdfFormat, type RdfSource } from './graph-store.ts';
import { GraphJournal, PATCH_FORMAT } from './graph-journal.ts';
import { loadSegment, segmentSteps, SegmentUnreadable } from './segment-loading.ts';
import { ntriple } from './rdf-input.ts';
import { applyPatch } from './apply-patch.ts';
import { writeRdfPatch } from '../rdf/rdf-patch.ts';
import { isWasmTrap } from './wasm-trap.ts';
import {
  aggregate,
  dropGraph as drop,
  graph as graphPattern,
  namedNode,
  select,
  triple,
  update,
  variable,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { serialize } from '../rdf/sparql-serializer.ts';

const dropGraph = (graph: string) => serialize(update(drop(namedNode(graph))));
const [S, P, O, N] = ['s', 'p', 'o', 'n'].map((name) => variable(name)) as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
];
/** `SELECT (COUNT(?s) AS ?n) WHERE { GRAPH <graph> { ?s ?p ?o } }`. */
const countQuery = (graph: string) =>
  serialize(
    select({ variables: [[aggregate('count', S), N]], where: [graphPattern(namedNode(graph), triple(S, P, O))] }),
  );

const { persistDir, writer } = workerData as OxigraphWorkerData;
const store = new oxigraph.Store();
const journal = new GraphJournal(persistDir);

/** A document as Oxigraph reads it: text or bytes as they are, a file in chunks, telling how far the parser has read it (LoadEvent). */
const inputOf = (data: RdfSource, graph: string, format: RdfFormat) =>
  typeof data === 'string' || data instanceof Uint8Array
    ? data
    : reporting(fileChunks(data.path), graph, format === 'application/n-triples' || format === 'application/n-quads');

/**
 * The chunks of a document being loaded, a LoadEvent posted as the parser takes each: Oxigraph
 * reads a document as it parses it. In a line format the lines so far are its triples.
 */
function* reporting(chunks: Iterable<Uint8Array>, graph: string, lines: boolean): Generator<Uint8Array> {
  let bytes = 0;
  let triples = 0;
  for (const chunk of chunks) {
    yield chunk;
    bytes += chunk.length;
    if (lines) for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) triples++;
    parentPort!.postMessage({ event: 'load', graph, bytes, ...(lines ? { triples } : {}) } satisfies LoadEvent);
  }
}

/** Adds a document to a graph in one transaction (on a syntax error nothing of it is added). */
function loadInto(graph: string, data: RdfSource, format: RdfFormat): void {
  store.load(inputOf(data, graph, format), { format, to_graph_name: oxigraph.namedNode(graph), base_iri: graph });
}

/**
 * Reads the persisted graphs back in the order given, one chunk per turn of the event loop, so the
 * requests that come meanwhile (queries of graphs already back, writes of others) are answered
 * between two chunks. A graph whose segment cannot be read is dropped again and reported; the
 * others go on.
 */
async function restore(graphs: readonly string[]): Promise<void> {
  for (const graph of graphs) {
    const event = (e: Omit<RestoreEvent, 'event' | 'graph'>) =>
      parentPort!.postMessage({ event: 'restore', graph, ...e } satisfies RestoreEvent);
    let before = 0;
    try {
      for (const segment of journal.segments(graph)) {
        let triples = 0;
        for (const loaded of segmentSteps(store, graph, segment)) {
          triples = loaded;
          event({ triples: before + Math.max(0, loaded) });
          await nextTurn();
        }
        before += Math.max(0, triples);
      }
      event({ triples: segmentTriplesOrCount(graph, before), done: true });
    } catch (error) {
      if (isWasmTrap(error)) throw error;
      store.update(dropGraph(graph));
      const failure =
        error instanceof SegmentUnreadable
          ? { file: error.file, message: error.message }
          : { file: '', message: (error as Error).message };
      event({ triples: 0, done: true, failure });
    }
  }
}

/** The triples a restore counted, or the graph's count when a segment read whole could not count its own. */
const segmentTriplesOrCount = (graph: string, counted: number) =>
  journal.segments(graph).every((s) => s.triples !== undefined) ? counted : count(graph);

/** Puts a graph back as its persisted segments say (after a failed replace). */
function restoreGraph(graph: string): void {
  counts.delete(graph);
  store.update(dropGraph(graph));
  for (const segment of journal.segments(graph)) loadSegment(store, graph, segment);
}

/** Records a load in the journal: the document as received, or the default graph of a quad format as N-Triples of the service's own. */
function persistLoad(
  request: Extract<OxigraphRequest, { op: 'load' }>,
  quads: readonly oxigraph.Quad[] | undefined,
): void {
  if (!request.persistent) return;
  const [source, format, triples] = quads
    ? [quads.map(ntriple).join(''), 'application/n-triples' as const, quads.length]
    : [request.data, request.format, undefined];
  if (request.replace) journal.replace(request.graph, source, format, triples);
  else journal.append(request.graph, source, format, triples);
}

/** The triples of each graph, as last counted or kept up by a patch: counting a large graph takes a second, a patch a millisecond. */
const counts = new Map<string, number>();

function count(graph: string): number {
  const known = counts.get(graph);
  if (known !== undefined) return known;
  const result = JSON.parse(
    store.query(countQuery(graph), {
      results_format: 'application/sparql-results+json',
    }) as string,
  );
  const n = Number(result.results.bindings[0].n.value);
  counts.set(graph, n);
  return n;
}

function handle(request: OxigraphRequest): unknown {
  switch (request.op) {
    case 'open':
      return journal.open(writer).map(({ graph, bytes, triples, segments }) => ({
        graph,
        bytes,
        triples,
        readWhole: segments.some((s) => s.triples === undefined),
      }));
    case 'restore':
      throw new Error('a restore is answered when it ends');
    case 'select':
      // Serialized results: raw terms would live in the WASM heap until collected (measured: dropping those of
      // a 3,500-row query 60 times slowed it from 54 ms to 321 ms a run, and RSS grew).
      return store.query(request.query, { results_format: request.format });
    case 'load': {
      counts.delete(request.graph);
      const node = oxigraph.namedNode(request.graph);
      let defaultGraphQuads: oxigraph.Quad[] | undefined;
      try {
        // Quad formats may name graphs: parse first, keep only the default graph's triples.
        if (QUAD_FORMATS.has(request.format)) {
          defaultGraphQuads = [
            ...oxigraph.parse(inputOf(request.data, request.graph, request.format) as Iterable<Uint8Array>, {
              format: request.format,
              base_iri: request.graph,
            }),
          ]
            .filter((q) => q.graph.termType === 'DefaultGraph')
            .map((q) => oxigraph.quad(q.subject, q.predicate, q.object, node));
        }
        if (request.replace) store.update(dropGraph(request.graph));
        if (defaultGraphQuads) for (const q of defaultGraphQuads) store.add(q);
        else loadInto(request.graph, request.data, request.format);
      } catch (error) {
        if (isWasmTrap(error)) throw error;
        if (request.replace) restoreGraph(request.graph);
        throw Object.assign(new Error((error as Error).message), { syntax: true });
      }
      const triples = count(request.graph);
      if (request.maxTriples !== undefined && triples > request.maxTriples) {
        // Nothing of the load stays: the graph is put back as the journal has it.
        restoreGraph(request.graph);
        throw Object.assign(new Error('quota'), { quota: { limit: request.maxTriples, triples } });
      }
      persistLoad(request, defaultGraphQuads);
      return { triples };
    }
    case 'patch':
      return patch(request);
    case 'drop':
      counts.delete(request.graph);
      store.update(dropGraph(request.graph));
      if (request.persistent) journal.drop(request.graph);
      return null;
    case 'dump':
      return store.dump({ format: request.format, from_graph_name: oxigraph.namedNode(request.graph) });
    case 'count':
      return count(request.graph);
  }
}

/** Applies a patch; past the quota, or on a patch the store cannot apply, the graph is put back as the journal has it. */
function patch(request: Extract<OxigraphRequest, { op: 'patch' }>): unknown {
  const { graph } = request;
  const before = request.clear ? 0 : count(graph);
  let applied: ReturnType<typeof applyPatch>;
  try {
    applied = applyPatch(store, graph, request.patch, request.clear);
  } catch (error) {
    if (isWasmTrap(error)) throw error;
    restoreGraph(graph);
    throw Object.assign(new Error((error as Error).message), { syntax: true });
  }
  counts.delete(graph);
  const triples =
    applied.removedByPattern || request.clear
      ? count(graph)
      : before - applied.patch.remove.length + applied.patch.add.length;
  counts.set(graph, triples);
  if (request.maxTriples !== undefined && triples > request.maxTriples) {
    restoreGraph(graph);
    throw Object.assign(new Error('quota'), { quota: { limit: request.maxTriples, triples } });
  }
  if (request.persistent) {
    // A clear starts the graph anew with what the patch adds; any other patch is kept as it was
    // made (exportStream composes them as such), replayed in turn.
    if (request.clear)
      journal.replace(graph, request.patch.add.map((t) => `${t} .\n`).join(''), 'application/n-triples');
    else if (applied.patch.remove.length + applied.patch.add.length > 0)
      journal.append(graph, writeRdfPatch(applied.patch), PATCH_FORMAT);
  }
  return { triples, patch: applied.patch };
}

function failed(id: number, error: unknown): OxigraphResponse {
  const e = error as Error & { syntax?: boolean; quota?: { limit: number; triples: number } };
  return { id, ok: false, message: e.message, syntax: e.syntax === true, fatal: isWasmTrap(error), quota: e.quota };
}

parentPort!.on('message', (request: OxigraphRequest) => {
  if (request.op === 'restore') {
    restore(request.graphs).then(
      () => parentPort!.postMessage({ id: request.id, ok: true, result: null } satisfies OxigraphResponse),
      (error: unknown) => parentPort!.postMessage(failed(request.id, error)),
    );
    return;
  }
  let response: OxigraphResponse;
  try {
    response = { id: request.id, ok: true, result: handle(request) };
  } catch (error) {
    response = failed(request.id, error);
  }
  parentPort!.postMessage(response);
});
