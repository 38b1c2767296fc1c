/** Timeseries ids by site id. */
export type SeriesBySite = ReadonlyMap<string, readonly string[]>;

/**
 * Where the executor finds `currentValue`: one lookup per request for all its points. The readings
 * implement it (src/readings/stored-current-values.ts); the executor copies the values it is given.
 */
export interface CurrentValueSource {
  /** The current value of each series that has one, by site id then timeseries id; absent ids have none. */
  currentValues(series: SeriesBySite): Promise<ReadonlyMap<string, ReadonlyMap<string, unknown>>>;
}

/** For callers that select no `currentValue`: nothing is ever looked up. */
export const noCurrentValues: CurrentValueSource = {
  currentValues: async () => new Map(),
};
