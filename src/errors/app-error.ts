/** Machine-readable error codes, shared by REST bodies and GraphQL `extensions.code`. */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNKNOWN_CLASS'
  | 'UNKNOWN_MEDIUM'
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'QUOTA_EXCEEDED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NOT_ACCEPTABLE'
  | 'METHOD_NOT_ALLOWED'
  | 'RANGE_NOT_SATISFIABLE'
  | 'RATE_LIMITED'
  | 'GRAPHQL_VALIDATION_FAILED'
  | 'QUERY_TOO_COMPLEX'
  | 'QUERY_TOO_LARGE'
  | 'MODEL_INVALID'
  | 'SERVICE_UNAVAILABLE'
  | 'SITE_LOADING'
  | 'INTERNAL_SERVER_ERROR';

const statusOf: Record<ErrorCode, number> = {
  BAD_USER_INPUT: 400,
  UNKNOWN_CLASS: 400,
  UNKNOWN_MEDIUM: 400,
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  CONFLICT: 409,
  // If-Match named another version than the graph's: someone changed it since the caller read it.
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  // A 4xx, not 507: the client's site is full, the service is not; retrying the same upload cannot help.
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NOT_ACCEPTABLE: 406,
  METHOD_NOT_ALLOWED: 405,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  GRAPHQL_VALIDATION_FAILED: 400,
  QUERY_TOO_COMPLEX: 400,
  QUERY_TOO_LARGE: 400,
  MODEL_INVALID: 400,
  SERVICE_UNAVAILABLE: 503,
  // The site's graph is being read back after a restart: the same request will succeed later (Retry-After).
  SITE_LOADING: 503,
  INTERNAL_SERVER_ERROR: 500,
};

/** Whether a code (from a GraphQL answer's extensions, say) is one of the service's own. */
export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(statusOf, code);

/**
 * The one application error type: a code, the HTTP status derived from it, a message safe to show
 * to the caller, and optional structured details (field errors, suggestions).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  /** When the same request may succeed: sent as `Retry-After` (REST and GraphQL alike). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.code = code;
    this.status = statusOf[code];
    this.details = details;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}

/** An argument the caller sent is invalid. */
export const badUserInput = (message: string, details?: Record<string, unknown>) =>
  new AppError('BAD_USER_INPUT', message, details);

/** A resource the caller named does not exist, or is not theirs to see. */
export const notFound = (message: string) => new AppError('NOT_FOUND', message);

/** The caller sent bad credentials (a malformed, unknown, expired or revoked token), anywhere. */
export const unauthenticated = (message: string) => new AppError('UNAUTHENTICATED', message);

/**
 * The caller sent no credentials at all where they are required. Also UNAUTHENTICATED, but its
 * challenge carries no `error="invalid_token"`: RFC 6750 §3 reserves that for a token that was sent.
 */
export class MissingCredentials extends AppError {
  constructor(message: string) {
    super('UNAUTHENTICATED', message);
    this.name = 'MissingCredentials';
  }
}

/** The body's Content-Type is not one the endpoint reads; `supported` lists those it does. */
export const unsupportedMediaType = (message: string, supported?: readonly string[]) =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', message, supported && { supported });

/** The caller is known but may not do this (a write on the read-only demo site, a non-admin key). */
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);

/** An engine (triplestore, database) failed or is unreachable. */
export const serviceUnavailable = (message: string, cause?: unknown) =>
  new AppError('SERVICE_UNAVAILABLE', message, undefined, { cause });

/** A query over a limit: too slow, too many results, too deep. */
export const queryTooComplex = (message: string) => new AppError('QUERY_TOO_COMPLEX', message);

/** A request whose answer would cost more than its budget (entities, response bytes, store rows). */
export const queryTooLarge = (message: string, details: Record<string, unknown>) =>
  new AppError('QUERY_TOO_LARGE', message, details);
