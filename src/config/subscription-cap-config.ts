import type { EnvReaders } from './graph-store-config.ts';

/** How many subscriptions one client may hold open at once on one replica, by client kind. */
export interface SubscriptionCapConfig {
  readonly key: number;
  readonly user: number;
  readonly anonymous: number;
}

/**
 * `BKG_MAX_SUBSCRIPTIONS_KEY`, `_USER`, `_ANONYMOUS`. An open subscription holds a connection and
 * its buffers (about 0.7 MB each, measured) for as long as the client likes, past any rate-limit
 * window. The defaults leave room for a dashboard of several live panels per person, an integration
 * that follows a few dozen sites per key, and the demo's live panels for a few visitors behind one
 * address, while bounding what one anonymous address holds to a few megabytes.
 */
export function subscriptionCapConfig(read: Pick<EnvReaders, 'int'>): SubscriptionCapConfig {
  return Object.freeze({
    key: read.int('BKG_MAX_SUBSCRIPTIONS_KEY', 50, 1, 100_000),
    user: read.int('BKG_MAX_SUBSCRIPTIONS_USER', 20, 1, 100_000),
    anonymous: read.int('BKG_MAX_SUBSCRIPTIONS_ANONYMOUS', 10, 1, 100_000),
  });
}
