/**
 * Each transitive subquery told which way to run (`t_direction`), where the query binds one of its
 * ends before it and not the other.
 *
 * Left to choose, Virtuoso 7.2's planner at times runs a transitive subquery backwards from the
 * patterns joined after it: for a traversal's edges (`transitive(?start → ?x)` then
 * `{ ?x brick:feeds ?y } UNION { ?y brick:isFedBy ?x }`) it scanned every feeds edge of the graph
 * and asked, edge by edge, whether `?x` is reached from the start, with the start as the target.
 * That plan keeps what it saw of an input from one edge to the next, so only the first edge of each
 * piece of equipment came back (AHU-1 feeding VAV-1-01 and none of its seven other VAVs). It chose
 * that plan from the store's statistics: on a fresh Virtuoso, after a few thousand small loads and
 * drops, and not after more data had gone through it, so the same query answered whole or short
 * by what other sites had loaded before. Pinned to run from the end the query binds, the plan reads
 * the transitive forward and joins the edges after it: the whole answer, every time
 * (test/integration/stores/virtuoso-dialect.test.ts).
 *
 * An end counts as bound when a pattern before the subquery in its group binds it in every solution
 * (`surelyBound`: a triple, VALUES, a subquery that projects it, a UNION whose every branch binds
 * it, another transitive subquery; and here a BIND of a variable bound before it), or a group
 * around it did before the group, within the same SELECT. With both ends bound, or neither, the
 * planner keeps the choice.
 */
import type { GroupPattern, Pattern, SelectQuery, UnionPattern } from 'sparqljs';
import { asTransitive, pinDirection } from '../rdf/sparql-algebra.ts';
import { surelyBound } from './sparql-rewrite.ts';

type Bound = ReadonlySet<string>;

/** A transitive subquery binds both its ends in every solution. */
const transitiveEnds = (p: Pattern): Set<string> | undefined => {
  const node = asTransitive(p);
  return node && new Set([node.in.value, node.out.value]);
};

/** What a pattern binds for the patterns after it in its group, given what is bound before it. */
function binds(p: Pattern, bound: Bound): Set<string> {
  // `BIND(?parent AS ?start)`: the start of a traversal, as the compiler writes it.
  if (p.type === 'bind') {
    const from = p.expression as { termType?: string; value?: string };
    return from.termType === 'Variable' && bound.has(from.value!) ? new Set([p.variable.value]) : new Set();
  }
  return surelyBound(p, transitiveEnds);
}

/** The list with each transitive subquery's direction pinned, given what is bound around it. */
export function pinDirections(list: readonly Pattern[], around: Bound = new Set()): Pattern[] {
  const bound = new Set(around);
  return list.map((p) => {
    const out = pinned(p, bound);
    for (const v of binds(out, bound)) bound.add(v);
    return out;
  });
}

function pinned(p: Pattern, bound: Bound): Pattern {
  const node = asTransitive(p);
  if (node) {
    const [from, to] = [bound.has(node.in.value), bound.has(node.out.value)];
    const direction = from && !to ? 1 : to && !from ? 2 : undefined;
    return pinDirection(p, direction, pinDirections(node.where));
  }
  switch (p.type) {
    case 'group':
    case 'graph':
      return { ...p, patterns: pinDirections((p as GroupPattern).patterns, bound) } as Pattern;
    case 'optional':
    case 'minus':
      return { ...p, patterns: pinDirections(p.patterns, bound) };
    case 'union':
      return { ...p, patterns: p.patterns.map((branch) => pinned(branch, bound)) } as UnionPattern;
    case 'query': {
      // A subquery is a scope of its own: Virtuoso may answer it before what binds its variables
      // outside, so only what binds them inside counts there.
      const query = p as unknown as SelectQuery;
      return { ...query, where: pinDirections(query.where ?? []) } as unknown as Pattern;
    }
    default:
      return p;
  }
}
