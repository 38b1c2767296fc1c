import { JsonNestingScanner } from '../rdf/json-nesting-scanner.ts';
import type { NestingScanner } from '../rdf/nesting-scanner.ts';
import { TurtleNestingScanner } from '../rdf/turtle-nesting-scanner.ts';
import type { RdfFormat } from './graph-store.ts';

/**
 * How deep an RDF document may nest: `[ ]`, `( )`, `{ }` and `<< >>` in Turtle and N-Triples/N-Quads,
 * objects and arrays in JSON-LD. Real documents nest a few levels (Brick.ttl with its SHACL shapes
 * and OWL restrictions: 3; the service's fixtures: 1; JSON-LD component files: 11). Oxigraph
 * 0.5's JSON-LD parser traps at 936 nested objects (and takes seconds on a `@json` literal 2,000
 * deep); its Turtle parser reads blank nodes and collections on a stack of its own (no trap at
 * 131,072) but traps at 3,104 nested RDF 1.2 triple terms. 64 is a fourteenth of the nearest
 * (scripts/measure-nesting.ts).
 */
export const RDF_NESTING_LIMIT = 64;

const SYNTAX: Readonly<Record<RdfFormat, string>> = {
  'text/turtle': 'Turtle',
  'application/n-triples': 'N-Triples',
  'application/n-quads': 'N-Quads',
  'application/ld+json': 'JSON-LD',
};

/** A scanner that refuses a `format` document nested deeper than RDF_NESTING_LIMIT, fed its bytes in order. */
export function rdfNestingScanner(format: RdfFormat): NestingScanner {
  const syntax = SYNTAX[format];
  return format === 'application/ld+json'
    ? new JsonNestingScanner(syntax, RDF_NESTING_LIMIT)
    : new TurtleNestingScanner(syntax, RDF_NESTING_LIMIT, false);
}
