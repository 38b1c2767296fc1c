/**
 * The service's queries rewritten for Virtuoso 7.2 into SPARQL (and its own transitive syntax)
 * that means the same, around what it evaluates wrongly. Each quirk is shown in
 * test/integration/stores/virtuoso-dialect.test.ts.
 * - Repeated property paths (`*`, `+`, `?`) run only from a constant: from a variable Virtuoso
 *   refuses them ("transitive start not given") or answers part of the closure. Each becomes its
 *   transitive subquery (`{ SELECT ?s ?o WHERE { … } } OPTION (TRANSITIVE, t_in(?s), t_out(?o), …)`,
 *   a typed pattern the serializer prints: `transitive()` of src/rdf/sparql-algebra.ts),
 *   which needs one end bound by a join: a VALUES block binding an end goes in a subquery (only
 *   there does it count). Next to such a subquery an alternative path is answered in part, so in
 *   these queries every path becomes plain triples (alternatives a UNION, sequences a join over
 *   fresh variables, inverses swapped).
 * - EXISTS is answered wrongly in several shapes (after a transitive subquery it tests the wrong
 *   entity; in a BIND after OPTIONALs it can be false for every row). A group's `FILTER EXISTS`
 *   become one join with a `SELECT DISTINCT` of the variables they share with the rest of the
 *   query (two such joins before an OPTIONAL lose rows, so a group's are merged while their own
 *   variables are apart); any other EXISTS in an expression becomes an OPTIONAL `SELECT DISTINCT`
 *   of the shared variables and a marker, tested with BOUND (a BIND's with its joins before the
 *   group's OPTIONALs).
 * - Left to choose, its planner at times runs a transitive subquery backwards from what is joined
 *   after it and answers part of it: each one is told which way to run where the query binds one
 *   end before it (virtuoso-directions.ts).
 * Then, for speed (bench/stores/results-100k.md): every VALUES block is joined from a subquery of
 * its own (virtuoso-values.ts), and the query's required patterns go before its OPTIONAL joins
 * (virtuoso-required-first.ts); an EXISTS probe's paths are plain triples, and so are an
 * OPTIONAL's in every query: an OPTIONAL over an alternative (`?e (brick:hasUnit|brick:hasUnits) ?u`)
 * took Virtuoso 20 to 40 times as long as over a UNION of the triples (the facts of the points of
 * 189 equipment, 1,712 rows: 80 ms against 6 ms at 100k triples, bench/stores).
 * A query with none of these (no repeated path, path in an OPTIONAL, EXISTS or VALUES) goes unchanged.
 */
import type {
  BindPattern,
  Expression,
  FilterPattern,
  GroupPattern,
  Pattern,
  SelectQuery,
  ValuesPattern,
  VariableTerm,
} from 'sparqljs';
import { asTransitive, transitive } from '../rdf/sparql-algebra.ts';
import { pinDirections } from './virtuoso-directions.ts';
import { requiredFirst } from './virtuoso-required-first.ts';
import { valuesAsSubqueries } from './virtuoso-values.ts';
import {
  expandPath,
  groupOf,
  isPath,
  mapExists,
  mapPatterns,
  mapTriples,
  pathBranches,
  pathHas,
  variableTerm,
  type Expansion,
  type PathEnd,
  type Predicate,
} from './sparql-rewrite.ts';

const ONE = {
  termType: 'Literal',
  value: '1',
  language: '',
  datatype: { termType: 'NamedNode', value: 'http://www.w3.org/2001/XMLSchema#integer' },
};

const REPEATS: ReadonlySet<string> = new Set(['*', '+', '?']);

const isVariable = (t: PathEnd): t is VariableTerm => t.termType === 'Variable';
const subquery = (variables: SelectQuery['variables'], where: Pattern[], distinct = false): GroupPattern =>
  groupOf([
    {
      type: 'query',
      queryType: 'SELECT',
      prefixes: {},
      variables,
      where,
      distinct,
    } as SelectQuery as unknown as Pattern,
  ]);
