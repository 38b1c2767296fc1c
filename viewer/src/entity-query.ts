/**
 * What the panel shows of a graph entity, and how the viewer finds entities: the GraphQL queries
 * (one request each) and the shapes they answer. The panel's fields are named fragments, so an
 * entity reads the same whether it was reached by a click, a search or a link in the panel.
 */

export interface PointValue {
  readonly value: number | null;
  readonly timestamp: string | null;
  readonly quality: string;
}

export interface EntityPoint {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly unit: string | null;
  /** QUDT's symbol for the unit (°C), answered by the service. */
  readonly unitSymbol: string | null;
  readonly currentValue: PointValue | null;
}

export type EntityKind = 'Building' | 'Equipment' | 'Location' | 'Zone' | 'System';

/** An entity as lists and search results hold it: enough to name it and find its element. */
export interface EntitySummary {
  readonly __typename: EntityKind;
  readonly id: string;
  readonly name: string;
  readonly type: string;
  /** The GlobalId of its element in the IFC model, if it has one. */
  readonly ifcId: string | null;
}

/** An entity as the panel shows it; `points` and `upstream` only where its type has them. */
export interface GraphEntity extends EntitySummary {
  readonly points?: readonly EntityPoint[];
  readonly upstream?: readonly EntitySummary[];
}

const SUMMARY = '__typename id name type ifcId';
const POINTS = 'points { id name type unit unitSymbol currentValue { value timestamp quality } }';
const PANEL: Readonly<Record<EntityKind, string>> = {
  Building: `fragment BuildingPanel on Building { ${SUMMARY} }`,
  Equipment: `fragment EquipmentPanel on Equipment { ${SUMMARY} ${POINTS} upstream { ${SUMMARY} } }`,
  Location: `fragment LocationPanel on Location { ${SUMMARY} ${POINTS} }`,
  Zone: `fragment ZonePanel on Zone { ${SUMMARY} ${POINTS} upstream { ${SUMMARY} } }`,
  System: `fragment SystemPanel on System { ${SUMMARY} ${POINTS} }`,
};

/** The entity an element (GlobalId) maps to, or null. */
export const ENTITY_BY_IFC_ID = `query ViewerEntity($siteId: String!, $ifcId: String!) {
  entityByIfcId(siteId: $siteId, ifcId: $ifcId) { ...BuildingPanel ...EquipmentPanel ...LocationPanel ...ZonePanel ...SystemPanel }
}
${Object.values(PANEL).join('\n')}`;

/**
 * One entity by kind and id, for an entity reached from a list or a search. A system has no id
 * argument: it is found by its exact name and picked by id.
 */
export const ENTITY_BY_ID: Readonly<Record<EntityKind, string>> = {
  Building: `query ViewerBuilding($siteId: String!, $id: String!) { entities: building(siteId: $siteId, id: $id) { ...BuildingPanel } }\n${PANEL.Building}`,
  Equipment: `query ViewerEquipment($siteId: String!, $id: String!) { entities: equipment(siteId: $siteId, id: $id) { ...EquipmentPanel } }\n${PANEL.Equipment}`,
  Location: `query ViewerLocation($siteId: String!, $id: String!) { entity: location(siteId: $siteId, locationId: $id) { ...LocationPanel } }\n${PANEL.Location}`,
  Zone: `query ViewerZone($siteId: String!, $id: String!) { entities: zone(siteId: $siteId, id: $id) { ...ZonePanel } }\n${PANEL.Zone}`,
  System: `query ViewerSystem($siteId: String!, $name: String!) { entities: system(siteId: $siteId, name: $name, nameMatch: EXACT) { ...SystemPanel } }\n${PANEL.System}`,
};

/** At most this many matches of each kind. */
const MATCHES = 10;

/** How a search term is matched: against names (case-insensitive substring), or as a class with its subclasses. */
export type SearchBy = 'name' | 'is';

/** Entities whose name contains the term, or of the class the term names, of every kind that can have an element. */
export function searchQuery(by: SearchBy): string {
  const filter = by === 'name' ? 'name: $term' : 'is: $term';
  return `query ViewerSearch${by === 'name' ? 'ByName' : 'ByClass'}($siteId: String!, $term: String!) {
  equipment(siteId: $siteId, ${filter}, limit: ${MATCHES}) { ${SUMMARY} }
  zone(siteId: $siteId, ${filter}, limit: ${MATCHES}) { ${SUMMARY} }
  system(siteId: $siteId, ${filter}, limit: ${MATCHES}) { ${SUMMARY} }
  building(siteId: $siteId) { locations(recursive: true, ${filter}, limit: ${MATCHES}) { ${SUMMARY} } }
}`;
}

/** A search answer, as one list. */
export interface SearchAnswer {
  readonly equipment: readonly EntitySummary[];
  readonly zone: readonly EntitySummary[];
  readonly system: readonly EntitySummary[];
  readonly building: ReadonlyArray<{ readonly locations: readonly EntitySummary[] }>;
}

/** The entities of a search answer, as one list. */
export function searchEntities(answer: SearchAnswer): EntitySummary[] {
  return [...answer.equipment, ...answer.zone, ...answer.system, ...answer.building.flatMap((b) => b.locations)];
}

/** Matches as the list shows them: each once, those with an element first, then by name. */
export function orderMatches(matches: readonly EntitySummary[]): EntitySummary[] {
  const unique = new Map(matches.map((entity) => [`${entity.__typename} ${entity.id}`, entity]));
  return [...unique.values()].sort((a, b) => Number(!a.ifcId) - Number(!b.ifcId) || a.name.localeCompare(b.name));
}
