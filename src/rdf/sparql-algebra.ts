/**
 * SPARQL as typed values: the sparqljs AST with RDF/JS terms, built here and printed once by
 * `serialize` (sparql-serializer.ts) at the store boundary. A user value enters a query only as a
 * term made here: `namedNode()` validates an IRI, `literal()` is escaped when printed, and a
 * variable's name is checked, so no string ever reaches the query text unescaped.
 */
import type * as RdfJs from '@rdfjs/types';
import type {
  AggregateExpression,
  BgpPattern,
  BindPattern,
  Expression,
  FilterPattern,
  GraphPattern,
  GroupPattern,
  IriTerm,
  LiteralTerm,
  MinusPattern,
  OperationExpression,
  OptionalPattern,
  Ordering,
  Pattern,
  PropertyPath,
  SelectQuery,
  Term,
  Triple,
  UnionPattern,
  Update,
  UpdateOperation,
  ValuePatternRow,
  ValuesPattern,
  VariableTerm,
  Wildcard,
} from 'sparqljs';
import { isAbsoluteIri } from './iri.ts';

export type {
  Expression,
  IriTerm,
  LiteralTerm,
  Pattern,
  PropertyPath,
  SelectQuery,
  Triple,
  Update,
  UpdateOperation,
  VariableTerm,
};

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** RDF/JS equality, for terms made here. */
function equals(this: RdfJs.Term, other: RdfJs.Term | null | undefined): boolean {
  if (!other || other.termType !== this.termType || other.value !== this.value) return false;
  if (this.termType !== 'Literal') return true;
  const [a, b] = [this as RdfJs.Literal, other as RdfJs.Literal];
  return a.language === b.language && a.datatype.value === b.datatype.value;
}

// IRIs already checked: the same class lists go into most queries, and validating each IRI again
// cost a third of a millisecond per query (bench/results-*.md). Bounded: cleared when full.
const checked = new Map<string, IriTerm>();
const CHECKED_MAX = 50_000;

/** Throws unless `value` is an absolute IRI a SPARQL parser accepts (remembered once valid). */
export function checkIri(value: string): void {
  if (!checked.has(value)) namedNode(value);
}

/** An IRI term; throws a TypeError on a string that is not a valid absolute IRI. */
export function namedNode(value: string): IriTerm {
  const known = checked.get(value);
  if (known) return known;
  if (!isAbsoluteIri(value)) throw new TypeError(`Not a valid absolute IRI: ${JSON.stringify(value).slice(0, 200)}`);
  if (checked.size >= CHECKED_MAX) checked.clear();
  const term = { termType: 'NamedNode', value, equals } as IriTerm;
  checked.set(value, term);
  return term;
}

const XSD_STRING = namedNode(`${XSD}string`);
const XSD_INTEGER = namedNode(`${XSD}integer`);
const XSD_BOOLEAN = namedNode(`${XSD}boolean`);
const LANG_STRING = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#langString');

/** A string literal (with a language tag, checked, if given); the serializer escapes it. */
export function literal(value: string, lang?: string): LiteralTerm {
  if (lang !== undefined && !/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(lang))
    throw new TypeError(`Invalid language tag ${lang}`);
  return {
    termType: 'Literal',
    value,
    language: lang ?? '',
    datatype: lang === undefined ? XSD_STRING : LANG_STRING,
    equals,
  } as LiteralTerm;
}

/** An integer literal. */
export function integer(value: number): LiteralTerm {
  if (!Number.isSafeInteger(value)) throw new TypeError(`Not an integer: ${value}`);
  return { termType: 'Literal', value: String(value), language: '', datatype: XSD_INTEGER, equals } as LiteralTerm;
}

