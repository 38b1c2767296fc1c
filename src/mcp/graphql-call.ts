/**
 * Runs a GraphQL operation for a tool through the service's own endpoint (yoga, in-process, no
 * socket): the same parsing, depth and cost limits, caller, deadline and error codes as `/graphql`.
 */
import type { Request } from 'express';
import { AppError, isErrorCode } from '../errors/app-error.ts';
import type { Client } from '../auth/client.ts';
import type { RequestWork } from '../limits/request-work.ts';

/** The endpoint as the tools see it: yoga's `fetch`, with the express request as its server context. */
export interface GraphQLEndpoint {
  fetch(url: string, init: RequestInit, context: { req: Request }): Promise<Response> | Response;
}

export interface GraphQLAnswer {
  readonly data?: Record<string, unknown> | null;
  readonly errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } & Record<string, unknown> }>;
}

/** The caller a tool runs for. */
export interface Caller {
  readonly client: Client;
  readonly work: RequestWork | undefined;
}

export async function callGraphQL(
  endpoint: GraphQLEndpoint,
  caller: Caller,
  query: string,
  variables: Record<string, unknown>,
  operationName?: string,
): Promise<GraphQLAnswer> {
  const response = await endpoint.fetch(
    'http://in-process/graphql',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query, variables, operationName }),
    },
    { req: { client: caller.client, work: caller.work } as Request },
  );
  return (await response.json()) as GraphQLAnswer;
}

/** The data of an operation the tools wrote themselves; its first error as the application error it carries. */
export async function graphQLData(
  endpoint: GraphQLEndpoint,
  caller: Caller,
  query: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await callGraphQL(endpoint, caller, query, variables);
  const error = answer.errors?.[0];
  if (error) {
    const { code, ...details } = error.extensions ?? {};
    throw new AppError(isErrorCode(code) ? code : 'BAD_USER_INPUT', error.message, details);
  }
  return answer.data ?? {};
}
