/**
 * The entities a change touched, as a feed tells them: each subject IRI the change added or
 * removed a triple of, with its id and kind. Classes come from the graph after the change (one
 * query bounded by the entities, with the superclasses the graph states of them), and, for an
 * entity the change removed, from the type triples it removed; kinds from Brick's hierarchy. The
 * site's whole reading of the ontology is not asked for: after a change it is read anew, which on
 * a large site costs the store a scan that the next change would wait behind.
 */
import { ENTITY_KINDS, type EntityKind } from '../ontology/entity-kind.ts';
import { localName, siteGraph } from '../rdf/vocabulary.ts';
import type { Ontology } from '../ontology/ontology.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import type { GraphPatch } from '../rdf/rdf-patch.ts';
import { touchedEntities } from './patch-summary.ts';

/** Most entities one query asks the classes of. */
const ENTITIES_PER_QUERY = 2000;

const RDF_TYPE = ' <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <';

/** One entity a change touched: its id (the local name, which the API's `id` arguments accept), IRI and kind (null: none of the API's). */
export interface ChangedEntity {
  readonly id: string;
  readonly uri: string;
  readonly kind: EntityKind | null;
}

/** What a feed tells of one change's entities: at most `max` of them, and whether there were more. */
export interface TouchedEntities {
  readonly entities: ChangedEntity[];
  readonly cut: boolean;
}

/**
 * For each of `patches` (changes of one site), at most `max` of the entities it touched, in IRI
 * order, and whether there were more: asked together (a query per ENTITIES_PER_QUERY entities),
 * not a query per change.
 */
export async function changedEntities(
  query: Pick<QueryLayer, 'entityTypes'>,
  ontology: Pick<Ontology, 'kindsOfTypes'>,
  site: string,
  patches: readonly GraphPatch[],
  max: number,
): Promise<TouchedEntities[]> {
  const touched = patches.map((patch) => [...touchedEntities(patch)].sort());
  const taken = touched.map((entities) => entities.slice(0, max));
  // A few queries of bounded size, however many changes (a follower may catch up on a thousand).
  const all = [...new Set(taken.flat())];
  const types = new Map<string, Set<string>>();
  for (let i = 0; i < all.length; i += ENTITIES_PER_QUERY)
    for (const [uri, classes] of await query.entityTypes(siteGraph(site), all.slice(i, i + ENTITIES_PER_QUERY)))
      types.set(uri, classes);
  return patches.map((patch, i) => {
    const removedTypes = new Map<string, string[]>();
    for (const line of patch.remove) {
      const at = line.indexOf(RDF_TYPE);
      if (at < 0 || !line.startsWith('<')) continue;
      const entity = line.slice(1, at - 1);
      const type = line.slice(at + RDF_TYPE.length, line.indexOf('>', at + RDF_TYPE.length));
      const types = removedTypes.get(entity);
      if (types) types.push(type);
      else removedTypes.set(entity, [type]);
    }
    const entities = taken[i]!.map((uri): ChangedEntity => {
      const kinds = ontology.kindsOfTypes(types.get(uri) ?? removedTypes.get(uri) ?? []);
      return { id: localName(uri), uri, kind: ENTITY_KINDS.find((kind) => kinds.has(kind)) ?? null };
    });
    return { entities, cut: touched[i]!.length > taken[i]!.length };
  });
}
