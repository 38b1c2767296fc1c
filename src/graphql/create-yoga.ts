import { readFileSync } from 'node:fs';
import { createSchema, createYoga } from 'graphql-yoga';
import { buildSchema } from 'graphql';
import type { Request } from 'express';
import type { Config } from '../config/config.ts';
import '../http-kit/request-context.ts';
import { CurrentValuesBatch } from '../readings/current-values-batch.ts';
import type { CurrentValues } from '../readings/current-values.ts';
import type { GraphQLContext } from './context.ts';
import { createResolvers } from './resolvers.ts';
import { errorMasking, useErrorCodes } from './use-error-codes.ts';
import { useQueryLimits } from './use-query-limits.ts';
import { useFilterLimits } from './use-filter-limits.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { Logger } from '../log/logger.ts';
import type { SubscriptionSlots } from '../limits/subscription-slots.ts';
import { graphiqlOptions, renderGraphiQL } from './graphiql.ts';
import { useMetrics } from './use-metrics.ts';
import { useSubscriptionCap } from './use-subscription-cap.ts';
import { useDirectExecution } from './direct-execution.ts';
import { useSiteVersions } from './use-site-versions.ts';
import { useStreamedJson } from './use-streamed-json.ts';
import { useAnswerCache } from './use-answer-cache.ts';
import type { AnswerCache } from './answer-cache.ts';

/** The schema's SDL, as published. */
export const typeDefs = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

/** The GraphQL endpoint: schema, resolvers, limits and error mapping; the caller comes from express. */
export function createGraphQL(
  config: Config,
  services: Omit<GraphQLContext, 'client' | 'readings' | 'work' | 'versions'> & {
    readings: CurrentValues;
    metrics: Metrics;
    slots: SubscriptionSlots;
    answers: AnswerCache;
  },
  logger: Logger,
) {
  const resolvers = createResolvers(buildSchema(typeDefs));
  return createYoga<{ req: Request }, GraphQLContext>({
    schema: createSchema({ typeDefs, resolvers }),
    context: ({ req }) => ({
      query: services.query,
      sites: services.sites,
      readings: new CurrentValuesBatch(services.readings),
      live: services.live,
      feed: services.feed,
      client: req.client,
      work: req.work,
      history: services.history,
      versions: new Map(),
    }),
    graphqlEndpoint: '/graphql',
    graphiql: graphiqlOptions,
    renderGraphiQL,
    landingPage: false,
    // CORS is the app's, the same for every route (src/http/use-cors.ts); yoga's own would allow any origin with credentials.
    cors: false,
    maskedErrors: { maskError: errorMasking(logger), isDev: config.environment === 'development' },
    plugins: [
      ...useQueryLimits(config.graphqlLimits),
      useFilterLimits(),
      useErrorCodes(),
      useMetrics(services.metrics),
      useSubscriptionCap(services.slots),
      useDirectExecution(),
      useSiteVersions(),
      useStreamedJson(),
      // Last: it may answer in place of the execution, and writes the answers it keeps.
      useAnswerCache(services.answers, services.metrics),
    ],
    logging: false,
  });
}
