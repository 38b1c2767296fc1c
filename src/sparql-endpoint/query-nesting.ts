/**
 * How deep a client's query may nest, checked twice: its brackets in the text, before sparqljs
 * reads it, and the parsed query's depth, before anything walks it recursively (confineQuery,
 * sparqljs's generator) or Oxigraph runs it. Past either limit the query is 400 QUERY_TOO_COMPLEX.
 *
 * sparqljs 3.7 takes 0.6 s on 1,000 nested groups and 10 s on 2,000 (on the event loop), then
 * overflows its stack. Oxigraph 0.5 traps at 688 nested groups or subqueries, 173 nested EXISTS,
 * 344 nested `GRAPH ?g` (as confined), and on flat lists it folds into nested operators: about 820
 * OPTIONALs, BINDs or projected expressions in a row, 1,550 path alternatives, 2,400 UNION
 * branches, 12,700 IN values. Each of those is refused at a fifth or less of it
 * (scripts/measure-nesting.ts prints the table). Real queries nest 1 to 4 brackets and reach a
 * depth of 6 to 20 (a chain of 60 triple patterns: 64).
 */
import type { SparqlQuery } from 'sparqljs';
import { queryTooComplex } from '../errors/app-error.ts';
import { NestingTooDeep } from '../rdf/nesting-scanner.ts';
import { TurtleNestingScanner } from '../rdf/turtle-nesting-scanner.ts';

/** Brackets (`{ }`, `( )`, `[ ]`, `<< >>`) a query may nest in its text. */
export const QUERY_NESTING_LIMIT = 64;

/** The depth (queryDepth) a parsed query may reach: a sixth of a folded list's trap, a fifth of nested GRAPH's. */
export const QUERY_DEPTH_LIMIT = 128;

/** Refuses a query whose brackets nest deeper than QUERY_NESTING_LIMIT, in one linear pass that stops at the first bracket past it. */
export function checkQueryNesting(text: string): void {
  try {
    new TurtleNestingScanner('SPARQL', QUERY_NESTING_LIMIT, true).scan(text);
  } catch (error) {
    if (error instanceof NestingTooDeep)
      throw queryTooComplex(`${error.message}: the endpoint reads no deeper queries.`);
    throw error;
  }
}

/** Refuses a parsed query deeper than QUERY_DEPTH_LIMIT. */
export function checkQueryDepth(query: SparqlQuery): void {
  if (queryDepth(query, QUERY_DEPTH_LIMIT) > QUERY_DEPTH_LIMIT) {
    throw queryTooComplex(
      `The query nests deeper than ${QUERY_DEPTH_LIMIT} levels once parsed: groups, subqueries, expressions and paths count, and so does ` +
        'each item of a list the engine nests (the patterns of a group, UNION branches, path alternatives, IN values, projected expressions). ' +
        'Split the query, or pass a long list of values with VALUES.',
    );
  }
}

/**
 * How deep Oxigraph nests the query's algebra, over-estimated from sparqljs's tree without
 * recursion: each object is one level, and a list as many as it has items, as Oxigraph folds a
 * group's patterns, UNION branches and the like into one operator inside the next. VALUES rows,
 * which it reads as one flat table (no trap at 100,000), are one level. Stops past `limit`.
 */
export function queryDepth(query: SparqlQuery, limit: number): number {
  let deepest = 0;
  const nodes: unknown[] = [query];
  const depths: number[] = [0];
  const keys: string[] = [''];
  while (nodes.length > 0) {
    const node = nodes.pop();
    const above = depths.pop()!;
    const key = keys.pop()!;
    // Terms (variables, IRIs, literals) are leaves.
    if (node === null || typeof node !== 'object' || 'termType' in node) continue;
    const list = Array.isArray(node);
    const depth = above + (list && key !== 'values' ? node.length : 1);
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    for (const [childKey, child] of list ? node.map((item) => ['', item] as const) : Object.entries(node)) {
      nodes.push(child);
      depths.push(depth);
      keys.push(childKey);
    }
  }
  return deepest;
}
