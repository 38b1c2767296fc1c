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
 * An end counts as bound when a pattern before the subquery in its group binds it (a triple, VALUES,
 * BIND, a subquery that projects it, another transitive subquery), or a group around it did before
 * the group, within the same SELECT; OPTIONAL, MINUS and FILTER bind nothing for what follows, and a
 * UNION only what every branch binds. With both ends bound, or neither, the planner keeps the choice.
 */
import type {
  BindPattern,
  GraphPattern,
  GroupPattern,
  Pattern,
  SelectQuery,
  UnionPattern,
  ValuesPattern,
} from 'sparqljs';
import { asTransitive, pinDirection } from '../rdf/sparql-algebra.ts';

type Bound = ReadonlySet<string>;

const variablesOfTerm = (term: unknown, into: Set<string>): void => {
  const t = term as { termType?: string; value?: string; type?: string; items?: unknown[] };
  if (t?.termType === 'Variable') into.add(t.value!);
};

/** The list with each transitive subquery's direction pinned, given what is bound around it. */
export function pinDirections(list: readonly Pattern[], around: Bound = new Set()): Pattern[] {
  const bound = new Set(around);
  return list.map((p) => {
    const out = pinned(p, bound);
    for (const v of binds(out)) bound.add(v);
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

/** The variables a subquery projects; undefined for `SELECT *`. */
function projection(query: SelectQuery): Set<string> | undefined {
  const variables = query.variables as unknown[];
  if (variables.length === 1 && (variables[0] as { termType?: string }).termType === 'Wildcard') return undefined;
  const names = new Set<string>();
  for (const v of variables) {
    const item = v as { termType?: string; value?: string; variable?: { value: string } };
    if (item.termType === 'Variable') names.add(item.value!);
    else if (item.variable) names.add(item.variable.value);
  }
  return names;
}

/** The variables a pattern binds for the patterns after it. */
function binds(p: Pattern): Set<string> {
  const found = new Set<string>();
  const node = asTransitive(p);
  if (node) return found.add(node.in.value).add(node.out.value);
  switch (p.type) {
    case 'bgp':
      for (const t of p.triples) for (const term of [t.subject, t.predicate, t.object]) variablesOfTerm(term, found);
      return found;
    case 'values':
      for (const row of (p as ValuesPattern).values) for (const key of Object.keys(row)) found.add(key.slice(1));
      return found;
    case 'bind':
      found.add((p as BindPattern).variable.value);
      return found;
    case 'group':
    case 'graph': {
      variablesOfTerm((p as GraphPattern).name, found);
      for (const item of (p as GroupPattern).patterns) for (const v of binds(item)) found.add(v);
      return found;
    }
    case 'union': {
      const [first, ...rest] = p.patterns.map(binds);
      return new Set([...(first ?? [])].filter((v) => rest.every((branch) => branch.has(v))));
    }
    case 'query': {
      const query = p as unknown as SelectQuery;
      const inner = new Set<string>();
      for (const item of query.where ?? []) for (const v of binds(item)) inner.add(v);
      const projected = projection(query);
      return projected ? new Set([...projected].filter((v) => inner.has(v))) : inner;
    }
    default:
      return found;
  }
}
