/**
 * The GraphQL queries the benchmark sends: what real clients ask (dashboards, 3D viewers,
 * analytics), every root query, on entities of building B01 of the generated portfolio, which is
 * the same building at every size (the generator draws each building from its own seeded stream).
 * Queries anchored on B01 return the same answer at 100k, 1M and 5M triples; the site-wide ones
 * (marked) grow with the site.
 */

/** One query of the suite. */
export interface BenchQuery {
  /** Short id, used in tables and with `--only`. */
  readonly id: string;
  /** What a client asks, for the table. */
  readonly title: string;
  /** The document; `$site` and the anchors below are variables. */
  readonly document: string;
  /** Answers grow with the site (not anchored on one building). */
  readonly siteWide?: boolean;
}

/** Values the documents refer to, read from the loaded site (`anchors.ts`). */
export interface Anchors {
  readonly site: string;
  /** IFC GlobalId of B01's building entity. */
  readonly buildingIfcId: string;
}

/** The variables every query receives. */
export const variablesOf = (anchors: Anchors): Record<string, string> => ({
  site: anchors.site,
  ifc: anchors.buildingIfcId,
});

// GraphQL refuses variables a document declares and does not use: `$ifc` only where it is used.
const q = (body: string) => `query ($site: String!${body.includes('$ifc') ? ', $ifc: String!' : ''}) { ${body} }`;

export const SUITE: readonly BenchQuery[] = [
  {
    id: 'buildings',
    title: 'every building of the site',
    siteWide: true,
    document: q('building(siteId: $site) { id name type }'),
  },
  {
    id: 'hvac-in-building',
    title: '`is` a broad class: HVAC_Equipment in a building',
    document: q('equipment(siteId: $site, locationId: "B01-Building", is: "HVAC_Equipment") { id name type }'),
  },
  {
    id: 'chillers',
    title: '`is` a leaf class over the site: every Chiller',
    siteWide: true,
    document: q('equipment(siteId: $site, is: "Chiller") { id name type }'),
  },
  {
    id: 'building-tree',
    title: '`recursive`: every location under a building',
    document: q('building(siteId: $site, id: "B01-Building") { name locations(recursive: true) { id name type } }'),
  },
  {
    id: 'upstream',
    title: '`upstream` of a VAV (no limit)',
    document: q('equipment(siteId: $site, id: "B01-VAV-2-01") { name upstream { id name type } }'),
  },
  {
    id: 'downstream-depth',
    title: '`downstream(maxDepth: 1)` of an AHU',
    document: q('equipment(siteId: $site, id: "B01-AHU-1") { name downstream(maxDepth: 1) { id name type } }'),
  },
  {
    id: 'downstream-medium',
    title: '`downstream(medium: CHILLED_WATER)` of a chiller',
    document: q(
      'equipment(siteId: $site, id: "B01-CH-1") { name downstream(medium: "CHILLED_WATER") { id name type } }',
    ),
  },
  {
    id: 'zone-upstream',
    title: 'zone `upstream(maxDepth: 2, medium: AIR)`',
    document: q(
      'zone(siteId: $site, id: "B01-Zone-2-01") { name upstream(maxDepth: 2, medium: "AIR") { id name type } }',
    ),
  },
  {
    id: 'building-equipment-points',
    title: 'three levels: building → equipment → points',
    document: q(
      'building(siteId: $site, id: "B01-Building") { name equipment(recursive: true) { id name type points { id name type unit timeseriesId } } }',
    ),
  },
  {
    id: 'ahu-dashboard',
    title: 'AHUs of a building with points and what they feed',
    document: q(
      'equipment(siteId: $site, locationId: "B01-Building", is: "AHU") { name type points { name type unit timeseriesId } downstream(maxDepth: 1) { name type } }',
    ),
  },
  {
    id: 'name-contains',
    title: 'name CONTAINS over the whole site (equipment)',
    siteWide: true,
    document: q('equipment(siteId: $site, name: "VAV-2-0") { id name type }'),
  },
  {
    id: 'has-property',
    title: '`hasProperty` + `propertyValue` over the site',
    siteWide: true,
    document: q(
      'equipment(siteId: $site, hasProperty: "controllerName", propertyValue: "DDC-B01-PLANT") { id name properties { name value } }',
    ),
  },
  {
    id: 'entity-by-ifc',
    title: '`entityByIfcId` (a 3D viewer click)',
    document: q(
      'entityByIfcId(siteId: $site, ifcId: $ifc) { __typename ... on Building { id name } ... on Location { id name } ... on Equipment { id name } }',
    ),
  },
  {
    id: 'points-current-value',
    title: 'points of an AHU with `currentValue`',
    document: q(
      'point(siteId: $site, equipmentId: "B01-AHU-1") { id name timeseriesId currentValue { value timestamp quality } }',
    ),
  },
  {
    id: 'points-of-class',
    title: 'temperature sensors of an AHU (`point(is:)`)',
    document: q('point(siteId: $site, equipmentId: "B01-AHU-1", is: "Temperature_Sensor") { id name unit }'),
  },
  {
    id: 'floor',
    title: '`location`: a floor with its parent, rooms and zones',
    document: q(
      'location(siteId: $site, locationId: "B01-Floor-2") { name parent { name } locations { id name } zones { id name } }',
    ),
  },
  {
    id: 'zone-points',
    title: '`zone` on a floor with its points',
    document: q('zone(siteId: $site, locationId: "B01-Floor-2") { id name points { id name type } }'),
  },
  {
    id: 'system',
    title: '`system` by exact name with members and points',
    document: q(
      'system(siteId: $site, name: "B01 CHW-SYS", nameMatch: EXACT) { name equipment { id name } points { id name } }',
    ),
  },
];

/** The three queries autocannon loads the service with: a lookup, a filtered list, a nested dashboard. */
export const THROUGHPUT_QUERIES: readonly string[] = ['entity-by-ifc', 'hvac-in-building', 'ahu-dashboard'];

/** The query whose nested level the N+1 comparison runs one parent at a time. */
export const N_PLUS_ONE_QUERY = 'building-equipment-points';
