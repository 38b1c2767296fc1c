/**
 * The embedded Oxigraph store, run in a worker thread: Oxigraph's calls are synchronous, and a
 * long query or load here must not stall the HTTP event loop. Messages are answered in order.
 * Each site graph is persisted as an N-Quads file in the data directory after every change.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import type { OxigraphRequest, OxigraphResponse } from './oxigraph-protocol.ts';
import { QUAD_FORMATS } from './graph-store.ts';
import { iri, prologue, sparql } from '../rdf/sparql.ts';

const dropGraph = (graph: string) => sparql`${prologue}\nDROP SILENT GRAPH ${iri(graph)}`.text;

const { persistDir } = workerData as { persistDir: string | undefined };
const store = new oxigraph.Store();

// The file name carries the graph's IRI: a dump of one graph holds only its triples.
const FILE_SUFFIX = '.graph.nt';
const fileOf = (graph: string) => join(persistDir!, `${encodeURIComponent(graph)}${FILE_SUFFIX}`);

function restorePersisted(): number {
  if (!persistDir) return 0;
  mkdirSync(persistDir, { recursive: true });
  let graphs = 0;
  for (const name of readdirSync(persistDir)) {
    if (!name.endsWith(FILE_SUFFIX)) continue;
    const graph = oxigraph.namedNode(decodeURIComponent(name.slice(0, -FILE_SUFFIX.length)));
    store.load(readFileSync(join(persistDir, name)), { format: 'application/n-triples', to_graph_name: graph });
    graphs++;
  }
  return graphs;
}

function persist(graph: string, persistent: boolean): void {
  if (!persistDir || !persistent) return;
  const file = fileOf(graph);
  const node = oxigraph.namedNode(graph);
  // ASK, not match(): match() would copy every quad of the graph out of the WASM heap.
  if (!store.query(sparql`${prologue}\nASK { GRAPH ${iri(graph)} { ?s ?p ?o } }`.text)) {
    rmSync(file, { force: true });
    return;
  }
  // Write then rename, so a crash mid-write never leaves a truncated graph behind.
  writeFileSync(`${file}.tmp`, store.dump({ format: 'application/n-triples', from_graph_name: node }));
  renameSync(`${file}.tmp`, file);
}

function restoreGraph(graph: string): void {
  const node = oxigraph.namedNode(graph);
  store.update(dropGraph(graph));
  if (!persistDir) return;
  try {
    store.load(readFileSync(fileOf(graph)), { format: 'application/n-triples', to_graph_name: node });
  } catch {
    // No persisted copy: the graph was empty before.
  }
}

/** A file as 1 MiB chunks, read as the parser asks for them. */
function* chunksOf(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      // A fresh buffer per chunk: the parser may still hold the previous one.
      const buffer = Buffer.allocUnsafe(1 << 20);
      const read = readSync(fd, buffer);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

function count(graph: string): number {
  const result = JSON.parse(
    store.query(sparql`${prologue}\nSELECT (COUNT(*) AS ?n) WHERE { GRAPH ${iri(graph)} { ?s ?p ?o } }`.text, {
      results_format: 'application/sparql-results+json',
    }) as string,
  );
  return Number(result.results.bindings[0].n.value);
}

function handle(request: OxigraphRequest): unknown {
  switch (request.op) {
    case 'open':
      return { graphs: restorePersisted() };
    case 'select':
      // Serialized results: raw terms would live in the WASM heap until collected (INFRA.md).
      return store.query(request.query, { results_format: 'application/sparql-results+json' });
    case 'load': {
      const node = oxigraph.namedNode(request.graph);
      const input = typeof request.data === 'string' || request.data instanceof Uint8Array ? request.data : chunksOf(request.data.path);
      let defaultGraphQuads: oxigraph.Quad[] | undefined;
      try {
        // Quad formats may name graphs: parse first, keep only the default graph's triples.
        if (QUAD_FORMATS.has(request.format)) {
          defaultGraphQuads = [...oxigraph.parse(input as Iterable<Uint8Array>, { format: request.format, base_iri: request.graph })]
            .filter((q) => q.graph.termType === 'DefaultGraph')
            .map((q) => oxigraph.quad(q.subject, q.predicate, q.object, node));
        }
        if (request.replace) store.update(dropGraph(request.graph));
        if (defaultGraphQuads) for (const q of defaultGraphQuads) store.add(q);
        // load() is one transaction: on a syntax error nothing of this call is added.
        else store.load(input, { format: request.format, to_graph_name: node, base_iri: request.graph });
      } catch (error) {
        if (request.replace) restoreGraph(request.graph);
        throw Object.assign(new Error((error as Error).message), { syntax: true });
      }
      persist(request.graph, request.persistent);
      return { triples: count(request.graph) };
    }
    case 'drop':
      store.update(dropGraph(request.graph));
      persist(request.graph, true);
      return null;
    case 'dump':
      return store.dump({ format: request.format, from_graph_name: oxigraph.namedNode(request.graph) });
    case 'count':
      return count(request.graph);
  }
}

parentPort!.on('message', (request: OxigraphRequest) => {
  let response: OxigraphResponse;
  try {
    response = { id: request.id, ok: true, result: handle(request) };
  } catch (error) {
    const e = error as Error & { syntax?: boolean };
    response = { id: request.id, ok: false, message: e.message, syntax: e.syntax === true };
  }
  parentPort!.postMessage(response);
});
