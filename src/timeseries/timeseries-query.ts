/**
 * The body of `POST /sites/{id}/timeseries` → a resolved query: absolute start and end, window
 * and aggregate, limit. Every problem is a 400 naming its field (DRF style).
 */
import { z } from 'zod';
import { badUserInput } from '../errors/app-error.ts';
import { plainText } from '../http-kit/plain-text.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { AGGREGATES, type Aggregate } from '../readings/reading-store.ts';
import { MAX_TIMESERIES_ID_LENGTH } from '../readings/reading-input.ts';
import { parseInZone } from '../readings/zoned-time.ts';

export const MAX_SERIES_PER_QUERY = 200;
export const MAX_LIMIT = 10_000;
export const DEFAULT_LIMIT = 1000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const UNIT_MS: Record<string, number> = { s: 1000, m: MINUTE, h: 60 * MINUTE, d: DAY, w: 7 * DAY };

/** The body of `POST /sites/{id}/timeseries`, as checked (and documented in the OpenAPI document). */
export const timeseriesQueryBody = z.strictObject({
  timeseriesIds: z
    .array(
      plainText()
        .min(1, 'A timeseries id cannot be empty.')
        .max(MAX_TIMESERIES_ID_LENGTH, `At most ${MAX_TIMESERIES_ID_LENGTH} characters.`),
      'A list of timeseries ids is required.',
    )
    .min(1, 'At least one timeseries id.')
    .max(MAX_SERIES_PER_QUERY, `At most ${MAX_SERIES_PER_QUERY} timeseries ids.`),
  start: plainText('ISO-8601 or a relative time such as -1h.').optional(),
  end: plainText('ISO-8601, a relative time or now().').optional(),
  window: plainText('A duration from 1m to 1d, such as 15m.').nullable().optional(),
  aggregate: z.enum(AGGREGATES, `One of ${AGGREGATES.join(', ')}.`).optional(),
  limit: z
    .number('An integer from 1 to 10000.')
    .int('An integer from 1 to 10000.')
    .min(1, 'At least 1.')
    .max(MAX_LIMIT, `At most ${MAX_LIMIT}.`)
    .optional(),
});

/** A query ready to run: instants in epoch milliseconds, start inclusive, end exclusive. */
export interface TimeseriesQuery {
  readonly timeseriesIds: readonly string[];
  readonly start: number;
  readonly end: number;
  /** Absent: raw readings. */
  readonly window: { readonly text: string; readonly ms: number; readonly aggregate: Aggregate } | undefined;
  readonly limit: number;
}

const RELATIVE = /^-(\d{1,9})([smhdw])$/;
// The instants both a four-digit ISO-8601 year and a PostgreSQL timestamp hold: 0001-01-01T00:00:00Z
// to 9999-12-31T23:59:59.999Z. A relative time reaches far past them (-999999999w), and past
// ±8.64e15 ms JavaScript has no date at all.
const EARLIEST_MS = -62_135_596_800_000;
const LATEST_MS = 253_402_300_799_999;
const OUT_OF_RANGE = 'Must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.';
const inRange = (ms: number) => ms >= EARLIEST_MS && ms <= LATEST_MS;
const DURATION = /^(\d{1,6})([mhd])$/;

/** `-15m` before now, `now()`, or ISO-8601 (wall-clock time in the site's zone when it states no offset). */
function instant(text: string, now: number, timeZone: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === 'now()' || trimmed === 'now') return now;
  const relative = RELATIVE.exec(trimmed);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!]!;
  return parseInZone(trimmed, timeZone);
}

/** `1m` … `1d` in milliseconds, or undefined. */
export function windowMs(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms >= MINUTE && ms <= DAY ? ms : undefined;
}

/** Validates and resolves a body against the site's zone and the current time. */
export function parseTimeseriesQuery(body: unknown, now: number, timeZone: string): TimeseriesQuery {
  const input = validateBody(timeseriesQueryBody, body);
  const fields: Record<string, string[]> = {};
  const start = instant(input.start ?? '-1h', now, timeZone);
  if (start === undefined)
    fields.start = ['ISO-8601 (e.g. 2026-11-21T00:00:00+01:00) or a relative time such as -15m, -1h, -24h, -7d.'];
  else if (!inRange(start)) fields.start = [OUT_OF_RANGE];
  const end = instant(input.end ?? 'now()', now, timeZone);
  if (end === undefined) fields.end = ['ISO-8601, a relative time such as -1h, or now().'];
  else if (!inRange(end)) fields.end = [OUT_OF_RANGE];
  if (!fields.start && !fields.end && start! >= end!) fields.end = ['Must be after start.'];
  let window: TimeseriesQuery['window'];
  if (input.window !== undefined && input.window !== null) {
    const ms = windowMs(input.window);
    if (ms === undefined) fields.window = ['A duration from 1m to 1d: minutes (15m), hours (1h) or days (1d).'];
    else window = { text: input.window.trim(), ms, aggregate: input.aggregate ?? 'mean' };
  } else if (input.aggregate !== undefined) {
    fields.aggregate = ['An aggregate needs a window.'];
  }
  if (Object.keys(fields).length > 0)
    throw badUserInput(`Invalid request: ${Object.keys(fields).join(', ')}.`, { fields });
  return {
    timeseriesIds: [...new Set(input.timeseriesIds)],
    start: start!,
    end: end!,
    window,
    limit: input.limit ?? DEFAULT_LIMIT,
  };
}
