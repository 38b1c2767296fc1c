import type { RequestWork } from '../limits/request-work.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import type { ReadingStore, SeriesPoint } from '../readings/reading-store.ts';
import type { SiteRecord, SiteStore } from '../tenants/site-store.ts';
import { parseTimeseriesQuery } from './timeseries-query.ts';
import { timeseriesPoints } from './timeseries-points.ts';
import { formatInZone } from '../readings/zoned-time.ts';

/** Why an id has no series in the answer. */
export const UNKNOWN_TIMESERIES = "No point of this site's graph carries this timeseries id.";

/** Engines the timeseries API reads. */
export interface TimeseriesSources {
  readonly sites: SiteStore;
  /** Where the points carrying the ids are found. */
  readonly query: QueryLayer;
  readonly readings: ReadingStore;
  readonly now?: () => number;
}

/**
 * The answer of `POST /sites/{id}/timeseries` (docs/readings.md, "History") for a site the caller may
 * read, and of the MCP `timeseries` tool: historical readings of up to 200 series, raw or
 * aggregated per window. Ids are checked against the site's graph (two SPARQL queries: the points, their equipment); readings come
 * in one SQL query. Instants are ISO-8601 in the site's timezone with their offset.
 */
export async function answerTimeseries(
  sources: TimeseriesSources,
  site: SiteRecord,
  body: unknown,
  work?: RequestWork,
) {
  const { query: entities, readings } = sources;
  const now = sources.now ?? Date.now;
  const query = parseTimeseriesQuery(body ?? {}, now(), site.timezone);
  const points = await timeseriesPoints(entities, site.id, query.timeseriesIds, work);
  const known = query.timeseriesIds.filter((id) => points.has(id));
  const errors: Record<string, string> = {};
  for (const id of query.timeseriesIds) if (!points.has(id)) errors[id] = UNKNOWN_TIMESERIES;
  let data = new Map<string, SeriesPoint[]>();
  if (known.length > 0) {
    data = query.window
      ? await readings.aggregate(site.id, known, {
          start: query.start,
          end: query.end,
          windowMs: query.window.ms,
          aggregate: query.window.aggregate,
          limit: query.limit,
        })
      : await readings.range(site.id, known, query.start, query.end, query.limit);
  }
  const zone = site.timezone;
  return {
    query: {
      start: formatInZone(query.start, zone),
      end: formatInZone(query.end, zone),
      window: query.window?.text ?? null,
      aggregate: query.window?.aggregate ?? null,
      timezone: zone,
    },
    series: known.map((id) => {
      const point = points.get(id)!;
      return {
        timeseriesId: id,
        name: point.name,
        type: point.type,
        unit: point.unit,
        equipment: point.equipment,
        pointId: point.pointId,
        equipmentId: point.equipmentId,
        data: (data.get(id) ?? []).map((p) => ({ t: formatInZone(p.ms, zone), v: p.value })),
      };
    }),
    errors,
  };
}
