import type { SeriesBySite } from './reading-store.ts';

/** A point's latest reading as the API shows it (docs/readings.md, "The current value"). */
export interface PointValue {
  readonly value: number | null;
  /** ISO-8601 in the site's timezone with its UTC offset, or the stored text when it cannot be parsed. */
  readonly timestamp: string | null;
  readonly quality: 'good' | 'stale' | 'unknown';
}

/** Current values by site id, then by timeseries id; absent ids have none. */
export type PointValuesBySite = ReadonlyMap<string, ReadonlyMap<string, PointValue>>;

/** Where `currentValue` comes from: one batched lookup for all the points of a request (the query layer's `CurrentValueSource`). */
export interface CurrentValues {
  /** The current value of each series that has one (docs/readings.md, "The current value"). */
  currentValues(series: SeriesBySite): Promise<PointValuesBySite>;
}
