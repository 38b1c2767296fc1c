/**
 * Readings as clients send them (REST and MQTT): `{timeseriesId, timestamp, value}`, checked one by
 * one so that a bad item is reported with its reason and never blocks the good ones.
 */
import { parseInstant } from '../timeseries/zoned-time.ts';
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Epoch milliseconds from an ISO-8601 string with an offset, or a number of epoch milliseconds. */
export function readingTime(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0 || value > LATEST_MS) return 'Epoch milliseconds must be a number from 0 to 253402300799999.';
    return Math.trunc(value);
  }
  if (typeof value !== 'string') return 'Must be an ISO-8601 string with a UTC offset, or epoch milliseconds.';
  const ms = parseInstant(value);
  if (ms === undefined) return 'Must be ISO-8601 with a UTC offset (Z or ±hh:mm), e.g. 2026-11-21T23:05:00+01:00.';
  if (ms < 0 || ms > LATEST_MS) return 'Must be between 1970 and 9999.';
  return ms;
}

/** A reading's value: a finite number, a boolean (true = 1, false = 0) or null. */
function readingValue(value: unknown): number | null | string {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return 'Must be a finite number, a boolean or null.';
}

/**
 * Checks one item. `timeseriesId` may come from elsewhere (an MQTT per-series topic); if the item
 * names one too, they must agree.
 */
export function parseReading(item: unknown, fixedTimeseriesId?: string): ParsedReading {
  if (item instanceof InvalidJsonLine) return { errors: { non_field_errors: ['Not valid JSON.'] } };
  if (!isObject(item)) return { errors: { non_field_errors: ['Expected an object with timeseriesId, timestamp and value.'] } };
  const errors: FieldErrors = {};
  let timeseriesId = fixedTimeseriesId;
  if (item.timeseriesId !== undefined || fixedTimeseriesId === undefined) {
    const id = item.timeseriesId;
    if (id === undefined) errors.timeseriesId = ['This field is required.'];
    else if (typeof id !== 'string' || id.trim() === '') errors.timeseriesId = ['Must be a non-empty string.'];
    else if (id.length > MAX_TIMESERIES_ID_LENGTH) errors.timeseriesId = [`At most ${MAX_TIMESERIES_ID_LENGTH} characters.`];
    else if (fixedTimeseriesId !== undefined && id !== fixedTimeseriesId) errors.timeseriesId = ['Does not match the timeseries id of the topic.'];
    else timeseriesId = id;
  }
  let ms: number | undefined;
  if (item.timestamp === undefined) errors.timestamp = ['This field is required.'];
  else {
    const time = readingTime(item.timestamp);
    if (typeof time === 'string') errors.timestamp = [time];
    else ms = time;
  }
  let value: number | null | undefined;
  if (!('value' in item)) errors.value = ['This field is required (null when the reading carries no number).'];
  else {
    const parsed = readingValue(item.value);
    if (typeof parsed === 'string') errors.value = [parsed];
    else value = parsed;
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { reading: { timeseriesId: timeseriesId!, ms: ms!, value: value! } };
}

/** Checks every item: the readings to store, and the rejected items with their reasons. */
export function parseReadings(items: readonly unknown[], fixedTimeseriesId?: string): { readings: Reading[]; rejected: Rejection[] } {
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
