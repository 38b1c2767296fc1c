import type { GraphStore } from '../../src/store/graph-store.ts';

/** N-Triples text as sorted lines, blank node labels made comparable (each store names them its own way). */
export function comparableTriples(ntriples: string): string[] {
  return ntriples
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/_:\S+/g, '_:b'))
    .sort();
}

/** A graph's triples as comparable N-Triples lines. */
export async function triplesOf(store: GraphStore, graph: string): Promise<string[]> {
  return comparableTriples(await store.exportGraph(graph, 'application/n-triples'));
}
