/**
 * Rewriting parsed SPARQL (sparqljs) for stores that need a query written another way: the walk
 * over a query's patterns, and a property path taken apart into plain patterns. Every rewrite
 * keeps the query's meaning; each store's module decides what to rewrite (Virtuoso's repeated
 * paths, Comunica's `?` paths and EXISTS, a namespace's graph names).
 */
import type { Expression, GroupPattern, Pattern, PropertyPath, Triple, ValuesPattern, VariableTerm } from 'sparqljs';

export type Predicate = Triple['predicate'];
export type PathEnd = Triple['subject'] | Triple['object'];

export const isPath = (p: Predicate): p is PropertyPath => (p as PropertyPath).type === 'path';
export const bgp = (t: Triple): Pattern => ({ type: 'bgp', triples: [t] });
export const groupOf = (patterns: Pattern[]): GroupPattern => ({ type: 'group', patterns });
export const variableTerm = (value: string) => ({ termType: 'Variable', value }) as VariableTerm;

/** True when the path, or a path inside it, is one of `types` (`*`, `+`, `?`, `|`, …). */
export function pathHas(p: Predicate, types: ReadonlySet<string>): boolean {
  return isPath(p) && (types.has(p.pathType) || p.items.some((item) => pathHas(item, types)));
}

const variableName = (t: unknown): string[] =>
  (t as VariableTerm).termType === 'Variable' ? [(t as VariableTerm).value] : [];

/**
 * The variables every solution of a pattern binds (an under-estimate: what it cannot prove is left
 * out). `own` answers for a pattern of a store's own that this walk does not know (Virtuoso's
 * transitive subquery), wherever it stands; undefined leaves the pattern to the walk.
 */
export function surelyBound(p: Pattern, own?: (p: Pattern) => Set<string> | undefined): Set<string> {
  const known = own?.(p);
  if (known) return known;
  const inside = (list: readonly Pattern[]) => list.flatMap((c) => [...surelyBound(c, own)]);
  switch (p.type) {
    case 'bgp':
      return new Set(
        p.triples.flatMap((t) => [
          ...variableName(t.subject),
          ...(isPath(t.predicate) ? [] : variableName(t.predicate)),
          ...variableName(t.object),
        ]),
      );
    case 'group':
      return new Set(inside(p.patterns));
    case 'graph':
      return new Set([...variableName(p.name), ...inside(p.patterns)]);
    case 'union': {
      const [head, ...tail] = p.patterns.map((branch) => surelyBound(branch, own));
      return new Set([...(head ?? [])].filter((v) => tail.every((s) => s.has(v))));
    }
    case 'values': {
      const rows = (p as ValuesPattern).values;
      return new Set(
        Object.keys(rows[0] ?? {})
          .filter((k) => rows.every((r) => r[k] !== undefined))
          .map((k) => k.slice(1)),
      );
    }
    case 'query': {
      const bound = new Set(inside(p.where ?? []));
      const all = p.variables.some((v) => (v as { termType?: string }).termType === 'Wildcard');
      return all ? bound : new Set(p.variables.flatMap((v) => variableName(v)).filter((v) => bound.has(v)));
    }
    default:
      return new Set();
  }
}

/** Replaces a pattern (walking its children with `walk` as it needs), or leaves it to the default walk (undefined). */
export type Visitor = (p: Pattern, walk: (list: Pattern[]) => Pattern[]) => Pattern[] | undefined;

/**
 * The patterns walked top-down: `visit` may replace each; the others have their children walked
 * (groups, OPTIONAL, MINUS, UNION, GRAPH, subqueries, and the EXISTS in FILTER and BIND).
 */
export function mapPatterns(list: Pattern[], visit: Visitor): Pattern[] {
  const walk = (l: Pattern[]): Pattern[] => l.flatMap((p) => visit(p, walk) ?? children(p, walk));
  return walk(list);
}

