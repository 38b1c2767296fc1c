import type { Budgets } from '../limits/request-work.ts';
import type { EnvReaders } from './graph-store-config.ts';

/** What one request may cost: its deadline and its budget by client tier. */
export interface LimitsConfig {
  /** Engine work one GraphQL or REST request may take (time waiting for a thread not counted), in ms. */
  readonly queryTimeoutMs: number;
  readonly budgets: Budgets;
}

// Rows per entity the store may hand over: an entity's facts come as a few rows (one per type,
// label and timeseries combination), so an honest query never meets this bound before the entity one.
const ROWS_PER_ENTITY = 10;

/** The request limits: `BKG_QUERY_TIMEOUT_MS` and the `BKG_BUDGET_*` variables. */
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
  });
}
