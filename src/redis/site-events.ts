/**
 * Events per site, for live subscribers. In one process they go from publisher to listeners
 * directly; with Redis every replica publishes to and listens on the channel `<prefix><siteId>`,
 * so an event published by one replica reaches the listeners of all of them. What an event holds
 * is its user's: it crosses Redis as the JSON its codec writes.
 */
import { serviceUnavailable } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';
import type { RedisClient, RedisConnection } from './redis-connection.ts';

/** Called with each event of the site it listens to. */
export type SiteListener<T> = (event: T) => void;

export interface SiteEvents<T> {
  /** Announces an event of a site (fire and forget: a lost event loses a live update, nothing stored). */
  publish(siteId: string, event: T): void;
  /** Listens to a site's events; resolves once listening (so nothing published after is missed), with the way to stop. */
  listen(siteId: string, listener: SiteListener<T>): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** How the events of one kind cross Redis, and what they are called in its logs and errors. */
export interface SiteEventCodec<T> {
  /** What the events are, for a log line or an error (`readings`, `graph changes`). */
  readonly name: string;
  write(event: T): string;
  /** The event in a message; throws for a malformed one, which is logged and dropped. */
  read(message: string): T;
}

/** Events within this process only. */
export function memorySiteEvents<T>(): SiteEvents<T> {
  const listeners = new Listeners<T>();
  return {
    publish: (siteId, event) => listeners.deliver(siteId, event),
    async listen(siteId, listener) {
      listeners.add(siteId, listener);
      return async () => void listeners.remove(siteId, listener);
    },
    close: async () => undefined,
  };
}

/** Events through Redis pub/sub: published with the shared connection, received on a second one. */
export function redisSiteEvents<T>(
  redis: RedisConnection,
  channelPrefix: string,
  codec: SiteEventCodec<T>,
  logger: Logger,
): SiteEvents<T> {
  const listeners = new Listeners<T>();
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
      listeners.deliver(channel.slice(channelPrefix.length), codec.read(message));
    } catch (error) {
      logger.warn({ err: error, channel }, `ignored a malformed ${codec.name} event`);
    }
  };
  return {
    publish(siteId, event) {
      redis.client.publish(channelPrefix + siteId, codec.write(event)).catch((error: unknown) => {
        logger.warn({ err: error, site: siteId }, `could not publish ${codec.name} to Redis`);
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
        throw serviceUnavailable(`Live ${codec.name} are unavailable: Redis cannot be reached`, error);
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
class Listeners<T> {
  private readonly bySite = new Map<string, Set<SiteListener<T>>>();

  add(siteId: string, listener: SiteListener<T>): void {
    let set = this.bySite.get(siteId);
    if (!set) this.bySite.set(siteId, (set = new Set()));
    set.add(listener);
  }

  /** Removes one; true when the site has no listener left. */
  remove(siteId: string, listener: SiteListener<T>): boolean {
    const set = this.bySite.get(siteId);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.bySite.delete(siteId);
    return true;
  }

  deliver(siteId: string, event: T): void {
    for (const listener of this.bySite.get(siteId) ?? []) listener(event);
  }
}