/** A boolean literal. */
export function boolean(value: boolean): LiteralTerm {
  return { termType: 'Literal', value: String(value), language: '', datatype: XSD_BOOLEAN, equals } as LiteralTerm;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A variable: `name`, or with `parts` the name qualified by them (`variable('c0', 'k')` is `?c0_k`,
 * `variable(name, 1)` is `?name_1`), so names the compiler numbers or scopes are made in one way.
 */
export function variable(name: string | VariableTerm, ...parts: ReadonlyArray<string | number>): VariableTerm {
  const value = [typeof name === 'string' ? name : name.value, ...parts].join('_');
  if (!VARIABLE_NAME.test(value)) throw new TypeError(`Invalid variable name ${value}`);
  return { termType: 'Variable', value, equals } as VariableTerm;
}

/** What a triple's predicate can be. */
export type Predicate = Triple['predicate'];
/** A property path, or the one IRI it steps over. */
export type Path = IriTerm | PropertyPath;
/** What may stand in a pattern: one pattern, a list, or nothing (left out). */
export type Patterns = Pattern | readonly Patterns[] | undefined;

/** The patterns in order, lists flattened and nothing left out. */
export function patterns(...items: Patterns[]): Pattern[] {
  const out: Pattern[] = [];
  const add = (item: Patterns) => {
    if (item === undefined) return;
    if (Array.isArray(item)) (item as readonly Patterns[]).forEach(add);
    else out.push(item as Pattern);
  };
  items.forEach(add);
  return out;
}

/** One triple pattern. */
export function triple(subject: Triple['subject'], predicate: Predicate, object: Term): BgpPattern {
  return { type: 'bgp', triples: [{ subject, predicate, object }] };
}

export const group = (...items: Patterns[]): GroupPattern => ({ type: 'group', patterns: patterns(...items) });
export const optional = (...items: Patterns[]): OptionalPattern => ({ type: 'optional', patterns: patterns(...items) });
export const minus = (...items: Patterns[]): MinusPattern => ({ type: 'minus', patterns: patterns(...items) });
export const graph = (name: IriTerm | VariableTerm, ...items: Patterns[]): GraphPattern => ({
  type: 'graph',
  name,
  patterns: patterns(...items),
});
export const filter = (expression: Expression): FilterPattern => ({ type: 'filter', expression });
export const bind = (expression: Expression, as: VariableTerm): BindPattern => ({
  type: 'bind',
  expression,
  variable: as,
});

/** `{ a } UNION { b } …`, each branch a group. */
export function union(branches: readonly Patterns[]): UnionPattern {
  return { type: 'union', patterns: branches.map((branch) => group(branch)) };
}

/** `VALUES ?v { … }`: one variable bound to each term. */
export function values(v: VariableTerm, terms: readonly (IriTerm | LiteralTerm)[]): ValuesPattern {
  const key = `?${v.value}`;
  // Rows by assignment: an object literal with a computed key cost ten times as much (1,700 IRIs: 0.3 ms).
  const rows = terms.map((term) => {
    const row: ValuePatternRow = {};
    row[key] = term;
    return row;
  });
  return { type: 'values', values: rows };
}

/** `VALUES (?a ?b …) { (…) … }`: each row binds every variable it names (the keys, without `?`). */
export function valuesRows(rows: ReadonlyArray<Readonly<Record<string, Term>>>): ValuesPattern {
  return {
    type: 'values',
    values: rows.map((row) => {
      const bound: ValuePatternRow = {};
      for (const name of Object.keys(row)) bound[`?${name}`] = row[name] as ValuePatternRow[string];
      return bound;
    }),
  };
}

/** `(a|b|…)`; a single alternative is itself. */
export function alternative(items: readonly Path[]): Path {
  return items.length === 1 ? items[0]! : path('|', items);
}
/** `a/b/…`. */
export const sequence = (items: readonly Path[]): Path => (items.length === 1 ? items[0]! : path('/', items));
/** `^p`. */
export const inverse = (p: Path): Path => path('^', [p]);
/** `p*`. */
export const zeroOrMore = (p: Path): Path => path('*', [p]);
/** `p+`. */
export const oneOrMore = (p: Path): Path => path('+', [p]);
/** `p?`. */
export const zeroOrOne = (p: Path): Path => path('?', [p]);

const path = (pathType: '|' | '/' | '^' | '*' | '+' | '?', items: readonly Path[]): PropertyPath => ({
  type: 'path',
  pathType,
  items: [...items],
});

/** The operators and functions the service's queries use (sparqljs names them in lower case). */
export type Operator =
  | '='
  | '!='
  | '&&'
  | '||'
  | '!'
  | 'strends'
  | 'contains'
  | 'lcase'
  | 'str'
  | 'replace'
  | 'isliteral'
  | 'isblank'
  | 'isiri'
  | '>'
  | 'datatype'
  | 'lang'
  | 'bound'
  | 'if'
  | 'coalesce';

/** An operation or built-in function call. */
export function op(operator: Operator, ...args: Expression[]): OperationExpression {
  return { type: 'operation', operator, args };
}

/** `a && b && …` (`a || b || …`); one operand is itself. */
export function and(operands: readonly Expression[]): Expression {
  return operands.reduce((all, next) => op('&&', all, next));
}
export function or(operands: readonly Expression[]): Expression {
  return operands.reduce((all, next) => op('||', all, next));
}

/** `e IN (…)`. */
export const isIn = (e: Expression, list: readonly Expression[]): OperationExpression => ({
  type: 'operation',
  operator: 'in',
  args: [e, [...list]],
});
/** `e NOT IN (…)`. */
export const notIn = (e: Expression, list: readonly Expression[]): OperationExpression => ({
  type: 'operation',
  operator: 'notin',
  args: [e, [...list]],
});
/** `EXISTS { … }`. */
export const exists = (...items: Patterns[]): OperationExpression => ({
  type: 'operation',
  operator: 'exists',
  args: [group(...items)],
});

/** An aggregate: `COUNT([DISTINCT] e)`, `GROUP_CONCAT(e; SEPARATOR = "…")`. */
export function aggregate(
  aggregation: 'count' | 'group_concat',
  expression: Expression,
  { distinct = false, separator }: { distinct?: boolean; separator?: string } = {},
): AggregateExpression {
  return { type: 'aggregate', aggregation, expression, distinct, ...(separator === undefined ? {} : { separator }) };
}

/** What a SELECT is made of; a projected expression is `[expression, as]`, and `*` every variable. */
export interface SelectParts {
  readonly variables: '*' | ReadonlyArray<VariableTerm | readonly [Expression, VariableTerm]>;
  readonly where: readonly Patterns[];
  readonly distinct?: boolean;
  readonly limit?: number;
  readonly offset?: number;
  readonly order?: readonly Ordering[];
  readonly group?: readonly VariableTerm[];
  readonly having?: readonly Expression[];
}

const WILDCARD = { termType: 'Wildcard', value: '*', equals } as unknown as Wildcard;

/** A SELECT query (or, inside a pattern, a subquery). */
export function select({
  variables,
  where,
  distinct,
  limit,
  offset,
  order,
  group: by,
  having,
}: SelectParts): SelectQuery {
  const query: SelectQuery = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables:
      variables === '*'
        ? [WILDCARD]
        : variables.map((v) => ('termType' in v ? v : { expression: v[0], variable: v[1] })),
    where: patterns(...where),
  };
  if (distinct) query.distinct = true;
  if (limit !== undefined) query.limit = Number(integer(limit).value);
  if (offset !== undefined) query.offset = Number(integer(offset).value);
  if (order) query.order = [...order];
  if (by) query.group = by.map((expression) => ({ expression }));
  if (having) query.having = [...having];
  return query;
}

