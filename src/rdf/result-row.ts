/**
 * A SELECT query's answer as the stores return it and the compiler reads it: declared here, below
 * both, so that reading rows needs no import of the store.
 */

/** An RDF term as SPARQL 1.1 JSON results write it. */
export interface RdfTerm {
  readonly type: 'uri' | 'literal' | 'bnode' | 'typed-literal';
  readonly value: string;
  readonly datatype?: string;
  readonly 'xml:lang'?: string;
}

/** One solution of a SELECT query: variable name → bound term. */
export type SparqlRow = Readonly<Record<string, RdfTerm | undefined>>;
