/**
 * New readings as events, per site, for live subscriptions (`redis/site-events.ts`: across
 * replicas through Redis when configured, on the channel `<prefix><siteId>`).
 *
 * On the wire (Redis) a message is JSON: `{"readings":[{"timeseriesId":"…","ms":1764000000000,"value":21.5}]}`
 * (`ms`: epoch milliseconds; `value`: a number or null).
 */
import type { Logger } from '../log/logger.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import { memorySiteEvents, redisSiteEvents, type SiteEvents } from '../redis/site-events.ts';
import type { Reading } from './reading-store.ts';

/** Each batch of new readings of a site. */
export type ReadingEvents = SiteEvents<readonly Reading[]>;

/** Events within this process only. */
export const memoryReadingEvents = (): ReadingEvents => memorySiteEvents();

/** Events through Redis pub/sub. */
export function redisReadingEvents(redis: RedisConnection, channelPrefix: string, logger: Logger): ReadingEvents {
  return redisSiteEvents(
    redis,
    channelPrefix,
    {
      name: 'readings',
      write: (readings) => JSON.stringify({ readings }),
      read: (message) => (JSON.parse(message) as { readings: Reading[] }).readings,
    },
    logger,
  );
}