const existsOf = (e: unknown): { operator: string; args: GroupPattern[] } | undefined => {
  const op = e as { type?: string; operator?: string; args?: GroupPattern[] };
  return op?.type === 'operation' && (op.operator === 'exists' || op.operator === 'notexists')
    ? (op as { operator: string; args: GroupPattern[] })
    : undefined;
};

/** A query of the service as Virtuoso answers it right; the query itself when nothing needs rewriting. */
export function forVirtuoso(parsed: SelectQuery): SelectQuery {
  if (!parsed.where) return parsed;
  let repeats = false;
  mapTriples(parsed.where, (t) => ((repeats ||= pathHas(t.predicate, REPEATS)), []));
  const rewriter = new Rewriter();
  const expand = (list: Pattern[]) => mapTriples(list, (t) => rewriter.expand(t.subject, t.predicate, t.object));
  let where = repeats ? expand(parsed.where) : factsExpanded(parsed.where, rewriter);
  const expanded = where !== parsed.where;
  const bound = rewriter.variables(where, true);
  const rewritten = { count: 0 };
  where = existsAsJoins(where, bound, rewriter, rewritten);
  if (!expanded && rewritten.count === 0 && !hasValues(where)) return parsed;
  where = requiredFirst(valuesAsSubqueries(wrapValues(where, rewriter)), (node) => rewriter.variables(node));
  return { ...parsed, where: pinDirections(rewriter.bindEnds(where)) };
}

/**
 * The paths of the OPTIONALs' own triples (an entity's facts: `OPTIONAL { ?e (brick:hasUnit|brick:hasUnits) ?u }`)
 * as a UNION of plain triples, one branch per way the path can hold (`(a|b)/c` as `a/c` and `b/c`:
 * joined to a UNION instead, the timeseries id of 1,712 points took Virtuoso 2.4 s against 26 ms);
 * the patterns themselves when there are none. The paths of required patterns stay whole:
 * expanded, the UNIONs of a location's parts joined under a MINUS exceeded Virtuoso's compiler
 * memory (SQ200, MaxMemPoolSize).
 */
function factsExpanded(list: Pattern[], rewriter: Rewriter): Pattern[] {
  let found = false;
  const out = mapPatterns(list, (p, walk) => {
    if (p.type !== 'optional') return undefined;
    const own = p.patterns.flatMap((child): Pattern[] => {
      if (child.type !== 'bgp') return walk([child]);
      if (!child.triples.some((t) => isPath(t.predicate))) return [child];
      found = true;
      return child.triples.flatMap((t) => {
        const branches = pathBranches(t.subject, t.predicate, t.object, () => rewriter.variable('step'));
        if (!branches) return rewriter.expand(t.subject, t.predicate, t.object);
        const bgps = branches.map((triples): Pattern => ({ type: 'bgp', triples }));
        return bgps.length === 1 ? bgps : [{ type: 'union', patterns: bgps.map((b) => groupOf([b])) }];
      });
    });
    return [{ ...p, patterns: own }];
  });
  return found ? out : list;
}

/** Whether a VALUES block is anywhere in the patterns (subqueries and EXISTS included). */
function hasValues(list: Pattern[]): boolean {
  let found = false;
  mapPatterns(list, (p) => ((found ||= p.type === 'values'), undefined));
  return found;
}

class Rewriter {
  /** Each transitive subquery: its two ends, and the VALUES that bind an end. */
  private readonly blocks = new Map<Pattern, { ends: [VariableTerm, VariableTerm]; values: ValuesPattern[] }>();
  private fresh = 0;
  private readonly how: Expansion = {
    keep: (path) => !isPath(path),
    repeated: (s, path, o) =>
      this.transitive(s, path.items[0]!, o, path.pathType === '+' ? 1 : 0, path.pathType === '?'),
    fresh: () => this.variable('step'),
  };

