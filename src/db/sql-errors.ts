import { serviceUnavailable, type AppError } from '../errors/app-error.ts';

/** The one message callers see when the record database fails; it never names the URL. */
export const UNAVAILABLE_MESSAGE = 'The record database is unavailable';

/** A SERVICE_UNAVAILABLE error for a database failure, keeping the original as its cause. */
export const databaseUnavailable = (cause: unknown): AppError => serviceUnavailable(UNAVAILABLE_MESSAGE, cause);

const codeOf = (error: unknown): unknown => (error instanceof Error ? (error as { code?: unknown }).code : undefined);

/** Whether the error is PostgreSQL's unique_violation (a duplicate key). */
export const isUniqueViolation = (error: unknown): boolean => codeOf(error) === '23505';

/** Whether the error carries a PostgreSQL SQLSTATE, i.e. the server answered and refused a statement. */
export const hasSqlState = (error: unknown): boolean => {
  const code = codeOf(error);
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
};

// Socket failures (Node), and the SQLSTATEs that mean the server or the connection went away:
// class 08 connection exception, 57P01–57P03 shutdown / starting up, 53300 too many connections,
// class 28 bad credentials, 3D000 no such database.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
]);
const UNAVAILABLE_STATE = /^(08|28)|^57P0[123]$|^53300$|^3D000$/;
const UNAVAILABLE_MESSAGE_PATTERN =
  /Connection terminated|connection error|not queryable|after calling end on the pool/i;

/** Whether a PostgreSQL client error means the database cannot serve, rather than a bad statement. */
export function isConnectionFailure(error: unknown): boolean {
  const code = codeOf(error);
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_STATE.test(code))) return true;
  return error instanceof Error && !hasSqlState(error) && UNAVAILABLE_MESSAGE_PATTERN.test(error.message);
}
