/** An RDF term as SPARQL 1.1 JSON results write it. */
export interface RdfTerm {
  readonly type: 'uri' | 'literal' | 'bnode' | 'typed-literal';
  readonly value: string;
  readonly datatype?: string;
  readonly 'xml:lang'?: string;
}

/** One solution of a SELECT query: variable name → bound term. */
export type SparqlRow = Readonly<Record<string, RdfTerm | undefined>>;

/** The RDF serializations the stores read (and, for Turtle and N-Triples, write). */
export type RdfFormat = 'text/turtle' | 'application/n-triples' | 'application/n-quads' | 'application/ld+json';

/** What a load did. */
export interface LoadResult {
  /** Triples in the graph after the load. */
  readonly triples: number;
}

/**
 * A triplestore holding one named graph per site and the ontology in its own graph. Every
 * implementation (embedded, SPARQL 1.1 protocol, Comunica) passes the same conformance suite.
 */
export interface GraphStore {
  /** A short name for logs and metrics, e.g. `oxigraph`. */
  readonly name: string;
  /** Runs a SELECT query and returns its solutions. */
  select(query: string): Promise<SparqlRow[]>;
  /** Replaces a graph's content; on a syntax error throws `RdfSyntaxError` and leaves the graph as it was. */
  replaceGraph(graph: string, data: string | Uint8Array, format: RdfFormat): Promise<LoadResult>;
  /** Adds to a graph's content; on a syntax error throws `RdfSyntaxError` and adds nothing. */
  mergeGraph(graph: string, data: string | Uint8Array, format: RdfFormat): Promise<LoadResult>;
  /** Removes a graph. */
  dropGraph(graph: string): Promise<void>;
  /** Serializes a graph. */
  exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string>;
  /** Number of triples in a graph. */
  countTriples(graph: string): Promise<number>;
  /** Answers when the store can serve queries; throws otherwise. */
  ping(): Promise<void>;
  /** Flushes what must persist and releases resources. */
  close(): Promise<void>;
}

/** Data that could not be parsed; the message carries the line and column. */
export class RdfSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RdfSyntaxError';
  }
}
