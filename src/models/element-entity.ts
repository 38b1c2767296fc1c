import type { EntityKind } from '../ontology/ontology.ts';
import type { RequestWork } from '../limits/request-work.ts';
import { queryEntities } from '../query/query-entities.ts';
import type { QueryLayer } from '../query/query-layer.ts';

/** The graph entity an IFC element maps to, as the elements endpoint shows it. */
export interface ElementEntity {
  /** Building, Equipment, Location, Zone or System (the KgEntity member). */
  readonly kind: EntityKind;
  readonly id: string;
  readonly uri: string;
  readonly name: string;
  readonly type: string;
}

/**
 * The graph entity carrying an IFC GlobalId, resolved as GraphQL's `entityByIfcId` resolves it
 * (the same plan, compiler and store: the first in IRI order), or null when the graph maps no entity to it.
 */
export async function entityForIfcId(
  query: QueryLayer,
  siteId: string,
  ifcId: string,
  work?: RequestWork,
): Promise<ElementEntity | null> {
  const [found] = await queryEntities(query, {
    siteId,
    kind: 'KgEntity',
    where: { ifcId },
    fields: ['id', 'uri', 'name', 'type'],
    work,
  });
  return found ? { kind: found.kind, id: found.id, uri: found.uri, name: found.name, type: found.type } : null;
}
