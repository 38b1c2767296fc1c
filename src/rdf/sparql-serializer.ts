/**
 * The one SPARQL serializer: algebra (sparql-algebra.ts) → text, run once per query at the store
 * boundary. sparqljs's generator prints it, with the service's prefixes (only those used are
 * declared); every IRI it prints is validated first (once per IRI, see `checkIri`), literals are
 * escaped and language tags and blank-node labels checked, so an AST from anywhere prints as
 * SPARQL that means what it says. Virtuoso's transitive subquery is printed in its own syntax.
 */
import sparqljs from 'sparqljs';
import type { Expression, Pattern, PropertyPath, SelectQuery, SparqlQuery, Term, ValuesPattern } from 'sparqljs';
import { asTransitive, checkIri, type Path } from './sparql-algebra.ts';
import { BKG, BRICK, OWL, RDF, RDFS, REC, REF, SKOS } from './vocabulary.ts';

/** The prefixes the service's queries are written with. */
export const PREFIXES: Readonly<Record<string, string>> = {
  brick: BRICK,
  rec: REC,
  ref: REF,
  rdf: RDF,
  rdfs: RDFS,
  owl: OWL,
  skos: SKOS,
  bkg: BKG,
};

const LANGUAGE = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;
const BLANK_LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_-])?$/;

/** The parts of sparqljs's generator this module extends (its instance API is untyped). */
interface GeneratorInstance {
  toQuery(query: SparqlQuery): string;
  toEntity(term: Term): string;
  encodeIRI(iri: string): string;
  query(query: SelectQuery): string;
  toPattern(pattern: Pattern): string;
  toExpression(expression: Expression): string;
  values(pattern: ValuesPattern): string;
  indent(text: string): string;
  _usedPrefixes: Record<string, boolean>;
  virtuosoTransitive?(pattern: Pattern): string;
}

const generator = new sparqljs.Generator({
  prefixes: { ...PREFIXES },
} as never).createGenerator() as unknown as GeneratorInstance;
const encodeIRI = generator.encodeIRI.bind(generator);
const toEntity = generator.toEntity.bind(generator);
const writeValues = generator.values.bind(generator);

// IRIs already written (validated, and shortened where a prefix can), with the prefix each uses:
// the same class lists go into most queries (bench/results-*.md). Bounded: cleared when full.
const written = new Map<string, { readonly text: string; readonly prefix: string | undefined }>();
const WRITTEN_MAX = 50_000;
generator.encodeIRI = (iri) => {
  let known = written.get(iri);
  if (!known) {
    checkIri(iri);
    const text = encodeIRI(iri);
    known = { text, prefix: text.startsWith('<') ? undefined : text.slice(0, text.indexOf(':')) };
    if (written.size >= WRITTEN_MAX) written.clear();
    written.set(iri, known);
  }
  if (known.prefix !== undefined) generator._usedPrefixes[known.prefix] = true;
  return known.text;
};
// No indentation: sparqljs indents a group by rewriting its whole text at each level of nesting,
// a pass over a long query per level; a query is written for the store, a line per pattern.
generator.indent = (text) => text;
// VALUES of one variable, the long lists of IRIs, on one line: sparqljs writes a line per row,
// which each enclosing group then indents again (a 1,700-IRI VALUES cost milliseconds).
generator.values = (pattern) => {
  const rows = pattern.values;
  const key = rows.length > 0 ? Object.keys(rows[0]!) : [];
  if (key.length !== 1 || !rows.every((row) => row[key[0]!] !== undefined && Object.keys(row).length === 1))
    return writeValues(pattern);
  let text = `VALUES ${key[0]} {`;
  for (const row of rows) {
    const term = row[key[0]!]!;
    text += ` ${generator.toEntity(term)}`;
  }
  return `${text} }`;
};
const POSTFIX = new Set(['*', '+', '?']);
generator.toEntity = (term) => {
  if (term.termType === 'NamedNode') return generator.encodeIRI(term.value);
  const path = term as unknown as PropertyPath;
  // sparqljs writes `(^p+)`, which reads as `^(p+)`, and `^^p`, which does not parse: an inverse
  // inside a repeat or an inverse goes in parentheses of its own.
  if (path.type === 'path' && (path.items[0] as PropertyPath).pathType === '^') {
    if (POSTFIX.has(path.pathType)) return `((${generator.toEntity(path.items[0] as never)})${path.pathType})`;
    if (path.pathType === '^') return `^(${generator.toEntity(path.items[0] as never)})`;
  }
  if (term.termType === 'Literal' && term.language && !LANGUAGE.test(term.language))
    throw new TypeError(`Invalid language tag ${term.language}`);
  if (term.termType === 'BlankNode' && !BLANK_LABEL.test(term.value))
    throw new TypeError(`Invalid blank node label ${term.value}`);
  return toEntity(term);
};
generator.virtuosoTransitive = (pattern) => {
  const t = asTransitive(pattern)!;
  const inner = generator.query({
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [t.in, t.out],
    where: t.where,
  });
  const options = [
    `t_in(?${t.in.value})`,
    `t_out(?${t.out.value})`,
    ...(t.direction === undefined ? [] : [`t_direction ${t.direction}`]),
    't_distinct',
    `t_min(${t.min})`,
    ...(t.max === undefined ? [] : [`t_max(${t.max})`]),
  ];
  return `{ ${inner} } OPTION (TRANSITIVE, ${options.join(', ')}) .`;
};

/** A query or update as SPARQL text, in the service's prefixes. */
export function serialize(query: SparqlQuery): string {
  generator._usedPrefixes = {};
  return generator.toQuery({ ...query, prefixes: PREFIXES as Record<string, string> });
}

/**
 * A piece of a query (patterns, a path, a term, an expression) as text, its prefixes undeclared:
 * for the scripts that measure competing shapes written around the compiler's pieces.
 */
export function serializeFragment(piece: readonly Pattern[] | Pattern | Path | Expression): string {
  if (Array.isArray(piece)) return (piece as unknown as Pattern[]).map((p) => generator.toPattern(p)).join('\n');
  const node = piece as { type?: string; termType?: string };
  if (node.termType !== undefined || node.type === 'path') return generator.toEntity(piece as Term);
  if (node.type === 'operation' || node.type === 'functionCall' || node.type === 'aggregate')
    return generator.toExpression(piece as Expression);
  return generator.toPattern(piece as Pattern);
}
