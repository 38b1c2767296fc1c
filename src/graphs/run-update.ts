/**
 * A change of a site's graph run on the store, step by step (confine-update.ts): the data of its
 * steps gathered into one patch, sent as one change (`GraphStore.changeGraph`) before a step whose
 * WHERE must read what the steps before it did, so each operation sees the graph as the ones
 * before it left it, as SPARQL 1.1 Update says. All or nothing: when a step fails after an earlier
 * change was sent, the changes sent are undone, newest first.
 */
import { badUserInput } from '../errors/app-error.ts';
import type { RequestWork } from '../limits/request-work.ts';
import { composeChanges, composePatches, invertPatch, triplesOfNTriples, type GraphPatch } from '../rdf/rdf-patch.ts';
import type { UpdateStep } from '../sparql-endpoint/confine-update.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { fillTemplates } from './fill-templates.ts';

/** Solutions one WHERE may have: a change larger than this is a load (PUT or POST), not a patch. */
export const MAX_SOLUTIONS = 100_000;

/** What a change did: the graph's triples after it, and the change as made (null past the size of a change: its counts only). */
export interface UpdateOutcome {
  readonly triples: number;
  readonly patch: GraphPatch | null;
  readonly added: number;
  readonly removed: number;
}

export async function runUpdate(
  store: GraphStore,
  graph: string,
  steps: readonly UpdateStep[],
  work?: RequestWork,
): Promise<UpdateOutcome> {
  const applied: GraphPatch[] = [];
  let pending: GraphPatch[] = [];
  let triples: number | undefined;
  /** Triples a clear removed without listing them (a graph past MAX_SOLUTIONS). */
  let cleared = 0;
  const send = async (patch: GraphPatch, clear = false) => {
    const result = await store.changeGraph(graph, patch, clear);
    applied.push(result.patch);
    triples = result.triples;
  };
  const flush = async () => {
    const patch = composePatches(pending);
    pending = [];
    if (patch.remove.length + patch.add.length > 0) await send(patch);
  };
  try {
    for (const step of steps) {
      work?.remainingMs();
      if (step.kind === 'patch') {
        pending.push(step.patch);
      } else if (step.kind === 'clear') {
        pending = [];
        // Its history records what it removed, up to the size of a change (past it, the count).
        const held = await store.countTriples(graph);
        if (held > MAX_SOLUTIONS) cleared = held;
        const removed =
          held > MAX_SOLUTIONS ? [] : triplesOfNTriples(await store.exportGraph(graph, 'application/n-triples'));
        await send({ remove: removed, add: [] }, true);
      } else {
        await flush();
        const rows = await store.select({ ...step.where, limit: MAX_SOLUTIONS + 1 } as typeof step.where, {
          site: graph,
          ...(work ? { work } : {}),
        });
        if (rows.length > MAX_SOLUTIONS)
          throw badUserInput(
            `A WHERE of the update has more than ${MAX_SOLUTIONS.toLocaleString('en')} solutions: a change that large is a load (PUT or POST of the graph), not a patch.`,
            { limit: MAX_SOLUTIONS },
          );
        pending.push(fillTemplates(step.remove, step.add, rows, step.label));
      }
    }
    await flush();
  } catch (error) {
    await undo(store, graph, applied);
    throw error;
  }
  const patch = composeChanges(applied);
  return {
    triples: triples ?? (await store.countTriples(graph)),
    patch: cleared > 0 ? null : patch,
    added: patch.add.length,
    removed: patch.remove.length + cleared,
  };
}

/** Undoes changes sent, newest first (blank nodes by their triples: see rdf-patch.ts). */
export async function undo(store: GraphStore, graph: string, applied: readonly GraphPatch[]): Promise<void> {
  for (const patch of [...applied].reverse()) await store.changeGraph(graph, invertPatch(patch));
}

/** The steps of an RDF Patch: one change. */
export const patchSteps = (patch: GraphPatch): UpdateStep[] => [{ kind: 'patch', patch }];