  /** A variable no other part of the query uses. */
  variable(kind: string): VariableTerm {
    return variableTerm(`virtuoso_${kind}_${++this.fresh}`);
  }

  /** The patterns of `s path o`: plain triples, repeated steps as transitive subqueries. */
  expand(s: PathEnd, path: Predicate, o: PathEnd): Pattern[] {
    return expandPath(s, path, o, this.how);
  }

  /** `s step{min,} o` as a transitive subquery; a constant end becomes a variable tested after it. */
  private transitive(s: PathEnd, step: Predicate, o: PathEnd, min: 0 | 1, once: boolean): Pattern[] {
    const [from, to] = [isVariable(s) ? s : this.how.fresh(), isVariable(o) ? o : this.how.fresh()];
    const node = transitive(from, to, this.expand(from, step, to), min, once ? 1 : undefined);
    this.blocks.set(node, { ends: [from, to], values: [] });
    const tests = (
      [
        [from, s],
        [to, o],
      ] as const
    )
      .filter(([v, t]) => v !== t)
      .map(([v, t]) => equals(v, t));
    return [node, ...tests];
  }

  /**
   * The variables in a part of the query (a transitive subquery counts its two ends); with
   * `outside`, not those only inside an EXISTS, which binds nothing around it.
   */
  variables(node: unknown, outside = false, found = new Set<string>()): Set<string> {
    if (Array.isArray(node)) {
      for (const item of node) this.variables(item, outside, found);
    } else if (typeof node === 'object' && node !== null) {
      const term = node as { termType?: string; value?: string; type?: string };
      if (term.termType === 'Variable') found.add(term.value!);
      else if (term.type === 'values')
        for (const row of (node as ValuesPattern).values) for (const key of Object.keys(row)) found.add(key.slice(1));
      else if (asTransitive(node as Pattern)) {
        const { in: from, out: to } = asTransitive(node as Pattern)!;
        found.add(from.value).add(to.value);
      } else if (!(outside && existsOf(node)))
        for (const value of Object.values(node)) this.variables(value, outside, found);
    }
    return found;
  }

  /** The variables of an EXISTS's patterns that the query binds outside EXISTS, and those it does not. */
  split(patterns: unknown, bound: ReadonlySet<string>): { shared: string[]; own: string[] } {
    const inner = [...this.variables(patterns)];
    return { shared: inner.filter((v) => bound.has(v)), own: inner.filter((v) => !bound.has(v)) };
  }

  /**
   * Notes a VALUES block that binds an end of a transitive subquery; whether there was one. It
   * binds one only where each alternative around it (`around`) is around the subquery too: a
   * VALUES in one branch of a UNION (a profile's untyped entities) binds nothing outside it, and
   * copied into a subquery outside the branch it cut the walk to its rows (Virtuoso answered
   * nothing for a location named by its label).
   */
  bindsAnEnd(values: ValuesPattern, around: ReadonlyMap<Pattern, readonly object[]>): boolean {
    const vars = Object.keys(values.values[0] ?? {}).map((k) => k.slice(1));
    const scope = around.get(values) ?? [];
    const blocks = [...this.blocks.entries()]
      .filter(
        ([node, b]) =>
          b.ends.some((end) => vars.includes(end.value)) &&
          scope.every((alternative) => around.get(node)?.includes(alternative)),
      )
      .map(([, b]) => b);
    for (const block of blocks) block.values.push(values);
    return blocks.length > 0;
  }

  /**
   * The patterns with every transitive subquery (nested ones too) that has an end bound by VALUES
   * run with a copy of them, in a `SELECT DISTINCT` of its two ends: joined to triples outside such
   * a subquery, its pairs met only some of their matches (a building's systems lacked two), and it
   * needs the binding inside it.
   */
  bindEnds(list: Pattern[]): Pattern[] {
    return mapPatterns(list, (p) => {
      const node = asTransitive(p);
      if (!node) return undefined;
      const bound = transitive(node.in, node.out, this.bindEnds(node.where), node.min, node.max);
      const { ends, values } = this.blocks.get(p)!;
      if (values.length === 0) return [bound];
      const copies = values.map((v) =>
        subquery(
          Object.keys(v.values[0] ?? {}).map((k) => variableTerm(k.slice(1))),
          [v],
        ),
      );
      return [subquery(ends, [...copies, bound], true)];
    });
  }
}

