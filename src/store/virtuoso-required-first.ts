/**
 * A query's required patterns evaluated before its OPTIONAL joins, as Virtuoso 7.2 does not
 * order them itself. Given `{ A FILTER(f) OPTIONAL { B } … }` it may start from B (a whole-graph
 * `SELECT DISTINCT` that an EXISTS became, or a broad OPTIONAL), and an entity looked up by name
 * then took 3–4 s at 100k triples. With A and the FILTERs that test only what A surely binds in a
 * `SELECT *` subquery of their own, it finds A's few rows first and probes B for each: 20–40 ms.
 * The meaning is the same: a FILTER over variables every row of A binds keeps the same rows
 * before the OPTIONAL joins as after them, since those joins cannot change such a variable.
 */
import type { Pattern, SelectQuery } from 'sparqljs';
import { groupOf, surelyBound } from './sparql-rewrite.ts';

/**
 * The query's own group (and a GRAPH or group it is made of) with its patterns before its first
 * OPTIONAL, and the FILTERs they decide, in a subquery of their own. Only there: the same inside
 * a UNION branch (`{ ?e path ?x } OPTIONAL { … } FILTER(!BOUND(…))`) made Virtuoso ignore the
 * group's FILTER on the other side of the subquery and answer another entity.
 */
export function requiredFirst(list: Pattern[], variables: (node: unknown) => Set<string>): Pattern[] {
  if (list.length === 1 && (list[0]!.type === 'graph' || list[0]!.type === 'group')) {
    return [
      { ...list[0]!, patterns: requiredFirst((list[0] as { patterns: Pattern[] }).patterns, variables) } as Pattern,
    ];
  }
  return hoisted(list, variables);
}

function hoisted(patterns: Pattern[], variables: (node: unknown) => Set<string>): Pattern[] {
  const first = patterns.findIndex((p) => p.type === 'optional');
  if (first <= 0) return patterns;
  const prefix = patterns.slice(0, first).filter((p) => p.type !== 'filter');
  if (prefix.length === 0 || (prefix.length === 1 && isSubquery(prefix[0]!))) return patterns;
  const bound = new Set(prefix.flatMap((p) => [...surelyBound(p)]));
  const decided = (p: Pattern): boolean => p.type === 'filter' && [...variables(p)].every((v) => bound.has(v));
  const inner = [...prefix, ...patterns.filter(decided)];
  const rest = patterns.slice(first).filter((p) => !decided(p));
  const kept = patterns.slice(0, first).filter((p) => p.type === 'filter' && !decided(p));
  // Virtuoso ignores a group's FILTER on a variable of a subquery joined before an OPTIONAL: leave such a group as it is.
  const own = variables(prefix);
  if ([...kept, ...rest].some((p) => p.type === 'filter' && [...variables(p)].some((v) => own.has(v)))) return patterns;
  const select = {
    type: 'query',
    queryType: 'SELECT',
    prefixes: {},
    variables: [{ termType: 'Wildcard', value: '*' }],
    where: inner,
  } as unknown as SelectQuery;
  return [groupOf([select as unknown as Pattern]), ...kept, ...rest];
}

const isSubquery = (p: Pattern): boolean =>
  p.type === 'query' || (p.type === 'group' && p.patterns.length === 1 && p.patterns[0]!.type === 'query');
