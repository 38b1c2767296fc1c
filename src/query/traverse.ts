/**
 * Breadth-first walk over `feeds` edges fetched by a traversal query: shortest hop count per node,
 * bounded by `maxDepth`, following only edges whose feeding node carries the medium. Start nodes
 * are never results, and a cycle cannot loop: each node is visited once.
 */

export interface TraversalInput {
  /** `feeds` edges as [feeder, fed]. */
  readonly edges: ReadonlyArray<readonly [string, string]>;
  readonly starts: ReadonlySet<string>;
  readonly direction: 'upstream' | 'downstream';
  readonly maxDepth: number | undefined;
  /** Whether an edge from this feeding node may be followed (the medium test). */
  readonly follows: (feeder: string) => boolean;
}

/** The nodes reached, with their hop distance from the nearest start node. */
export function traverse(input: TraversalInput): Map<string, number> {
  const next = new Map<string, string[]>();
  for (const [feeder, fed] of input.edges) {
    if (!input.follows(feeder)) continue;
    const [from, to] = input.direction === 'downstream' ? [feeder, fed] : [fed, feeder];
    const list = next.get(from);
    if (list) list.push(to);
    else next.set(from, [to]);
  }
  const depth = new Map<string, number>();
  let frontier = [...input.starts];
  const seen = new Set(input.starts);
  for (let hop = 1; frontier.length > 0 && (input.maxDepth === undefined || hop <= input.maxDepth); hop++) {
    const following: string[] = [];
    for (const node of frontier) {
      for (const to of next.get(node) ?? []) {
        if (seen.has(to)) continue;
        seen.add(to);
        depth.set(to, hop);
        following.push(to);
      }
    }
    frontier = following;
  }
  return depth;
}
