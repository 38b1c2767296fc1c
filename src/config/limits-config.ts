import type { Budgets } from '../limits/request-work.ts';
import type { EnvReaders } from './graph-store-config.ts';

/**
 * How long an external triplestore may take to answer one request of a graph load: a floor, plus
 * the time its bytes take at a rate well below what a healthy store loads (a load's size has no
 * bound a fixed deadline would fit).
 */
export interface LoadDeadline {
  readonly floorMs: number;
  readonly bytesPerSecond: number;
}

/** What one request may cost: its deadline and its budget by client tier; and how long a load may wait. */
export interface LimitsConfig {
  /** Engine work one GraphQL or REST request may take (time waiting for a thread not counted), in ms. */
  readonly queryTimeoutMs: number;
  readonly budgets: Budgets;
  readonly loadDeadline: LoadDeadline;
}

// Rows per entity the store may hand over: an entity's facts come as a few rows (one per type,
// label and timeseries combination), so an honest query never meets this bound before the entity one.
const ROWS_PER_ENTITY = 10;

/** The request limits: `BKG_QUERY_TIMEOUT_MS`, the `BKG_BUDGET_*` and the `BKG_LOAD_DEADLINE_*` variables. */
export function limitsConfig(read: Pick<EnvReaders, 'int'>): LimitsConfig {
  const entities = read.int('BKG_BUDGET_ENTITIES', 500_000, 1, 100_000_000);
  const anonymousEntities = read.int('BKG_BUDGET_ENTITIES_ANONYMOUS', 20_000, 1, 100_000_000);
  return Object.freeze({
    queryTimeoutMs: read.int('BKG_QUERY_TIMEOUT_MS', 60_000, 100, 3_600_000),
    budgets: Object.freeze({
      client: Object.freeze({
        entities,
        responseBytes: read.int('BKG_BUDGET_RESPONSE_BYTES', 256 * 1024 ** 2, 1024, Number.MAX_SAFE_INTEGER),
        storeRows: entities * ROWS_PER_ENTITY,
      }),
      anonymous: Object.freeze({
        entities: anonymousEntities,
        responseBytes: read.int('BKG_BUDGET_RESPONSE_BYTES_ANONYMOUS', 16 * 1024 ** 2, 1024, Number.MAX_SAFE_INTEGER),
        storeRows: anonymousEntities * ROWS_PER_ENTITY,
      }),
    }),
    loadDeadline: Object.freeze({
      floorMs: read.int('BKG_LOAD_DEADLINE_MS', 120_000, 100, 86_400_000),
      bytesPerSecond: read.int('BKG_LOAD_DEADLINE_BYTES_PER_SECOND', 1_000_000, 1_000, Number.MAX_SAFE_INTEGER),
    }),
  });
}

/** The deadline of a load request that sends (or makes the store move) this many bytes, in ms. */
export const loadDeadlineMs = (deadline: LoadDeadline, bytes: number): number =>
  deadline.floorMs + Math.ceil((bytes * 1000) / deadline.bytesPerSecond);