const equals = (v: VariableTerm, t: PathEnd): FilterPattern =>
  ({ type: 'filter', expression: { type: 'operation', operator: '=', args: [v, t] } }) as FilterPattern;

/** Every group's FILTER EXISTS as one SELECT DISTINCT join, every EXISTS of a BIND as an OPTIONAL tested with BOUND. */
function existsAsJoins(
  list: Pattern[],
  bound: ReadonlySet<string>,
  rewriter: Rewriter,
  rewritten: { count: number },
): Pattern[] {
  const group = (patterns: Pattern[]): Pattern[] => {
    const filters: Array<{ patterns: Pattern[]; shared: string[]; own: string[] }> = [];
    const out: Array<Pattern | 'filters'> = [];
    const nested = mapPatterns(patterns, (child) => {
      if (child.type === 'query') return [{ ...child, where: child.where && group(child.where) }];
      return ['group', 'graph', 'optional', 'minus', 'service'].includes(child.type)
        ? [{ ...child, patterns: group((child as GroupPattern).patterns) } as Pattern]
        : undefined;
    });
    for (const p of nested) {
      const exists = p.type === 'filter' ? existsOf(p.expression) : undefined;
      const split = exists?.operator === 'exists' ? rewriter.split(exists.args, bound) : undefined;
      if (split && split.shared.length > 0) {
        filters.push({ patterns: exists!.args[0]!.patterns, ...split });
        if (filters.length === 1) out.push('filters');
      } else if (p.type === 'bind') {
        const { pieces, reads } = expressionExists(p, bound, rewriter, rewritten);
        out.splice(
          pieces.length > 1 ? beforeOptionals(out, p.variable.value, reads, rewriter) : out.length,
          0,
          ...pieces,
        );
      } else if (p.type === 'filter') {
        out.push(...expressionExists(p, bound, rewriter, rewritten).pieces);
      } else out.push(p);
    }
    rewritten.count += filters.length;
    const own = filters.flatMap((f) => f.own);
    const apart = new Set(own).size === own.length;
    const joins = apart
      ? [{ patterns: filters.flatMap((f) => f.patterns), shared: [...new Set(filters.flatMap((f) => f.shared))] }]
      : filters;
    return out.flatMap((p) =>
      p === 'filters' ? joins.map((j) => subquery(j.shared.map(variableTerm), j.patterns, true)) : [p],
    );
  };
  return group(list);
}

/**
 * Where a rewritten BIND (its OPTIONAL joins, then itself) goes: before the OPTIONALs that precede
 * it, as long as the variables it reads are bound before them and none of them reads its own. After
 * an OPTIONAL that left a variable unbound (`?e a ?t` of an untyped entity), Virtuoso's OPTIONAL
 * joins did not match, and the tag came out empty.
 */
function beforeOptionals(
  out: ReadonlyArray<Pattern | 'filters'>,
  target: string,
  reads: readonly string[],
  rewriter: Rewriter,
): number {
  let at = out.length;
  while (at > 0 && out[at - 1] !== 'filters' && (out[at - 1] as Pattern).type === 'optional') {
    const required = out
      .slice(0, at - 1)
      .filter((p) => p === 'filters' || !['optional', 'bind', 'filter'].includes(p.type));
    const boundBefore = rewriter.variables(required);
    if (!reads.every((v) => boundBefore.has(v)) || rewriter.variables(out[at - 1]).has(target)) break;
    at--;
  }
  return at;
}

