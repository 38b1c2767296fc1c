import { isObjectType, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { buildPlan, type PlannedField } from '../compiler/build-plan.ts';
import type { RootPlan, RootQueryName } from '../compiler/plan.ts';
import type { EntityObject } from '../query/shape-entity.ts';
import type { PlanAnswer } from '../query/execute-plan.ts';
import { requireSite } from '../tenants/site-directory.ts';
import type { GraphQLContext } from './context.ts';
import { pointValuesResolver } from './point-values-subscription.ts';
import { graphChangesResolver } from './graph-changes-subscription.ts';

const ROOT_QUERIES: readonly RootQueryName[] = [
  'building',
  'equipment',
  'point',
  'zone',
  'system',
  'location',
  'entityByIfcId',
];
/** The root lists with a count field beside them (`pointCount`). */
const COUNTED: readonly RootQueryName[] = ['building', 'equipment', 'point', 'zone', 'system'];
const ENTITY_TYPES = ['Building', 'Equipment', 'Point', 'Location', 'Zone', 'System'];

/** Every root query field by name: the query it plans, and whether it is the list's count. */
export const ROOT_FIELDS: ReadonlyMap<string, { readonly query: RootQueryName; readonly count: boolean }> = new Map([
  ...ROOT_QUERIES.map((query): [string, { query: RootQueryName; count: boolean }] => [query, { query, count: false }]),
  ...COUNTED.map((query): [string, { query: RootQueryName; count: boolean }] => [
    `${query}Count`,
    { query, count: true },
  ]),
]);

/** A root field: its whole selection planned and run at once; the plan, and the answer it made. */
export async function runRootField(
  name: string,
  args: Record<string, unknown>,
  context: GraphQLContext,
  field: PlannedField,
): Promise<{ plan: RootPlan; answer: PlanAnswer }> {
  const { query, count } = ROOT_FIELDS.get(name)!;
  // Taken before the first await, so the request's one currentValue lookup waits for this field.
  const readings = context.readings.ticket();
  try {
    const siteId = args.siteId as string;
    await requireSite(context.sites, context.client, siteId);
    if (!context.versions.has(siteId)) context.versions.set(siteId, await context.history.version(siteId));
    // Class arguments, kinds and types as this site reads them (its older Brick names, its own classes).
    const ontology = await context.query.siteOntology(siteId);
    const plan = buildPlan(query, siteId, args, field, ontology, count);
    return { plan, answer: await context.query.execute(plan, ontology, readings, context.work) };
  } finally {
    readings.done();
  }
}

/** A root field for graphql-js (most requests are answered without it: `direct-execution.ts`). */
const rootResolver = async (
  _source: unknown,
  args: Record<string, unknown>,
  context: GraphQLContext,
  info: GraphQLResolveInfo,
) =>
  (
    await runRootField(info.fieldName, args, context, {
      request: info,
      responseKey: info.path.key as string,
      fieldNodes: info.fieldNodes,
    })
  ).answer;

/** Entity objects hold their values by response key (aliases included), filled by the plan. */
const byResponseKey = (source: EntityObject, _args: unknown, _context: unknown, info: GraphQLResolveInfo) =>
  source[info.path.key as string];

/** The resolver map: root queries compile the selection; entity fields read what the plan filled. */
export function createResolvers(schema: GraphQLSchema) {
  const resolvers: Record<string, Record<string, unknown>> = {
    Query: Object.fromEntries([...ROOT_FIELDS.keys()].map((name) => [name, rootResolver])),
    KgEntity: { __resolveType: (source: EntityObject) => source.__kind },
    Subscription: { pointValues: pointValuesResolver, graphChanges: graphChangesResolver },
  };
  for (const typeName of ENTITY_TYPES) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) continue;
    resolvers[typeName] = Object.fromEntries(Object.keys(type.getFields()).map((field) => [field, byResponseKey]));
  }
  return resolvers;
}