/**
 * Virtuoso's transitive subquery, `{ SELECT ?in ?out WHERE { … } } OPTION (TRANSITIVE, t_in(?in),
 * t_out(?out), t_distinct, t_min(min)[, t_max(max)])`: a pattern the serializer prints in that
 * syntax (only the Virtuoso dialect makes one).
 */
export interface TransitivePattern {
  readonly type: 'virtuosoTransitive';
  readonly in: VariableTerm;
  readonly out: VariableTerm;
  readonly where: Pattern[];
  readonly min: 0 | 1;
  readonly max?: 1;
  /** Which way the store runs it: 1 from `in` to `out`, 2 back from `out`; unset, its planner chooses. */
  readonly direction?: 1 | 2;
}

/** A Virtuoso transitive subquery from `from` to `to` over `where`, as a pattern. */
export function transitive(from: VariableTerm, to: VariableTerm, where: Pattern[], min: 0 | 1, max?: 1): Pattern {
  const node: TransitivePattern = {
    type: 'virtuosoTransitive',
    in: from,
    out: to,
    where,
    min,
    ...(max === undefined ? {} : { max }),
  };
  return node as unknown as Pattern;
}

/** The transitive node with its direction set (or left to the store) and its inner patterns replaced. */
export function pinDirection(p: Pattern, direction: 1 | 2 | undefined, where: Pattern[]): Pattern {
  const { direction: _unset, ...node } = asTransitive(p)!;
  return { ...node, where, ...(direction === undefined ? {} : { direction }) } as unknown as Pattern;
}

/** The transitive node a pattern is, if it is one. */
export function asTransitive(p: Pattern): TransitivePattern | undefined {
  return (p as { type: string }).type === 'virtuosoTransitive' ? (p as unknown as TransitivePattern) : undefined;
}

/** An update: its operations run in order, as one request. */
export function update(...operations: UpdateOperation[]): Update {
  return { type: 'update', prefixes: {}, updates: operations };
}

/** `INSERT DATA { GRAPH <g> { … } }`; with `template`, `INSERT { GRAPH <g> { … } } WHERE {}`, where blank nodes may stand. */
export function insertData(into: IriTerm, triples: Triple[], template = false): UpdateOperation {
  const quads = [{ type: 'graph' as const, name: into, triples }];
  return template
    ? { updateType: 'insertdelete', insert: quads, delete: [], where: [] }
    : { updateType: 'insert', insert: quads };
}

/** `DELETE DATA { GRAPH <g> { … } }`. */
export function deleteData(from: IriTerm, triples: Triple[]): UpdateOperation {
  return { updateType: 'delete', delete: [{ type: 'graph', name: from, triples }] };
}

/** `DELETE WHERE { GRAPH <g> { … } }`: every match of the triples, their variables standing for any term. */
export function deleteWhere(from: IriTerm, triples: Triple[]): UpdateOperation {
  return { updateType: 'deletewhere', delete: [{ type: 'graph', name: from, triples }] };
}

/** `DROP SILENT GRAPH <g>`. */
export const dropGraph = (name: IriTerm): UpdateOperation => ({
  type: 'drop',
  silent: true,
  graph: { type: 'graph', name },
});
/** `MOVE SILENT <from> TO <to>` (`ADD` with `add`): a graph's triples into another. */
export const moveGraph = (from: IriTerm, to: IriTerm, how: 'move' | 'add' = 'move'): UpdateOperation => ({
  type: how,
  silent: true,
  source: { type: 'graph', name: from },
  destination: { type: 'graph', name: to },
});
