import type { CurrentValues, PointValue } from './current-values.ts';
import { FRESHNESS_MS, pointValue } from './point-value.ts';
import type { ReadingStore } from './reading-store.ts';

/**
 * `currentValue` from the readings store (MAPPING.md "Current value"): for each timeseries, the
 * latest reading of the last 5 minutes (`now - 5 min < ts <= now`: a reading stamped in the future
 * is not current yet), looked up for all of a plan's points in one query. A series without one is
 * absent, so its points' currentValue is null.
 */
export function storedCurrentValues(readings: ReadingStore, now: () => number = Date.now): CurrentValues {
  return {
    async currentValues(siteId, timeseriesIds) {
      const at = now();
      const { timeZone, readings: latest } = await readings.latest(siteId, timeseriesIds, at - FRESHNESS_MS, at);
      const values = new Map<string, PointValue>();
      for (const [id, reading] of latest) values.set(id, pointValue({ timestamp: reading.ms, value: reading.value }, timeZone));
      return values;
    },
  };
}
