import { formatInZone } from './zoned-time.ts';
import type { PointValue } from './current-values.ts';

/** The freshness window of a point's current value: how long a reading stays current (docs/readings.md). */
export const FRESHNESS_MS = 5 * 60_000;

/** A reading as a source holds it: epoch milliseconds, or text from a source that may hold anything. */
export interface SourceReading {
  readonly timestamp: number | string;
  readonly value: number | null;
}

/**
 * A reading as the API shows it (docs/readings.md, "The current value"): the timestamp in the site's zone
 * with its offset; quality `good` with a value, `stale` without one, `unknown` when the timestamp cannot
 * be read (then it is passed through as the source wrote it). Whether the reading is recent enough
 * to be shown at all is the caller's business.
 */
export function pointValue(reading: SourceReading, timeZone: string): PointValue {
  const ms = typeof reading.timestamp === 'number' ? reading.timestamp : Date.parse(reading.timestamp);
  if (!Number.isFinite(ms)) return { value: reading.value, timestamp: String(reading.timestamp), quality: 'unknown' };
  return {
    value: reading.value,
    timestamp: formatInZone(ms, timeZone),
    quality: reading.value === null ? 'stale' : 'good',
  };
}
