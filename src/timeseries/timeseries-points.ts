/**
 * Which point of a site's graph carries each timeseries id, with what the timeseries API shows of
 * it (name, type, unit, equipment), in one SPARQL query anchored on the ids. The rows use the
 * compiler's variable names so that its record reader and shaping rules (MAPPING.md names, types,
 * units, equipmentId) apply unchanged.
 */
import { readEntityRowsInSlices } from '../compiler/entity-records.ts';
import type { Selection } from '../compiler/plan.ts';
import { byName, kindsOf, nameOf, shapeEntity, type EntityObject } from '../compiler/shape-entity.ts';
import { siteIds } from '../compiler/site-ids-cache.ts';
import { siteProfile } from '../compiler/site-profile.ts';
import { ALL_PATHS, tagOf, timeseriesPath } from '../compiler/sparql-patterns.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { alternative, graph, literal, namedNode, optional, select, triple, values, variable, type SelectQuery, type VariableTerm } from '../rdf/sparql-algebra.ts';
import { BRICK, RDF, RDFS, SKOS, siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore, SparqlRow } from '../store/graph-store.ts';

/** What the graph says about the point of a timeseries. */
export interface TimeseriesPoint {
  readonly pointId: string;
  readonly name: string;
  readonly type: string;
  readonly unit: string | null;
  /** The name of the equipment the point belongs to; null for a point of a zone or location. */
  readonly equipment: string | null;
  readonly equipmentId: string | null;
}

const POINT_FIELDS: Selection = {
  kind: 'Point',
  attributes: new Set(['unit', 'owner']),
  fields: [
    { key: 'id', type: 'scalar', field: 'id' },
    { key: 'name', type: 'scalar', field: 'name' },
    { key: 'type', type: 'scalar', field: 'type' },
    { key: 'unit', type: 'scalar', field: 'unit' },
    { key: 'equipmentId', type: 'scalar', field: 'equipmentId' },
  ],
};

const [TYPE, LABEL, PREF_LABEL, BRICK_LABEL, HAS_UNIT, HAS_UNITS] = [`${RDF}type`, `${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`, `${BRICK}hasUnit`, `${BRICK}hasUnits`].map(namedNode);
const [tsid, e, tag, t, l0, l1, l2, u, own, ownt, ol0, ol1, ol2] = ['tsid', 'e', 'tag', 't', 'l0', 'l1', 'l2', 'u', 'own', 'ownt', 'ol0', 'ol1', 'ol2'].map((name) => variable(name)) as VariableTerm[] as [
  VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm,
];

/** The query: points by timeseries id (every style of MAPPING.md), their facts, their owners' labels. */
export function timeseriesPointsQuery(siteId: string, timeseriesIds: readonly string[]): SelectQuery {
  return select({
    variables: [tsid, e, tag, t, l0, l1, l2, u, own, ownt, ol0, ol1, ol2],
    where: [
      graph(
        namedNode(siteGraph(siteId)),
        values(tsid, timeseriesIds.map((id) => literal(id))),
        triple(e, timeseriesPath()!, tsid),
        tagOf(e, ALL_PATHS),
        optional(triple(e, TYPE!, t)),
        optional(triple(e, LABEL!, l0)),
        optional(triple(e, PREF_LABEL!, l1)),
        optional(triple(e, BRICK_LABEL!, l2)),
        optional(triple(e, alternative([HAS_UNIT!, HAS_UNITS!]), u)),
        optional(
          triple(own, ALL_PATHS.point, e),
          optional(triple(own, TYPE!, ownt)),
          optional(triple(own, LABEL!, ol0)),
          optional(triple(own, PREF_LABEL!, ol1)),
          optional(triple(own, BRICK_LABEL!, ol2)),
        ),
      ),
    ],
  });
}

/** The owners' own records (labels and types), read from the `?own…` columns. */
function ownerRows(rows: readonly SparqlRow[]): SparqlRow[] {
  return rows.filter((row) => row.own).map((row) => ({ e: row.own, t: row.ownt, l0: row.ol0, l1: row.ol1, l2: row.ol2 }));
}

/**
 * The point of each timeseries id found in the site's graph; ids no point carries are absent.
 * When several points share an id, the first by name (then IRI) describes it.
 */
export async function timeseriesPoints(store: GraphStore, ontology: Ontology, siteId: string, timeseriesIds: readonly string[]): Promise<Map<string, TimeseriesPoint>> {
  const result = new Map<string, TimeseriesPoint>();
  if (timeseriesIds.length === 0) return result;
  const graph = siteGraph(siteId);
  const [rows, ids] = await Promise.all([store.select(timeseriesPointsQuery(siteId, timeseriesIds), { site: graph }), siteIds(store, graph, await siteProfile(store, graph))]);
  const { records } = await readEntityRowsInSlices(rows);
  const owners = (await readEntityRowsInSlices(ownerRows(rows))).records;
  const pointsOf = new Map<string, Map<string, EntityObject>>();
  for (const row of rows) {
    const id = row.tsid?.value;
    const record = row.e && records.get(row.e.value);
    if (id === undefined || !record || !kindsOf(record, ontology).has('Point')) continue;
    let points = pointsOf.get(id);
    if (!points) pointsOf.set(id, (points = new Map()));
    if (!points.has(record.iri)) points.set(record.iri, shapeEntity(record, POINT_FIELDS, ontology, ids));
  }
  for (const [id, points] of pointsOf) {
    const point = [...points.values()].sort(byName)[0]!;
    const equipmentId = point.equipmentId as string;
    const owner = equipmentId === '' ? undefined : [...records.get(point.__iri)!.owners.keys()].sort().find((o) => ids.idOf(o) === equipmentId);
    const ownerRecord = owner === undefined ? undefined : owners.get(owner);
    result.set(id, {
      pointId: point.id as string,
      name: point.name as string,
      type: point.type as string,
      unit: point.unit as string | null,
      equipment: ownerRecord ? nameOf(ownerRecord) : null,
      equipmentId: equipmentId === '' ? null : equipmentId,
    });
  }
  return result;
}
