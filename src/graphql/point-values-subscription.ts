/**
 * `Subscription.pointValues(siteId, pointIds, is)`: a point's new readings as they arrive. The
 * watched points are resolved through the graph once, when the subscription starts, by the query
 * layer (the points of each id, each anchored on it, or of the whole class), with the tenancy of queries.
 * Then each reading announced for the site (REST, MQTT, simulator; from any replica with Redis)
 * is pushed to the subscriber for every watched point carrying its timeseries.
 */
import type { Client } from '../auth/client.ts';
import { badUserInput, notFound } from '../errors/app-error.ts';
import { queryEntities, type Entity } from '../query/query-entities.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import type { PointValue } from '../readings/current-values.ts';
import { EventQueue } from '../redis/event-queue.ts';
import { pointValue } from '../readings/point-value.ts';
import type { ReadingEvents } from '../readings/reading-events.ts';
import { requireSite, type SiteDirectory } from '../tenants/site-directory.ts';

/** Most point ids one subscription may name. */
export const MAX_WATCHED_POINT_IDS = 500;

/** What a subscriber receives: the point, its timeseries, and the reading as `currentValue` shows it. */
export interface PointValueUpdate {
  readonly pointId: string;
  readonly pointUri: string;
  readonly timeseriesId: string;
  readonly value: PointValue;
}

/** What live values need beyond the query context. */
export interface LivePointValues {
  readonly events: ReadingEvents;
  /** The site's IANA timezone, for timestamps. */
  timeZoneOf(siteId: string): Promise<string>;
}

/** The part of the GraphQL context a subscription uses. */
export interface SubscriptionContext {
  readonly query: QueryLayer;
  readonly sites: SiteDirectory;
  readonly client: Client;
  readonly live: LivePointValues;
}

type WatchedPoint = Entity<'id' | 'uri' | 'timeseriesId'>;

/** The watched points by timeseries id; NOT_FOUND naming the point ids that matched no point. */
async function watchedPoints(
  ctx: SubscriptionContext,
  siteId: string,
  pointIds: readonly string[] | undefined,
  is: string | undefined,
): Promise<Map<string, WatchedPoint[]>> {
  const fields = ['id', 'uri', 'timeseriesId'] as const;
  // One question per id, each anchored on it, or one for all the points (of the class).
  const asked = pointIds ? pointIds.map((id) => ({ id, is })) : [{ is }];
  const results = await Promise.all(
    asked.map((where) => queryEntities(ctx.query, { siteId, kind: 'Point', where, fields })),
  );
  const missing = pointIds?.filter((_, i) => results[i]!.length === 0) ?? [];
  if (missing.length > 0) {
    const named = missing
      .slice(0, 10)
      .map((id) => `"${id.slice(0, 200)}"`)
      .join(', ');
    throw notFound(`No point${is !== undefined ? ' of that class' : ''} with id ${named} in site "${siteId}".`);
  }
  const byTimeseries = new Map<string, WatchedPoint[]>();
  const seen = new Set<string>();
  for (const point of results.flat()) {
    if (point.timeseriesId === null || seen.has(point.iri)) continue;
    seen.add(point.iri);
    const points = byTimeseries.get(point.timeseriesId);
    if (points) points.push(point);
    else byTimeseries.set(point.timeseriesId, [point]);
  }
  return byTimeseries;
}

/** Starts a subscription: checks access, resolves the watched points, listens to the site. */
export async function subscribePointValues(
  args: Record<string, unknown>,
  ctx: SubscriptionContext,
): Promise<AsyncIterableIterator<PointValueUpdate>> {
  const siteId = args.siteId as string;
  await requireSite(ctx.sites, ctx.client, siteId);
  const pointIds = Array.isArray(args.pointIds) ? [...new Set(args.pointIds as string[])] : undefined;
  if (pointIds && pointIds.length > MAX_WATCHED_POINT_IDS) {
    throw badUserInput(`At most ${MAX_WATCHED_POINT_IDS} pointIds, got ${pointIds.length}.`, { argument: 'pointIds' });
  }
  const is = typeof args.is === 'string' ? args.is : undefined;
  const [watched, timeZone] = await Promise.all([
    watchedPoints(ctx, siteId, pointIds, is),
    ctx.live.timeZoneOf(siteId),
  ]);
  const queue = new EventQueue<PointValueUpdate>();
  const stop = await ctx.live.events.listen(siteId, (readings) => {
    for (const reading of readings) {
      for (const point of watched.get(reading.timeseriesId) ?? []) {
        queue.push({
          pointId: point.id,
          pointUri: point.uri,
          timeseriesId: reading.timeseriesId,
          value: pointValue({ timestamp: reading.ms, value: reading.value }, timeZone),
        });
      }
    }
  });
  queue.onClose(stop);
  return queue;
}

/** The `Subscription.pointValues` field resolver. */
export const pointValuesResolver = {
  subscribe: (_source: unknown, args: Record<string, unknown>, ctx: SubscriptionContext) =>
    subscribePointValues(args, ctx),
  resolve: (update: PointValueUpdate) => update,
};
