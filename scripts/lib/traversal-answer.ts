/**
 * The equipment a traversal query's rows reach, as `src/query/execute-plan.ts` computes it (breadth-first
 * over the fetched edges, Equipment only, no limits), for the scripts that check competing SPARQL
 * shapes give the service's answer.
 */
import { readEntityRows } from '../../src/query/entity-records.ts';
import { kindsOf } from '../../src/query/shape-entity.ts';
import { traverse } from '../../src/query/traverse.ts';
import type { Ontology } from '../../src/ontology/ontology.ts';
import type { SparqlRow } from '../../src/store/graph-store.ts';

/** `closure`: keep only equipment of these classes (a traversal's `is:`). */
export function traversalAnswer(ontology: Ontology, direction: 'upstream' | 'downstream', closure?: readonly string[]) {
  const wanted = closure ? new Set(closure) : undefined;
  return (rows: readonly SparqlRow[]): string[] => {
    const starts = new Set<string>();
    const edges: Array<[string, string]> = [];
    for (const row of rows) {
      if (row.start) starts.add(row.start.value);
      else if (row.x && row.y) edges.push([row.x.value, row.y.value]);
    }
    const { records } = readEntityRows(rows.filter((row) => row.e !== undefined));
    const reached = traverse({ edges, starts, direction, maxDepth: undefined, follows: () => true });
    return [...reached.keys()].filter((node) => {
      const record = records.get(node);
      if (!record || !kindsOf(record, ontology).has('Equipment')) return false;
      return !wanted || [...record.types].some((t) => wanted.has(t));
    });
  };
}
