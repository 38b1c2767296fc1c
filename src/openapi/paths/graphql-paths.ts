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
  const ifNoneMatch = z.object({
    'if-none-match': z.string().optional().meta({
      description: 'The ETag of an earlier answer to the same query: 304 when its answer is still the same.',
    }),
  });
  const notModified = { description: 'The answer the ETag names is still the answer (no body).' };
  const answers =
    'An answer without errors that selects no live field (`currentValue`) carries an `ETag`, made of the query, its variables, the caller’s access and the version of each site it read; sent back in `If-None-Match`, it is answered 304 while those are unchanged. Such answers are also kept in memory, so the same query again on an unchanged graph is answered without running.';
  path({
    method: 'post',
    path: '/graphql',
    tags: [TAGS.graphql],
    summary: 'GraphQL queries and subscriptions (schema: /graphql/schema.graphql)',
    description: answers,
    security: [{ bearer: [] }, {}],
    request: {
      headers: ifNoneMatch,
      body: { required: true, content: { 'application/json': { schema: graphqlRequest } } },
    },
    responses: {
      200: graphqlResponse,
      304: notModified,
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
    description: answers,
    security: [{ bearer: [] }, {}],
    request: {
      headers: ifNoneMatch,
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
      304: notModified,
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
