/** A timestamptz as read by either engine (a Date, or text) as an ISO-8601 UTC string. */
export function isoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return new Date(value).toISOString();
  throw new TypeError(`Expected a timestamp, got ${typeof value}`);
}

/** Like isoTimestamp, for nullable columns. */
export const isoTimestampOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : isoTimestamp(value);
