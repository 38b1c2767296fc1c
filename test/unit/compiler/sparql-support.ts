/**
 * Reads generated SPARQL by meaning: parse with sparqljs, then walk the parsed structure (patterns,
 * FILTER/BIND expressions with their EXISTS patterns, subqueries) to find triples, filters and VALUES.
 */
import { Parser, type Expression, type Pattern, type SelectQuery, type Triple, type ValuePatternRow } from 'sparqljs';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { prologue } from '../../support/select-query.ts';

/** Parses a query (text, or algebra as the serializer prints it) and checks it is one SELECT. */
export function parseSelect(query: SelectQuery | string): SelectQuery {
  const parsed = new Parser().parse(typeof query === 'string' ? query : serialize(query));
  if (parsed.type !== 'query' || parsed.queryType !== 'SELECT') throw new Error(`Not a SELECT query: ${parsed.type}`);
  return parsed;
}

/** Parses a group graph pattern written in the codebase's prefixes, to compare fragments by meaning. */
export function parsePatterns(text: string): Pattern[] {
  return parseSelect(`${prologue}\nSELECT * WHERE { ${text} }`).where ?? [];
}

export interface Found {
  /** The graph the item is read in (innermost GRAPH), undefined for the default graph. */
  readonly graph: string | undefined;
  /** GRAPH names from the outside in. */
  readonly graphs: readonly string[];
}
export interface FoundTriple extends Found {
  readonly triple: Triple;
}
export interface FoundFilter extends Found {
  readonly expression: Expression;
}
export interface FoundValues extends Found {
  readonly rows: readonly ValuePatternRow[];
}
export interface FoundService extends Found {
  readonly name: string;
}

export interface Contents {
  readonly triples: FoundTriple[];
  readonly filters: FoundFilter[];
  readonly values: FoundValues[];
  readonly services: FoundService[];
  /** Every literal value anywhere in an expression (FILTER or BIND). */
  readonly literals: string[];
}

const isPattern = (x: unknown): x is Pattern =>
  typeof x === 'object' &&
  x !== null &&
  !Array.isArray(x) &&
  'type' in x &&
  (x as { type: string }).type !== 'operation' &&
  (x as { type: string }).type !== 'functionCall' &&
  (x as { type: string }).type !== 'aggregate';

/** Everything a list of patterns reads, with the graph each piece is read in. */
export function contentsOf(patterns: readonly Pattern[]): Contents {
  const contents: Contents = { triples: [], filters: [], values: [], services: [], literals: [] };
  const expression = (e: unknown, graphs: readonly string[]): void => {
    if (Array.isArray(e)) return e.forEach((x) => expression(x, graphs));
    if (typeof e !== 'object' || e === null) return;
    if ('termType' in e) {
      const term = e as { termType: string; value: string };
      if (term.termType === 'Literal') contents.literals.push(term.value);
      return;
    }
    if (isPattern(e)) return walk([e], graphs);
    if ('args' in e) expression((e as { args: unknown }).args, graphs);
    if ('expression' in e) expression((e as { expression: unknown }).expression, graphs);
  };
  const walk = (list: readonly Pattern[], graphs: readonly string[]): void => {
    const graph = graphs.at(-1);
    for (const p of list) {
      switch (p.type) {
        case 'bgp':
          for (const triple of p.triples) contents.triples.push({ triple, graph, graphs });
          break;
        case 'graph':
          walk(p.patterns, [...graphs, p.name.value]);
          break;
        case 'group':
        case 'optional':
        case 'union':
        case 'minus':
          walk(p.patterns, graphs);
          break;
        case 'service':
          contents.services.push({ name: p.name.value, graph, graphs });
          walk(p.patterns, graphs);
          break;
        case 'filter':
          contents.filters.push({ expression: p.expression, graph, graphs });
          expression(p.expression, graphs);
          break;
        case 'bind':
          expression(p.expression, graphs);
          break;
        case 'values':
          contents.values.push({ rows: p.values, graph, graphs });
          break;
        case 'query':
          walk(p.where ?? [], graphs);
          break;
      }
    }
  };
  walk(patterns, []);
  return contents;
}

/** The terms a VALUES clause binds to a variable (sparqljs keys rows by `?name`). */
export function valuesOf(values: FoundValues, variable: string): string[] | undefined {
  const key = Object.keys(values.rows[0] ?? {}).find((k) => k === `?${variable}` || k === variable);
  if (key === undefined) return undefined;
  return values.rows.map((row) => row[key]?.value ?? '');
}

/** The projected variable names of a SELECT. */
export function projection(query: SelectQuery): string[] {
  return query.variables.map((v) => ('termType' in v ? v.value : v.variable.value));
}

/** Every sub-expression of an expression, the expression itself first (EXISTS patterns are not entered). */
export function subExpressions(e: Expression): Expression[] {
  const all: Expression[] = [e];
  if (Array.isArray(e)) for (const x of e) all.push(...subExpressions(x));
  else if (
    typeof e === 'object' &&
    e !== null &&
    'type' in e &&
    (e.type === 'operation' || e.type === 'functionCall')
  ) {
    for (const arg of e.args) if (!isPattern(arg)) all.push(...subExpressions(arg as Expression));
  }
  return all;
}

/** Whether an expression uses an operator (`strends`, `in`, `exists`, ...) anywhere. */
export function usesOperator(e: Expression, operator: string): boolean {
  return subExpressions(e).some(
    (x) =>
      typeof x === 'object' &&
      x !== null &&
      !Array.isArray(x) &&
      'type' in x &&
      x.type === 'operation' &&
      x.operator === operator,
  );
}
