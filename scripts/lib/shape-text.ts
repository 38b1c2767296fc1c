/**
 * Competing query shapes, written as text for the measurement scripts only (the service itself
 * builds algebra, src/rdf/sparql-algebra.ts, printed by the one serializer): a template whose
 * pieces are text these scripts wrote, IRIs (validated), or the compiler's algebra pieces
 * (patterns, paths), printed by the serializer.
 */
import sparqljs from 'sparqljs';
import { namedNode, type Expression, type Path, type Pattern } from '../../src/rdf/sparql-algebra.ts';
import { PREFIXES, serializeFragment } from '../../src/rdf/sparql-serializer.ts';

/** A shape's text. */
export class Sparql {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Algebra = Pattern | Path | Expression;
/** What a shape is written with. */
export type Piece = Sparql | Algebra | readonly Piece[];

const isAlgebraList = (piece: readonly Piece[]) =>
  piece.length > 0 && !(piece[0] instanceof Sparql) && !Array.isArray(piece[0]) && 'type' in (piece[0] as object);

function pieceText(piece: Piece): string {
  if (piece instanceof Sparql) return piece.text;
  if (Array.isArray(piece))
    return isAlgebraList(piece)
      ? serializeFragment(piece as unknown as Pattern[])
      : (piece as readonly Piece[]).map(pieceText).join(' ');
  if (typeof piece !== 'object' || piece === null) throw new TypeError(`Not a piece of SPARQL: ${typeof piece}`);
  return serializeFragment(piece as Algebra);
}

/** Tagged template: `sparql\`?s ${iri(x)} ?o\``. Arrays are joined with spaces. */
export function sparql(strings: TemplateStringsArray, ...pieces: Piece[]): Sparql {
  let text = strings[0] ?? '';
  pieces.forEach((piece, i) => {
    text += pieceText(piece) + (strings[i + 1] ?? '');
  });
  return new Sparql(text);
}

/** Joins pieces with a separator. */
export const join = (pieces: readonly Piece[], separator: string): Sparql =>
  new Sparql(pieces.map(pieceText).join(separator));

/** Text these scripts wrote. */
export const trusted = (text: string): Sparql => new Sparql(text);

/** An IRI (validated), in the service's prefixes where it can be. */
export const iri = (value: string): Sparql => new Sparql(serializeFragment(namedNode(value)));

/** The PREFIX lines of the service's prefixes. */
export const prologue = new Sparql(
  Object.entries(PREFIXES)
    .map(([prefix, ns]) => `PREFIX ${prefix}: <${ns}>`)
    .join('\n'),
);

const parser = new sparqljs.Parser({ prefixes: { ...PREFIXES } });

/** A shape's patterns as algebra, to run it through the store as the service runs its queries. */
export function shapePatterns(shape: Sparql): Pattern[] {
  const parsed = parser.parse(`SELECT * WHERE { ${shape.text} }`);
  return parsed.type === 'query' ? (parsed.where ?? []) : [];
}
