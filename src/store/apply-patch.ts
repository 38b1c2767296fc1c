/**
 * A patch (src/rdf/rdf-patch.ts) applied to a graph of an Oxigraph store, as each thread of the
 * embedded store applies a change and a restore replays one from the journal. A triple with no
 * blank node is removed or added as it is; a blank node added is a new one, and the removed
 * triples naming blank nodes are removed by pattern (`DELETE WHERE`, each blank node a variable
 * shared by the triples that name it), since the store's names for its blank nodes differ from
 * one copy of the graph to another.
 */
import { randomBytes } from 'node:crypto';
import oxigraph from 'oxigraph';
import {
  deleteWhere,
  dropGraph,
  namedNode,
  update,
  variable,
  type Triple,
  type UpdateOperation,
} from '../rdf/sparql-algebra.ts';
import { namesBlankNode, tripleText, type GraphPatch, type TripleText } from '../rdf/rdf-patch.ts';
import { serialize } from '../rdf/sparql-serializer.ts';

/** What a patch did: the triples it removed and added (without those already gone or there), and whether a removal by pattern left the count unknown. */
export interface AppliedPatch {
  readonly patch: GraphPatch;
  readonly removedByPattern: boolean;
}

const parseTriples = (triples: readonly TripleText[]): oxigraph.Quad[] =>
  triples.length === 0
    ? []
    : oxigraph.parse(`${triples.join(' .\n')} .\n`, { format: 'application/n-triples', lenient: true });

/** The removed triples naming blank nodes, grouped so that two triples naming the same blank node are in one group. */
function blankGroups(quads: readonly oxigraph.Quad[]): oxigraph.Quad[][] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  const blanks = (q: oxigraph.Quad) =>
    [q.subject, q.object].filter((t) => t.termType === 'BlankNode').map((t) => t.value);
  for (const q of quads) {
    const [first, ...rest] = blanks(q);
    if (!parent.has(first!)) parent.set(first!, first!);
    for (const other of rest) {
      if (!parent.has(other)) parent.set(other, other);
      parent.set(find(other), find(first!));
    }
  }
  const groups = new Map<string, oxigraph.Quad[]>();
  for (const q of quads) {
    const root = find(blanks(q)[0]!);
    groups.set(root, [...(groups.get(root) ?? []), q]);
  }
  return [...groups.values()];
}

/** Removed triples as patterns: each blank node a variable, the same for every triple naming it. */
function asPatterns(quads: readonly oxigraph.Quad[]): Triple[] {
  const names = new Map<string, string>();
  const term = (t: oxigraph.Term) => {
    if (t.termType !== 'BlankNode') return t;
    if (!names.has(t.value)) names.set(t.value, String(names.size));
    return variable('b', names.get(t.value)!);
  };
  return quads.map(
    (q) => ({ subject: term(q.subject), predicate: q.predicate, object: term(q.object) }) as unknown as Triple,
  );
}

/** A patch as a store applies it: triples with no blank node to remove, an update removing the others by pattern, and triples to add (their blank nodes new). */
export interface PatchPlan {
  readonly remove: readonly oxigraph.Quad[];
  readonly removeByPattern: readonly TripleText[];
  /** `DELETE WHERE` for each group of removed triples sharing blank nodes. */
  readonly patternRemovals: readonly UpdateOperation[];
  readonly add: readonly oxigraph.Quad[];
}

/** How a store applies `patch` to `graph` (in its quads, the graph is `graph`). */
export function planPatch(graph: string, patch: GraphPatch): PatchPlan {
  const g = oxigraph.namedNode(graph);
  const byPattern = patch.remove.filter(namesBlankNode);
  const groups = blankGroups(parseTriples(byPattern));
  // Blank nodes added are new: their labels, unique to this patch, are made unique to the store.
  const fresh = randomBytes(8).toString('hex');
  const renamed = <T extends oxigraph.Term>(t: T): T =>
    (t.termType === 'BlankNode' ? oxigraph.blankNode(`${fresh}${t.value}`) : t) as T;
  return {
    remove: parseTriples(patch.remove.filter((t) => !namesBlankNode(t))).map((q) =>
      oxigraph.quad(q.subject, q.predicate, q.object, g),
    ),
    removeByPattern: byPattern,
    patternRemovals: groups.map((group) => deleteWhere(namedNode(graph), asPatterns(group))),
    add: parseTriples(patch.add).map((q) => oxigraph.quad(renamed(q.subject), q.predicate, renamed(q.object), g)),
  };
}

/**
 * Applies `patch` to `graph` of an Oxigraph store (emptied first with `clear`), removals first.
 * Answers what changed; a triple removed that was not there, or added that was, is left out.
 */
export function applyPatch(store: oxigraph.Store, graph: string, patch: GraphPatch, clear = false): AppliedPatch {
  const plan = planPatch(graph, clear ? { remove: [], add: patch.add } : patch);
  if (clear) store.update(serialize(update(dropGraph(namedNode(graph)))));
  const removed: TripleText[] = [];
  for (const quad of plan.remove) {
    if (!store.has(quad)) continue;
    store.delete(quad);
    removed.push(tripleText(quad));
  }
  if (plan.patternRemovals.length > 0) store.update(serialize(update(...plan.patternRemovals)));
  const added: TripleText[] = [];
  for (const quad of plan.add) {
    if (store.has(quad)) continue;
    store.add(quad);
    added.push(tripleText(quad));
  }
  return {
    patch: { remove: clear ? patch.remove : [...removed, ...plan.removeByPattern], add: added },
    removedByPattern: clear || plan.patternRemovals.length > 0,
  };
}
