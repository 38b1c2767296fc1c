import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors/app-error.ts';

/** Gives every validation error without a code GRAPHQL_VALIDATION_FAILED (limit refusals bring QUERY_TOO_COMPLEX). */
export function useErrorCodes(): Plugin {
  return {
    onValidate() {
      return ({ result, setResult }) => {
        if (result.length === 0) return;
        setResult(
          result.map((error) => {
            if (error.extensions.code) return error;
            return new GraphQLError(error.message, {
              nodes: error.nodes,
              source: error.source,
              positions: error.positions,
              extensions: { ...error.extensions, code: 'GRAPHQL_VALIDATION_FAILED' },
            });
          }),
        );
      };
    },
  };
}

/**
 * The one mapping from application errors to GraphQL errors: AppErrors keep their message and
 * code; anything unexpected is masked outside development.
 */
export function maskError(error: unknown, message: string, isDev?: boolean): Error {
  const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
  if (original instanceof AppError) {
    const path = error instanceof GraphQLError ? error.path : undefined;
    const nodes = error instanceof GraphQLError ? error.nodes : undefined;
    // An error the client should retry answers its HTTP status and Retry-After, as REST does (yoga takes them from `http`).
    const http = original.retryAfterSeconds !== undefined ? { http: { status: original.status, headers: { 'Retry-After': String(original.retryAfterSeconds) } } } : {};
    return new GraphQLError(original.message, { path, nodes, extensions: { code: original.code, ...(original.details ?? {}), ...http } });
  }
  if (error instanceof GraphQLError && !error.originalError) return error;
  if (isDev) return error instanceof Error ? error : new Error(String(error));
  const path = error instanceof GraphQLError ? error.path : undefined;
  return new GraphQLError(message, { path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
}
