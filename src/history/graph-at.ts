import oxigraph from 'oxigraph';
import { siteGraph } from '../rdf/vocabulary.ts';
import { applyPatch } from '../store/apply-patch.ts';
import type { GraphStore } from '../store/graph-store.ts';
import type { GraphHistory } from './graph-history.ts';

/**
 * The graph at an older version, when its changes since are kept: its triples now, with those
 * changes undone in a copy in memory (as large as the graph: exports of older versions are for
 * graphs up to BKG_HISTORY_DIFF_MAX_TRIPLES, whose loads are kept as changes).
 */
export async function graphAt(
  store: GraphStore,
  history: GraphHistory,
  site: string,
  version: number,
): Promise<string> {
  const graph = siteGraph(site);
  const undo = await history.change(site, await history.version(site), version);
  const copy = new oxigraph.Store();
  const node = oxigraph.namedNode(graph);
  copy.load(await store.exportGraph(graph, 'application/n-triples'), {
    format: 'application/n-triples',
    to_graph_name: node,
  });
  applyPatch(copy, graph, undo);
  return copy.dump({ format: 'application/n-triples', from_graph_name: node });
}
