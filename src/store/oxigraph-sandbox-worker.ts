/**
 * The embedded store's sandbox for client queries (the per-site SPARQL endpoint): an Oxigraph store
 * of its own holding copies of the graphs those queries read. Oxigraph's calls cannot be
 * interrupted, so a query past its deadline is stopped by ending this thread (oxigraph-sandbox.ts);
 * the service's store (oxigraph-worker.ts) never runs a client's query and is never held up by one.
 */
import { parentPort } from 'node:worker_threads';
import oxigraph from 'oxigraph';
import type { QueryForm } from './graph-store.ts';
import { iri, prologue, sparql } from '../rdf/sparql.ts';

/** Messages from the main thread. */
export type SandboxRequest = { id: number } & (
  | { op: 'load'; graph: string; ntriples: string }
  | { op: 'drop'; graph: string }
  | { op: 'query'; text: string; form: QueryForm }
);

/** The answer to one message: a query's serialized result, or nothing. */
export type SandboxResponse = { id: number; ok: true; result: string | boolean | null } | { id: number; ok: false; message: string };

const store = new oxigraph.Store();

function handle(request: SandboxRequest): string | boolean | null {
  switch (request.op) {
    case 'load':
      store.update(sparql`${prologue}\nDROP SILENT GRAPH ${iri(request.graph)}`.text);
      store.load(request.ntriples, { format: 'application/n-triples', to_graph_name: oxigraph.namedNode(request.graph) });
      return null;
    case 'drop':
      store.update(sparql`${prologue}\nDROP SILENT GRAPH ${iri(request.graph)}`.text);
      return null;
    case 'query':
      // Serialized, not terms: terms would live in the WASM heap until collected (INFRA.md).
      if (request.form === 'ASK') return store.query(request.text) as boolean;
      return store.query(request.text, {
        results_format: request.form === 'SELECT' ? 'application/sparql-results+json' : 'application/n-triples',
      }) as string;
  }
}

parentPort!.on('message', (request: SandboxRequest) => {
  let response: SandboxResponse;
  try {
    response = { id: request.id, ok: true, result: handle(request) };
  } catch (error) {
    response = { id: request.id, ok: false, message: (error as Error).message };
  }
  parentPort!.postMessage(response);
});