function children(p: Pattern, walk: (list: Pattern[]) => Pattern[]): Pattern[] {
  switch (p.type) {
    case 'filter':
    case 'bind':
      return [
        { ...p, expression: mapExists(p.expression as Expression, (group) => groupOf(walk([group]))) } as Pattern,
      ];
    case 'query':
      return [{ ...p, where: p.where && walk(p.where) }];
    default:
      return 'patterns' in p && Array.isArray(p.patterns)
        ? [{ ...p, patterns: walk(p.patterns as Pattern[]) } as Pattern]
        : [p];
  }
}

/** The expression with the pattern of each EXISTS and NOT EXISTS in it replaced by `map(pattern)`. */
export function mapExists(e: Expression, map: (pattern: Pattern) => Pattern): Expression {
  if (typeof e !== 'object' || e === null || !('type' in e) || e.type !== 'operation') return e;
  const exists = e.operator === 'exists' || e.operator === 'notexists';
  return {
    ...e,
    args: e.args.map((a) => (exists ? map(a as Pattern) : mapExists(a as Expression, map))),
  } as Expression;
}

/** Every triple of the patterns replaced by `rewrite(triple)`. */
export function mapTriples(list: Pattern[], rewrite: (t: Triple) => Pattern[]): Pattern[] {
  return mapPatterns(list, (p) => (p.type === 'bgp' ? p.triples.flatMap(rewrite) : undefined));
}

export interface Expansion {
  /** Paths kept whole, as one triple. */
  readonly keep: (path: Predicate) => boolean;
  /** The patterns of `s step o` for a repeated step (`*`, `+`, `?`). */
  readonly repeated: (s: PathEnd, path: PropertyPath, o: PathEnd) => Pattern[];
  /** A variable no other part of the query uses. */
  readonly fresh: () => VariableTerm;
}

/**
 * `s path o` as the triples of each way it can hold, its alternatives distributed over its
 * sequences (`(a|b)/c` is `a/c` or `b/c`), inverses swapped; undefined for a path with a repeated
 * step or a negated property set.
 */
export function pathBranches(
  s: PathEnd,
  path: Predicate,
  o: PathEnd,
  fresh: () => VariableTerm,
): Triple[][] | undefined {
  if (!isPath(path)) return [[{ subject: s, predicate: path, object: o } as Triple]];
  switch (path.pathType) {
    case '^':
      return pathBranches(o, path.items[0]!, s, fresh);
    case '|': {
      const each = path.items.map((item) => pathBranches(s, item, o, fresh));
      return each.every((branches) => branches !== undefined) ? each.flat() : undefined;
    }
    case '/': {
      let branches: Triple[][] = [[]];
      let from = s;
      for (const [i, item] of path.items.entries()) {
        const to = i === path.items.length - 1 ? o : fresh();
        const steps = pathBranches(from, item, to, fresh);
        if (!steps) return undefined;
        branches = branches.flatMap((before) => steps.map((step) => [...before, ...step]));
        from = to;
      }
      return branches;
    }
    default:
      return undefined;
  }
}

/** `s path o` as patterns: alternatives a UNION, sequences a join over fresh variables, inverses swapped. */
export function expandPath(s: PathEnd, path: Predicate, o: PathEnd, how: Expansion): Pattern[] {
  if (how.keep(path) || !isPath(path) || path.pathType === '!')
    return [bgp({ subject: s as Triple['subject'], predicate: path, object: o })];
  switch (path.pathType) {
    case '^':
      return expandPath(o, path.items[0]!, s, how);
    case '/': {
      const out: Pattern[] = [];
      let from = s;
      path.items.forEach((item, i) => {
        const to = i === path.items.length - 1 ? o : how.fresh();
        out.push(...expandPath(from, item, to, how));
        from = to;
      });
      return out;
    }
    case '|':
      return [{ type: 'union', patterns: path.items.map((item) => groupOf(expandPath(s, item, o, how))) }];
    default:
      return how.repeated(s, path, o);
  }
}
