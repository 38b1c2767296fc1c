/**
 * VALUES blocks as Virtuoso 7.2 joins them fast and right.
 * - A long block (more than INLINE_ROWS rows) inline in a group costs it 100–300 ms however few
 *   rows it meets (it is compiled into the group's plan term by term); the same block alone in a
 *   subquery is read as a table and joined in a few milliseconds.
 * - A short block stays inline: there its terms are constants the plan looks up by index. As a
 *   subquery table its join was planned from the graph's statistics, which after a fresh load led
 *   Virtuoso to scan: 126–157 ms against 6 ms inline for the properties of 11 entities at 100k triples.
 * - A block that is a whole UNION branch goes in a subquery whatever its length: Virtuoso answers
 *   nothing for a FILTER over a UNION with such a branch inline.
 * The meaning is the same: a group joins a subquery's rows as it joins VALUES.
 */
import type { GroupPattern, Pattern, SelectQuery, ValuesPattern } from 'sparqljs';
import { groupOf, mapPatterns, variableTerm } from './sparql-rewrite.ts';

/** The longest VALUES block left inline. */
const INLINE_ROWS = 32;

const alone = (p: Pattern): boolean => p.type === 'query' && p.where?.length === 1 && p.where[0]!.type === 'values';
const asTable = (values: ValuesPattern): Pattern => {
  const variables = Object.keys(values.values[0] ?? {}).map((k) => variableTerm(k.slice(1)));
  return groupOf([
    {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables,
      where: [values],
    } as SelectQuery as unknown as Pattern,
  ]);
};

/** Each long VALUES block, and each that is a UNION branch by itself, in a subquery of its own (those already alone in one kept). */
export function valuesAsSubqueries(list: Pattern[]): Pattern[] {
  return mapPatterns(list, (p) => {
    if (alone(p)) return [p];
    if (p.type === 'union') {
      const branches = p.patterns.map((branch) => {
        const only =
          branch.type === 'group' && (branch as GroupPattern).patterns.length === 1
            ? (branch as GroupPattern).patterns[0]!
            : branch;
        return only.type === 'values' ? asTable(only as ValuesPattern) : valuesAsSubqueries([branch])[0]!;
      });
      return [{ ...p, patterns: branches }];
    }
    if (p.type !== 'values' || (p as ValuesPattern).values.length <= INLINE_ROWS) return undefined;
    return [asTable(p as ValuesPattern)];
  });
}
