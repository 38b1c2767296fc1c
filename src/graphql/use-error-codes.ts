import { GraphQLError, type ASTNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';

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
 * An application error a plugin answers with before execution (the request is refused whole): its
 * code and details, and its HTTP status, which yoga takes from `http`.
 */
export function refusal(error: AppError, nodes?: readonly ASTNode[]): GraphQLError {
  const extensions = { code: error.code, ...(error.details ?? {}), http: { status: error.status } };
  return new GraphQLError(error.message, { nodes, extensions });
}

/**
 * The one mapping from application errors to GraphQL errors: AppErrors keep their message and
 * code; anything unexpected is masked outside development. What the server answers for its own
 * failures is logged as the REST error handler logs it (src/http/error-handler.ts): a store or
 * engine that failed with its cause (the endpoint's own words), anything unexpected as an error.
 */
export function errorMasking(logger: Logger): (error: unknown, message: string, isDev?: boolean) => Error {
  return (error, message, isDev) => {
    const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
    if (original instanceof AppError) {
      if (original.status >= 500 && original.code !== 'INTERNAL_SERVER_ERROR')
        logger.warn({ err: original.cause ?? original }, original.message);
      const path = error instanceof GraphQLError ? error.path : undefined;
      const nodes = error instanceof GraphQLError ? error.nodes : undefined;
      // An error the client should retry answers its HTTP status and Retry-After, as REST does (yoga takes them from `http`).
      const http =
        original.retryAfterSeconds !== undefined
          ? { http: { status: original.status, headers: { 'Retry-After': String(original.retryAfterSeconds) } } }
          : {};
      return new GraphQLError(original.message, {
        path,
        nodes,
        extensions: { code: original.code, ...(original.details ?? {}), ...http },
      });
    }
    if (error instanceof GraphQLError && !error.originalError) return error;
    logger.error({ err: original }, 'unexpected error');
    if (isDev) return error instanceof Error ? error : new Error(String(error));
    const path = error instanceof GraphQLError ? error.path : undefined;
    return new GraphQLError(message, { path, extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
}
