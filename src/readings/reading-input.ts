/**
 * Readings as clients send them (REST and MQTT): `{timeseriesId, timestamp, value}`, checked one by
 * one so that a bad item is reported with its reason and never blocks the good ones.
 */
import { z } from 'zod';
import { plainText } from '../http-kit/plain-text.ts';
import { parseInstant } from './zoned-time.ts';
import type { Reading } from './reading-store.ts';

/** Most readings one request (or one MQTT message) may carry. */
export const MAX_READINGS_PER_REQUEST = 10_000;
/** Longest timeseries id accepted. */
export const MAX_TIMESERIES_ID_LENGTH = 255;
// 9999-12-31T23:59:59.999Z: four-digit years only, as ISO-8601 writes them without extension.
const LATEST_MS = 253_402_300_799_999;

/** Why one item was refused: DRF-style field errors. */
export type FieldErrors = Record<string, string[]>;

/** An item that was not stored, by its position in the request (0-based; NDJSON: line order of non-empty lines). */
export interface Rejection {
  readonly index: number;
  readonly errors: FieldErrors;
}

export type ParsedReading = { readonly reading: Reading } | { readonly errors: FieldErrors };

/** An NDJSON line that did not parse: rejected at its own index like any other bad item. */
class InvalidJsonLine {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Epoch milliseconds from an ISO-8601 string with an offset, or a number of epoch milliseconds. */
export function readingTime(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value > LATEST_MS)
      return 'Epoch milliseconds must be a number from 0 to 253402300799999.';
    return Math.trunc(value);
  }
  if (typeof value !== 'string') return 'Must be an ISO-8601 string with a UTC offset, or epoch milliseconds.';
  const ms = parseInstant(value);
  if (ms === undefined) return 'Must be ISO-8601 with a UTC offset (Z or ±hh:mm), e.g. 2026-11-21T23:05:00+01:00.';
  if (ms < 0 || ms > LATEST_MS) return 'Must be between 1970 and 9999.';
  return ms;
}

const requiredOr =
  (message: string, required = 'This field is required.') =>
  (issue: { input: unknown }) =>
    issue.input === undefined ? required : message;

/**
 * One reading as clients send it. The REST body and MQTT messages are checked item by item with it
 * (a bad item is reported, the good ones stored), and the OpenAPI document is generated from it.
 */
export const readingItemSchema = z.object(
  {
    // Plain text: one id PostgreSQL cannot store would fail the whole batch's statement.
    timeseriesId: plainText({ error: requiredOr('Must be a non-empty string.') })
      .refine((id) => id.trim() !== '', { message: 'Must be a non-empty string.', abort: true })
      .refine((id) => id.length <= MAX_TIMESERIES_ID_LENGTH, `At most ${MAX_TIMESERIES_ID_LENGTH} characters.`)
      .meta({
        description: `The series the reading belongs to (at most ${MAX_TIMESERIES_ID_LENGTH} characters); it need not be in the graph yet.`,
        example: 'ahu1-sat',
      }),
    timestamp: z
      .union([z.number(), z.string()], {
        error: requiredOr('Must be an ISO-8601 string with a UTC offset, or epoch milliseconds.'),
      })
      .transform((value, ctx) => {
        const time = readingTime(value);
        if (typeof time === 'number') return time;
        ctx.addIssue({ code: 'custom', message: time });
        return z.NEVER;
      })
      .meta({
        description: 'ISO-8601 with a UTC offset (Z or ±hh:mm), or epoch milliseconds.',
        example: '2026-11-21T23:05:00+01:00',
      }),
    value: z
      .union([z.number(), z.boolean(), z.null()], {
        error: requiredOr(
          'Must be a finite number, a boolean or null.',
          'This field is required (null when the reading carries no number).',
        ),
      })
      .transform((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value))
      .meta({
        description: 'A finite number, a boolean (stored as 1 or 0), or null for a reading without a number.',
        example: 13.4,
      }),
  },
  { error: 'Expected an object with timeseriesId, timestamp and value.' },
);

/**
 * Checks one item. `timeseriesId` may come from elsewhere (an MQTT per-series topic); if the item
 * names one too, they must agree.
 */
export function parseReading(item: unknown, fixedTimeseriesId?: string): ParsedReading {
  if (item instanceof InvalidJsonLine) return { errors: { non_field_errors: ['Not valid JSON.'] } };
  const given =
    isObject(item) && fixedTimeseriesId !== undefined
      ? { ...item, timeseriesId: item.timeseriesId ?? fixedTimeseriesId }
      : item;
  const result = readingItemSchema.safeParse(given);
  if (!result.success) {
    const errors: FieldErrors = {};
    // One message per field: the first problem found.
    for (const issue of result.error.issues)
      errors[issue.path.length > 0 ? String(issue.path[0]) : 'non_field_errors'] ??= [issue.message];
    return { errors };
  }
  const { timeseriesId, timestamp, value } = result.data;
  if (fixedTimeseriesId !== undefined && timeseriesId !== fixedTimeseriesId)
    return { errors: { timeseriesId: ['Does not match the timeseries id of the topic.'] } };
  return { reading: { timeseriesId, ms: timestamp, value } };
}

/** Checks every item: the readings to store, and the rejected items with their reasons. */
export function parseReadings(
  items: readonly unknown[],
  fixedTimeseriesId?: string,
): { readings: Reading[]; rejected: Rejection[] } {
  const readings: Reading[] = [];
  const rejected: Rejection[] = [];
  items.forEach((item, index) => {
    const parsed = parseReading(item, fixedTimeseriesId);
    if ('reading' in parsed) readings.push(parsed.reading);
    else rejected.push({ index, errors: parsed.errors });
  });
  return { readings, rejected };
}

/** NDJSON text → items (blank lines skipped); a line that is not JSON becomes an item rejected as such. */
export function ndjsonItems(text: string): unknown[] {
  const items: unknown[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    try {
      items.push(JSON.parse(line));
    } catch {
      items.push(new InvalidJsonLine());
    }
  }
  return items;
}
