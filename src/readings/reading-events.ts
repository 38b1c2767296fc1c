/**
 * New readings as events, per site, for live subscriptions. In one process they go from publisher
 * to listeners directly; with Redis every replica publishes to and listens on the channel
 * `<prefix><siteId>`, so a reading ingested by one replica reaches subscribers on all of them.
 *
 * On the wire (Redis) a message is JSON: `{"readings":[{"timeseriesId":"…","ms":1764000000000,"value":21.5}]}`
 * (`ms`: epoch milliseconds; `value`: a number or null).
 */
import { serviceUnavailable } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';
import type { RedisClient, RedisConnection } from '../redis/redis-connection.ts';
import type { Reading } from './reading-store.ts';

/** Called with each batch of new readings of the site it listens to. */
export type ReadingListener = (readings: readonly Reading[]) => void;

export interface ReadingEvents {
  /** Announces readings just stored for a site (fire and forget: a lost event loses a live update, nothing stored). */
  publish(siteId: string, readings: readonly Reading[]): void;
  /** Listens to a site's readings; resolves once listening (so nothing published after is missed), with the way to stop. */
  listen(siteId: string, listener: ReadingListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Events within this process only. */
export function memoryReadingEvents(): ReadingEvents {
  const listeners = new Listeners();
  return {
    publish: (siteId, readings) => listeners.deliver(siteId, readings),
    async listen(siteId, listener) {
      listeners.add(siteId, listener);
      return async () => void listeners.remove(siteId, listener);
    },
    close: async () => undefined,
  };
}

/** Events through Redis pub/sub: published with the shared connection, received on a second one. */
export function redisReadingEvents(redis: RedisConnection, channelPrefix: string, logger: Logger): ReadingEvents {
  const listeners = new Listeners();
  let subscriber: Promise<RedisClient> | undefined;
  // Per site, the SUBSCRIBE every listener of that site waits for before it counts as listening.
  const subscribed = new Map<string, Promise<void>>();
  const connected = () =>
    (subscriber ??= (async () => {
      const client = redis.client.duplicate();
      client.on('error', () => undefined); // the shared connection already reports Redis trouble
      try {
        await client.connect();
      } catch (error) {
        subscriber = undefined; // the next listener tries again
        client.destroy();
        throw error;
      }
      return client;
    })());
  const onMessage = (message: string, channel: string) => {
    try {
      const { readings } = JSON.parse(message) as { readings: Reading[] };
      listeners.deliver(channel.slice(channelPrefix.length), readings);
    } catch (error) {
      logger.warn({ err: error, channel }, 'ignored a malformed readings event');
    }
  };
  return {
    publish(siteId, readings) {
      redis.client.publish(channelPrefix + siteId, JSON.stringify({ readings })).catch((error: unknown) => {
        logger.warn({ err: error, site: siteId }, 'could not publish readings to Redis');
      });
    },
    async listen(siteId, listener) {
      listeners.add(siteId, listener);
      let ready = subscribed.get(siteId);
      if (!ready) {
        ready = connected().then((client) => client.subscribe(channelPrefix + siteId, onMessage));
        subscribed.set(siteId, ready);
      }
      try {
        await ready;
      } catch (error) {
        if (subscribed.get(siteId) === ready) subscribed.delete(siteId);
        listeners.remove(siteId, listener);
        throw serviceUnavailable('Live readings are unavailable: Redis cannot be reached', error);
      }
      return async () => {
        if (!listeners.remove(siteId, listener)) return;
        subscribed.delete(siteId);
        await (await connected()).unsubscribe(channelPrefix + siteId, onMessage);
      };
    },
    async close() {
      if (!subscriber) return;
      const client = await subscriber.catch(() => undefined);
      if (client?.isOpen) await client.close();
    },
  };
}

/** Listeners by site. */
class Listeners {
  private readonly bySite = new Map<string, Set<ReadingListener>>();

  add(siteId: string, listener: ReadingListener): void {
    let set = this.bySite.get(siteId);
    if (!set) this.bySite.set(siteId, (set = new Set()));
    set.add(listener);
  }

  /** Removes one; true when the site has no listener left. */
  remove(siteId: string, listener: ReadingListener): boolean {
    const set = this.bySite.get(siteId);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.bySite.delete(siteId);
    return true;
  }

  deliver(siteId: string, readings: readonly Reading[]): void {
    for (const listener of this.bySite.get(siteId) ?? []) listener(readings);
  }
}
