/**
 * `Subscription.pointValues(siteId, pointIds, is)`: a point's new readings as they arrive. The
 * watched points are resolved through the graph once, when the subscription starts, by the
 * compiler (a root `point` plan per id, or one for the whole class), with the tenancy of queries.
 * Then each reading announced for the site (REST, MQTT, simulator; from any replica with Redis)
 * is pushed to the subscriber for every watched point carrying its timeseries.
 */
import { classFilter } from '../compiler/build-plan.ts';
import { executePlan } from '../compiler/execute-plan.ts';
import { siteOntology } from '../compiler/site-ontology.ts';
import type { ClassFilter, Constraint, RootPlan, Selection } from '../compiler/plan.ts';
import type { EntityObject } from '../compiler/shape-entity.ts';
import { badUserInput, notFound } from '../errors/app-error.ts';
import type { Client } from '../auth/client.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { requireSite, type SiteDirectory } from '../sites/site-directory.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { noCurrentValues, type PointValue } from './current-values.ts';
import { EventQueue } from './event-queue.ts';
import { pointValue } from './point-value.ts';
import type { ReadingEvents } from './reading-events.ts';

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
  readonly store: GraphStore;
  readonly ontology: Ontology;
  readonly sites: SiteDirectory;
  readonly client: Client;
  readonly live: LivePointValues;
}

const WATCHED_FIELDS: Selection = {
  kind: 'Point',
  attributes: new Set(['timeseries']),
  fields: [
    { key: 'id', type: 'scalar', field: 'id' },
    { key: 'uri', type: 'scalar', field: 'uri' },
    { key: 'timeseriesId', type: 'scalar', field: 'timeseriesId' },
  ],
};

/** The root plans that find the watched points: one per id (each anchored on it), or one for all. */
function watchPlans(siteId: string, pointIds: readonly string[] | undefined, classes: ClassFilter | undefined, ontology: Ontology): RootPlan[] {
  const constraints: Constraint[] = [{ type: 'kind', kind: 'Point', classes: ontology.sortedKindClasses('Point') }];
  if (classes) constraints.push({ type: 'class', classes });
  const plan = (extra: Constraint[]): RootPlan => ({
    key: 'pointValues',
    query: 'point',
    siteId,
    graph: siteGraph(siteId),
    kind: 'Point',
    answer: 'list',
    constraints: [...constraints, ...extra],
    selection: WATCHED_FIELDS,
  });
  return pointIds ? pointIds.map((id) => plan([{ type: 'id', id }])) : [plan([])];
}

/** The watched points by timeseries id; NOT_FOUND naming the point ids that matched no point. */
async function watchedPoints(
  ctx: SubscriptionContext,
  siteId: string,
  pointIds: readonly string[] | undefined,
  classes: ClassFilter | undefined,
): Promise<Map<string, EntityObject[]>> {
  const ontology = await siteOntology(ctx.store, ctx.ontology, siteGraph(siteId));
  const plans = watchPlans(siteId, pointIds, classes, ontology);
  const results = await Promise.all(plans.map((plan) => executePlan(plan, { store: ctx.store, ontology, readings: noCurrentValues }) as Promise<EntityObject[]>));
  const missing = pointIds?.filter((_, i) => results[i]!.length === 0) ?? [];
  if (missing.length > 0) {
    const named = missing.slice(0, 10).map((id) => `"${id.slice(0, 200)}"`).join(', ');
    throw notFound(`No point${classes ? ' of that class' : ''} with id ${named} in site "${siteId}".`);
  }
  const byTimeseries = new Map<string, EntityObject[]>();
  const seen = new Set<string>();
  for (const point of results.flat()) {
    const timeseriesId = point.timeseriesId as string | null;
    if (timeseriesId === null || seen.has(point.__iri)) continue;
    seen.add(point.__iri);
    const points = byTimeseries.get(timeseriesId);
    if (points) points.push(point);
    else byTimeseries.set(timeseriesId, [point]);
  }
  return byTimeseries;
}

/** Starts a subscription: checks access, resolves the watched points, listens to the site. */
export async function subscribePointValues(args: Record<string, unknown>, ctx: SubscriptionContext): Promise<AsyncIterableIterator<PointValueUpdate>> {
  const siteId = args.siteId as string;
  await requireSite(ctx.sites, ctx.client, siteId);
  const pointIds = Array.isArray(args.pointIds) ? [...new Set(args.pointIds as string[])] : undefined;
  if (pointIds && pointIds.length > MAX_WATCHED_POINT_IDS) {
    throw badUserInput(`At most ${MAX_WATCHED_POINT_IDS} pointIds, got ${pointIds.length}.`, { argument: 'pointIds' });
  }
  const classes = classFilter(await siteOntology(ctx.store, ctx.ontology, siteGraph(siteId)), 'is', typeof args.is === 'string' ? args.is : undefined);
  const [watched, timeZone] = await Promise.all([watchedPoints(ctx, siteId, pointIds, classes), ctx.live.timeZoneOf(siteId)]);
  const queue = new EventQueue<PointValueUpdate>();
  const stop = await ctx.live.events.listen(siteId, (readings) => {
    for (const reading of readings) {
      for (const point of watched.get(reading.timeseriesId) ?? []) {
        queue.push({
          pointId: point.id as string,
          pointUri: point.uri as string,
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
  subscribe: (_source: unknown, args: Record<string, unknown>, ctx: SubscriptionContext) => subscribePointValues(args, ctx),
  resolve: (update: PointValueUpdate) => update,
};
