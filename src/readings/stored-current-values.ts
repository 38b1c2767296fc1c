import type { CurrentValues, PointValue } from './current-values.ts';
import { FRESHNESS_MS, pointValue } from './point-value.ts';
import type { ReadingStore } from './reading-store.ts';

/**
 * `currentValue` from the readings store (docs/readings.md, "The current value"): for each timeseries,
 * the latest reading of the last 5 minutes (`now - 5 min < ts <= now`: a reading stamped in the future
 * is not current yet), looked up for all the requested series, of every site, in one query. A
 * series without one is absent, so its points' currentValue is null.
 */
export function storedCurrentValues(readings: ReadingStore, now: () => number = Date.now): CurrentValues {
  return {
    async currentValues(series) {
      const at = now();
      const latest = await readings.latest(series, at - FRESHNESS_MS, at);
      const bySite = new Map<string, Map<string, PointValue>>();
      for (const [siteId, { timeZone, readings: points }] of latest) {
        const values = new Map<string, PointValue>();
        for (const [id, reading] of points)
          values.set(id, pointValue({ timestamp: reading.ms, value: reading.value }, timeZone));
        bySite.set(siteId, values);
      }
      return bySite;
    },
  };
}
