import type { GraphStore } from '../store/graph-store.ts';
import { BKG, ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import type { EntityKind, Ontology } from './ontology.ts';

const KINDS: readonly EntityKind[] = ['Building', 'Location', 'Zone', 'Equipment', 'Point', 'System'];

/**
 * Writes the ontology into its named graph: the file as it is, plus one `?class bkg:kind bkg:<Kind>`
 * triple per class of each kind, so queries can ask "is this entity typed with any class of a
 * kind" with an index probe. Those triples live only in the ontology graph, never in a site's.
 */
export async function loadOntologyGraph(store: GraphStore, ontology: Ontology, ontologyPath: string): Promise<number> {
  await store.replaceGraph(ONTOLOGY_GRAPH, { path: ontologyPath }, 'text/turtle');
  const marks: string[] = [];
  for (const kind of KINDS) {
    for (const cls of ontology.kindClasses(kind)) marks.push(`<${cls}> <${BKG}kind> <${BKG}${kind}> .`);
  }
  const { triples } = await store.mergeGraph(ONTOLOGY_GRAPH, marks.join('\n'), 'application/n-triples');
  return triples;
}
