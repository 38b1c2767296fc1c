import { readFileSync } from 'node:fs';
import { createSchema, createYoga } from 'graphql-yoga';
import { buildSchema } from 'graphql';
import type { Request } from 'express';
import type { Config } from '../config/config.ts';
import '../http/request-context.ts';
import type { GraphQLContext } from './context.ts';
import { createResolvers } from './resolvers.ts';
import { maskError, useErrorCodes } from './use-error-codes.ts';
import { useQueryLimits } from './use-query-limits.ts';

/** The schema's SDL, as published. */
export const typeDefs = readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8');

const DEMO_QUERY = `# The demo site: a building with its AHUs, VAVs and zones.
{
  equipment(siteId: "demo", is: "AHU") {
    name
    type
    points { name type unit timeseriesId }
    downstream(maxDepth: 1) { name type }
  }
}
`;

/** The GraphQL endpoint: schema, resolvers, limits and error mapping; the caller comes from express. */
export function createGraphQL(config: Config, services: Omit<GraphQLContext, 'client'>) {
  const resolvers = createResolvers(buildSchema(typeDefs));
  return createYoga<{ req: Request }, GraphQLContext>({
    schema: createSchema({ typeDefs, resolvers }),
    context: ({ req }) => ({ store: services.store, ontology: services.ontology, sites: services.sites, readings: services.readings, live: services.live, client: req.client }),
    graphqlEndpoint: '/graphql',
    graphiql: { defaultQuery: DEMO_QUERY, title: 'Building knowledge graph' },
    landingPage: false,
    maskedErrors: { maskError, isDev: config.environment === 'development' },
    plugins: [...useQueryLimits(config.graphqlLimits), useErrorCodes()],
    logging: false,
  });
}
