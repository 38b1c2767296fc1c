import { z } from 'zod';
import { json, text, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The GraphQL paths. */
export function graphqlPaths(path: PathRegistrar): void {
  const open = { security: [] };
  const graphqlRequest = z
    .object({
      query: z.string(),
      variables: z.record(z.string(), z.unknown()).optional(),
      operationName: z.string().optional(),
    })
    .meta({ id: 'GraphQLRequest' });
  const graphqlResult = z
    .object({
      data: z.unknown().optional(),
      errors: z
        .array(
          z
            .object({
              message: z.string(),
              extensions: z.object({ code: z.string() }).catchall(z.unknown()).optional(),
            })
            .catchall(z.unknown()),
        )
        .optional(),
    })
    .meta({ id: 'GraphQLResult' });
  const graphqlResponse = json(
    graphqlResult,
    'GraphQL result: `data`, and `errors` with `extensions.code`. Subscriptions stream as server-sent events with `Accept: text/event-stream`.',
  );
  path({
    method: 'post',
    path: '/graphql',
    tags: [TAGS.graphql],
    summary: 'GraphQL queries and subscriptions (schema: /graphql/schema.graphql)',
    security: [{ bearer: [] }, {}],
    request: { body: { required: true, content: { 'application/json': { schema: graphqlRequest } } } },
    responses: {
      200: graphqlResponse,
      400: graphqlResponse,
      401: graphqlResponse,
      429: graphqlResponse,
      503: graphqlResponse,
    },
  });
  path({
    method: 'get',
    path: '/graphql',
    tags: [TAGS.graphql],
    summary: 'GraphiQL in a browser (Accept: text/html), or a query in the URL',
    security: [{ bearer: [] }, {}],
    request: {
      query: z.object({
        query: z.string().optional(),
        variables: z.string().optional(),
        operationName: z.string().optional(),
      }),
    },
    responses: {
      200: {
        description: 'GraphiQL, or a GraphQL result.',
        content: { 'text/html': { schema: z.string() }, 'application/json': { schema: graphqlResult } },
      },
    },
  });
  path({
    method: 'get',
    path: '/graphql/schema.graphql',
    tags: [TAGS.docs],
    summary: 'The GraphQL schema (SDL), with descriptions',
    ...open,
    responses: { 200: text('The SDL.', ['text/plain']) },
  });
}
