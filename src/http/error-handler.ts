import type { ErrorRequestHandler, Response } from 'express';
import { AppError, MissingCredentials } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';

/** Whether the request is for the GraphQL endpoint, whose errors take GraphQL's shape. */
export const isGraphQLPath = (path: string) => path === '/graphql' || path.startsWith('/graphql/');

/**
 * Writes an application error: DRF-style bodies on REST (`{"field": ["message"]}` for field
 * errors, else `{"detail", "code"}`), a GraphQL `errors` array on /graphql.
 */
export function sendError(res: Response, error: AppError, graphql: boolean): void {
  // RFC 6750 §3: a bare challenge when no token was sent, `invalid_token` when one was and failed.
  if (error.code === 'UNAUTHENTICATED')
    res.setHeader('WWW-Authenticate', error instanceof MissingCredentials ? 'Bearer' : 'Bearer error="invalid_token"');
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  if (graphql) {
    res
      .status(error.status)
      .json({ errors: [{ message: error.message, extensions: { code: error.code, ...(error.details ?? {}) } }] });
    return;
  }
  const fields = error.details?.fields as Record<string, string[]> | undefined;
  res.status(error.status).json(fields ?? { detail: error.message, code: error.code, ...(error.details ?? {}) });
}

/** The last middleware: AppErrors as their status, body-parser errors as 400/413, anything else as 500. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      res.destroy(error instanceof Error ? error : undefined);
      return;
    }
    let appError: AppError;
    if (error instanceof AppError) appError = error;
    else if (error?.type === 'entity.too.large')
      appError = new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large.');
    else if (error?.type === 'entity.parse.failed')
      appError = new AppError('BAD_USER_INPUT', 'The request body is not valid JSON.');
    else {
      logger.error({ err: error }, 'unexpected error');
      appError = new AppError('INTERNAL_SERVER_ERROR', 'Unexpected error.');
    }
    // A body cut off part-way (over a size limit) leaves the connection mid-request: close it after
    // this answer, or the next request sent on it would never be read.
    if (req.destroyed && !req.complete) res.setHeader('Connection', 'close');
    if (appError.status >= 500 && appError.code !== 'INTERNAL_SERVER_ERROR')
      logger.warn({ err: appError.cause ?? appError }, appError.message);
    sendError(res, appError, isGraphQLPath(req.path));
  };
}
