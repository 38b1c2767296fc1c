import { isObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { buildPlan } from '../compiler/build-plan.ts';
import { executePlan } from '../compiler/execute-plan.ts';
import type { RootQueryName } from '../compiler/plan.ts';
import type { EntityObject } from '../compiler/shape-entity.ts';
import { pointValuesResolver } from '../readings/point-values-subscription.ts';
import { requireSite } from '../sites/site-directory.ts';
import type { GraphQLContext } from './context.ts';

const ROOT_QUERIES: readonly RootQueryName[] = ['building', 'equipment', 'point', 'zone', 'system', 'location', 'entityByIfcId'];
/** The root lists with a count field beside them (`pointCount`). */
const COUNTED: readonly RootQueryName[] = ['building', 'equipment', 'point', 'zone', 'system'];
const ENTITY_TYPES = ['Building', 'Equipment', 'Point', 'Location', 'Zone', 'System'];

/** A root field: the whole selection below it is planned and run here, at once. `count`: the list's count field. */
function rootResolver(query: RootQueryName, count = false) {
  return async (_source: unknown, args: Record<string, unknown>, context: GraphQLContext, info: GraphQLResolveInfo) => {
    // Taken before the first await, so the request's one currentValue lookup waits for this field.
    const readings = context.readings.ticket();
    try {
      const siteId = args.siteId as string;
      await requireSite(context.sites, context.client, siteId);
      const plan = buildPlan(query, siteId, args, { request: info, responseKey: info.path.key as string, fieldNodes: info.fieldNodes }, context.ontology, count);
      return await executePlan(plan, { store: context.store, ontology: context.ontology, readings });
    } finally {
      readings.done();
    }
  };
}

/** Entity objects hold their values by response key (aliases included), filled by the plan. */
const byResponseKey = (source: EntityObject, _args: unknown, _context: unknown, info: GraphQLResolveInfo) => source[info.path.key as string];

/** The resolver map: root queries compile the selection; entity fields read what the plan filled. */
export function createResolvers(schema: GraphQLSchema) {
  const resolvers: Record<string, Record<string, unknown>> = {
    Query: Object.fromEntries([...ROOT_QUERIES.map((q) => [q, rootResolver(q)]), ...COUNTED.map((q) => [`${q}Count`, rootResolver(q, true)])]),
    KgEntity: { __resolveType: (source: EntityObject) => source.__kind },
    Subscription: { pointValues: pointValuesResolver },
  };
  for (const typeName of ENTITY_TYPES) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) continue;
    resolvers[typeName] = Object.fromEntries(Object.keys(type.getFields()).map((field) => [field, byResponseKey]));
  }
  return resolvers;
}
