/**
 * Which point of a site's graph carries each timeseries id, with what the timeseries API shows of
 * it (name, type, unit, equipment), asked of the query layer: the points carrying the ids, and
 * their equipment, as GraphQL's `point { equipment }` finds them.
 */
import type { RequestWork } from '../limits/request-work.ts';
import { queryEntities } from '../query/query-entities.ts';
import type { QueryLayer } from '../query/query-layer.ts';

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

/** Orders by name, then IRI: the point that describes a timeseries several points share. */
const byName = (a: { name: string; iri: string }, b: { name: string; iri: string }): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0;

/**
 * The point of each timeseries id found in the site's graph; ids no point carries are absent.
 * When several points share an id, the first by name (then IRI) describes it.
 */
export async function timeseriesPoints(
  query: QueryLayer,
  siteId: string,
  timeseriesIds: readonly string[],
  work?: RequestWork,
): Promise<Map<string, TimeseriesPoint>> {
  const result = new Map<string, TimeseriesPoint>();
  if (timeseriesIds.length === 0) return result;
  const points = await queryEntities(query, {
    siteId,
    kind: 'Point',
    where: { timeseriesIds },
    fields: ['id', 'name', 'type', 'unit', 'timeseriesIds'],
    related: { field: 'equipment', fields: ['id', 'name'] },
    work,
  });
  const asked = new Set(timeseriesIds);
  for (const point of points.sort(byName)) {
    const equipment = point.related[0];
    for (const id of point.timeseriesIds) {
      if (!asked.has(id) || result.has(id)) continue;
      result.set(id, {
        pointId: point.id,
        name: point.name,
        type: point.type,
        unit: point.unit,
        equipment: equipment?.name ?? null,
        equipmentId: equipment?.id ?? null,
      });
    }
  }
  return result;
}
