import type { EnvReaders } from './graph-store-config.ts';

/** Readings: MQTT ingestion, live events across replicas, the demo simulator. */
export interface ReadingsConfig {
  readonly mqtt:
    | {
        /** Broker URL (`mqtt://`, `mqtts://`, `ws://`, `wss://`), credentials in it if needed. */
        readonly url: string;
        /** Topics are `<prefix>/<siteId>/readings` and `<prefix>/<siteId>/ts/<timeseriesId>`. */
        readonly topicPrefix: string;
        /** Shared-subscription group (`$share/<group>/…`), so replicas split the messages; empty: plain subscriptions. */
        readonly shareGroup: string;
      }
    | undefined;
  /** Redis pub/sub channel of a site's live readings: this prefix, then the site id. */
  readonly redisChannelPrefix: string;
  readonly simulator: {
    /** Whether the demo site gets simulated readings (needs the demo site). */
    readonly enabled: boolean;
    /** Seconds between live readings. */
    readonly intervalSeconds: number;
    /** Days of 15-minute history written on a first start. */
    readonly backfillDays: number;
  };
}

const TOPIC_PREFIX = /^[^#+/\u0000]+(\/[^#+/\u0000]+)*$/;
const SHARE_GROUP = /^[A-Za-z0-9_-]{0,64}$/;

/** The readings settings: `BKG_MQTT_*`, `BKG_REDIS_CHANNEL_PREFIX`, `BKG_DEMO_SIMULATOR*`, `BKG_DEMO_BACKFILL_DAYS`. */
export function readingsConfig(
  env: Record<string, string | undefined>,
  problems: string[],
  read: EnvReaders,
): ReadingsConfig {
  const url = read.url('BKG_MQTT_URL', ['mqtt:', 'mqtts:', 'ws:', 'wss:']);
  const topicPrefix = env.BKG_MQTT_TOPIC_PREFIX || 'bkg';
  if (!TOPIC_PREFIX.test(topicPrefix))
    problems.push(
      `BKG_MQTT_TOPIC_PREFIX must be topic levels without wildcards or a leading or trailing "/", got "${topicPrefix}"`,
    );
  const shareGroup = env.BKG_MQTT_SHARE_GROUP ?? 'bkg';
  if (!SHARE_GROUP.test(shareGroup))
    problems.push('BKG_MQTT_SHARE_GROUP must be up to 64 letters, digits, "_" or "-" (empty: no shared subscription)');
  const simulator = read.oneOf('BKG_DEMO_SIMULATOR', ['1', '0', 'true', 'false'] as const, '1');
  return Object.freeze({
    mqtt: url ? Object.freeze({ url, topicPrefix, shareGroup }) : undefined,
    redisChannelPrefix: env.BKG_REDIS_CHANNEL_PREFIX || 'bkg:readings:',
    simulator: Object.freeze({
      enabled: simulator === '1' || simulator === 'true',
      intervalSeconds: read.int('BKG_DEMO_SIMULATOR_SECONDS', 60, 1, 3600),
      backfillDays: read.int('BKG_DEMO_BACKFILL_DAYS', 7, 0, 366),
    }),
  });
}