/** The EXISTS in a BIND's or FILTER's expression as OPTIONAL `SELECT DISTINCT` joins before it, each tested with BOUND of its marker. */
function expressionExists<P extends BindPattern | FilterPattern>(
  p: P,
  bound: ReadonlySet<string>,
  rewriter: Rewriter,
  rewritten: { count: number },
): { pieces: Pattern[]; reads: string[] } {
  const optionals: Pattern[] = [];
  const reads = new Set<string>();
  const expression = replaceExists(p.expression as Expression, (exists) => {
    const { shared } = rewriter.split(exists.args, bound);
    if (shared.length === 0) return undefined;
    for (const v of shared) reads.add(v);
    const marker = rewriter.variable('exists');
    const variables = [...shared.map(variableTerm), { expression: ONE, variable: marker }] as SelectQuery['variables'];
    // Its paths as plain triples: a probe of alternatives (`?x (a|b|^c) ?e`) ran 2–3× slower as a path.
    const probe = mapTriples(exists.args[0]!.patterns, (t) => rewriter.expand(t.subject, t.predicate, t.object));
    optionals.push({ type: 'optional', patterns: [subquery(variables, probe, true)] });
    const found = { type: 'operation', operator: 'bound', args: [marker] } as Expression;
    return exists.operator === 'exists' ? found : ({ type: 'operation', operator: '!', args: [found] } as Expression);
  });
  rewritten.count += optionals.length;
  // What else the expression reads must be bound before it too.
  for (const v of rewriter.variables(expression, true)) if (!v.startsWith('virtuoso_exists_')) reads.add(v);
  return { pieces: [...optionals, { ...p, expression } as P], reads: [...reads] };
}

/** The expression with each EXISTS / NOT EXISTS replaced by `replace(it)` (kept where that is undefined). */
function replaceExists(
  e: Expression,
  replace: (exists: { operator: string; args: GroupPattern[] }) => Expression | undefined,
): Expression {
  const exists = existsOf(e);
  if (exists) return replace(exists) ?? e;
  const op = e as { type?: string; args?: Expression[] };
  return op.type === 'operation' ? ({ ...op, args: op.args!.map((a) => replaceExists(a, replace)) } as Expression) : e;
}

/**
 * Each VALUES block and transitive subquery of the patterns, with the alternatives around it,
 * outermost first: the UNION branches, OPTIONALs, MINUSes and EXISTS patterns it is inside.
 */
function alternativesAround(list: Pattern[]): Map<Pattern, readonly object[]> {
  const around = new Map<Pattern, readonly object[]>();
  const walk = (patterns: readonly Pattern[], chain: readonly object[]): void => {
    for (const p of patterns) {
      if (p.type === 'values' || asTransitive(p)) {
        around.set(p, chain);
        continue;
      }
      switch (p.type) {
        case 'union':
          for (const branch of p.patterns) walk([branch], [...chain, branch]);
          break;
        case 'optional':
        case 'minus':
          walk(p.patterns, [...chain, p]);
          break;
        case 'filter':
        case 'bind':
          mapExists(p.expression as Expression, (group) => (walk([group], [...chain, group]), group));
          break;
        case 'query':
          walk(p.where ?? [], chain);
          break;
        default:
          if ('patterns' in p && Array.isArray(p.patterns)) walk(p.patterns as Pattern[], chain);
      }
    }
  };
  walk(list, []);
  return around;
}

/** VALUES blocks that bind a transitive end, each moved into a subquery of its own (and copied into the transitive one's). */
function wrapValues(list: Pattern[], rewriter: Rewriter): Pattern[] {
  const around = alternativesAround(list);
  return mapPatterns(list, (p) => {
    if (p.type !== 'values' || !rewriter.bindsAnEnd(p as ValuesPattern, around)) return undefined;
    return [
      subquery(
        Object.keys((p as ValuesPattern).values[0] ?? {}).map((k) => variableTerm(k.slice(1))),
        [p],
      ),
    ];
  });
}
