import type { IfcConnectionRow } from '../files/ifc-model-store.ts';

/** How far a walk goes through pipes, ducts and fittings, in elements, and how many it visits at most. */
const MAX_HOPS = 24;
const MAX_VISITS = 500;

/**
 * The pairs of mappable elements (equipment, terminals) joined through their ports, directly or
 * through elements that are not (segments, fittings): a walk from each mappable element that stops
 * at the mappable ones it reaches. Bounded per element, so linear in the elements.
 */
export function portNeighbours(
  rows: readonly IfcConnectionRow[],
  mappable: (fileId: string, globalId: string) => boolean,
): Array<readonly [string, string, string]> {
  const adjacent = new Map<string, string[]>();
  const join = (from: string, to: string) => {
    const list = adjacent.get(from);
    if (list) list.push(to);
    else adjacent.set(from, [to]);
  };
  for (const row of rows) {
    join(`${row.file_id}\u0000${row.from_id}`, `${row.file_id}\u0000${row.to_id}`);
    join(`${row.file_id}\u0000${row.to_id}`, `${row.file_id}\u0000${row.from_id}`);
  }
  const pairs: Array<readonly [string, string, string]> = [];
  for (const start of adjacent.keys()) {
    const [fileId, globalId] = start.split('\u0000') as [string, string];
    if (!mappable(fileId, globalId)) continue;
    const seen = new Set([start]);
    let frontier = [start];
    for (let hop = 0; hop < MAX_HOPS && frontier.length > 0 && seen.size < MAX_VISITS; hop++) {
      const next: string[] = [];
      for (const node of frontier) {
        for (const neighbour of adjacent.get(node) ?? []) {
          if (seen.has(neighbour)) continue;
          seen.add(neighbour);
          const other = neighbour.split('\u0000')[1]!;
          // Each pair once: from the smaller GlobalId.
          if (mappable(fileId, other)) {
            if (globalId < other) pairs.push([fileId, globalId, other]);
          } else next.push(neighbour);
        }
      }
      frontier = next;
    }
  }
  return pairs;
}
