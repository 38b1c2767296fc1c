/**
 * Queries rewritten around two Comunica 4.5 bugs, into SPARQL that means the same, so that its
 * answers are the ones every other store gives (each shown in graph-store-contract.test.ts):
 * - an EXISTS inside an expression (`BIND(IF(EXISTS { … }, …))`) is evaluated against the default
 *   graph, not the GRAPH block around it (FILTER EXISTS is right): that graph is named again
 *   inside it;
 * - `?s p? ?o` with both ends variables (as after VALUES) has only the zero-length pairs of nodes
 *   with a `?s ?any ?s` triple: the step is written as a UNION of one step and a zero-length path
 *   (`<never>*`, whose pairs Comunica enumerates correctly).
 */
import type { Pattern, SelectQuery, Term, VariableTerm } from 'sparqljs';
import {
  expandPath,
  mapExists,
  mapPatterns,
  mapTriples,
  pathHas,
  variableTerm,
  type Expansion,
} from './sparql-rewrite.ts';

const ZERO_OR_ONE: ReadonlySet<string> = new Set(['?']);
// A predicate no graph uses: its `*` path is the zero-length path alone.
const NEVER = { termType: 'NamedNode', value: 'urn:bkg:comunica:zero-length' };

/** The query with those constructs rewritten; the query itself when it has none. */
export function forComunica(parsed: SelectQuery): SelectQuery {
  if (!parsed.where) return parsed;
  let changed = false;
  let fresh = 0;
  const how: Expansion = {
    keep: (path) => !pathHas(path, ZERO_OR_ONE),
    repeated: (s, path, o) => {
      if (path.pathType !== '?')
        return [{ type: 'bgp', triples: [{ subject: s as VariableTerm, predicate: path, object: o }] }];
      const zero = { type: 'path', pathType: '*', items: [NEVER] } as unknown as typeof path;
      return [
        {
          type: 'union',
          patterns: [
            expandPath(s, path.items[0]!, o, how),
            [{ type: 'bgp', triples: [{ subject: s as VariableTerm, predicate: zero, object: o }] }],
          ].map((patterns) => ({ type: 'group', patterns: patterns as Pattern[] })),
        },
      ];
    },
    fresh: () => variableTerm(`comunica_step_${++fresh}`),
  };
  let where = mapTriples(parsed.where, (t) => {
    if (!pathHas(t.predicate, ZERO_OR_ONE)) return [{ type: 'bgp', triples: [t] }];
    changed = true;
    return expandPath(t.subject, t.predicate, t.object, how);
  });
  where = existsInTheirGraph(where, undefined, () => (changed = true));
  return changed ? { ...parsed, where } : parsed;
}

/** Every EXISTS of a BIND inside `GRAPH <g>` wrapped in `GRAPH <g>`. */
function existsInTheirGraph(list: Pattern[], graph: Term | undefined, changed: () => void): Pattern[] {
  return mapPatterns(list, (p) => {
    if (p.type === 'graph')
      return [
        {
          ...p,
          patterns: existsInTheirGraph(p.patterns, p.name.termType === 'NamedNode' ? p.name : undefined, changed),
        },
      ];
    if (p.type !== 'bind' || !graph) return undefined;
    const expression = mapExists(p.expression, (pattern) => {
      changed();
      return { type: 'graph', name: graph, patterns: [pattern] } as Pattern;
    });
    return [{ ...p, expression }];
  });
}
