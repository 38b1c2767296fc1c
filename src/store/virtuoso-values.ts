/**
 * VALUES blocks as Virtuoso 7.2 joins them fast. Inline in a group, a VALUES block of a few
 * hundred terms costs it 100–300 ms however few rows it meets (it is compiled into the group's
 * plan term by term); the same block alone in a subquery is read as a table and joined in a few
 * milliseconds. The meaning is the same: a group joins a subquery's rows as it joins VALUES.
 */
import type { Pattern, SelectQuery, ValuesPattern } from 'sparqljs';
import { groupOf, mapPatterns, variableTerm } from './sparql-rewrite.ts';

const alone = (p: Pattern): boolean => p.type === 'query' && p.where?.length === 1 && p.where[0]!.type === 'values';

/** Every VALUES block of the patterns in a subquery of its own (those already alone in one kept). */
export function valuesAsSubqueries(list: Pattern[]): Pattern[] {
  return mapPatterns(list, (p) => {
    if (alone(p)) return [p];
    if (p.type !== 'values') return undefined;
    const variables = Object.keys((p as ValuesPattern).values[0] ?? {}).map((k) => variableTerm(k.slice(1)));
    return [groupOf([{ type: 'query', queryType: 'SELECT', prefixes: {}, variables, where: [p] } as SelectQuery as unknown as Pattern])];
  });
}
