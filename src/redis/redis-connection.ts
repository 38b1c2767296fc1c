import { createClient } from 'redis';
import { serviceUnavailable } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';

/** The service's Redis connection (rate-limit counters, events across replicas). */
export type RedisClient = ReturnType<typeof createRedisClient>;

/**
 * How long `send` waits for Redis's answer. Redis answers in a millisecond; one that takes half a
 * second is in trouble, and a request must not wait on it. The client's own command timeout is no
 * help here: it gives up only on commands not yet written, and a Redis that stopped answering (a
 * hung process, a dropped network) has been written to.
 */
const REDIS_COMMAND_TIMEOUT_MS = 500;

// At start-up a few quick retries, then the failure (start-up reports it); once connected, retry for
// ever, at least every 2 s, so that a Redis that returns is used again soon.
// Without the offline queue a command sent while Redis is unreachable fails at once instead of
// waiting for a reconnection: callers then do without Redis (rate limits count locally).
const createRedisClient = (url: string, connected: () => boolean) =>
  createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries: number, cause: Error) =>
        connected() ? Math.min(retries * 200, 2000) : retries < 3 ? 200 : cause,
    },
  });

export interface RedisConnection {
  readonly client: RedisClient;
  /** Sends a command; fails at once when Redis is unreachable, and after 500 ms without an answer. */
  send<T>(args: string[]): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Connects to Redis; fails with SERVICE_UNAVAILABLE when it cannot be reached. Reconnects by itself after. */
export async function connectRedis(url: string, logger: Logger): Promise<RedisConnection> {
  let ready = false;
  const client = createRedisClient(url, () => ready);
  let reported = false;
  client.on('error', (error: Error) => {
    // Before the first connection, start-up reports the failure itself.
    if (ready && !reported) logger.warn({ err: { message: error.message } }, 'redis connection error');
    reported = true;
  });
  client.on('ready', () => {
    if (ready && reported) logger.info('redis connection restored');
    ready = true;
    reported = false;
  });
  try {
    await client.connect();
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw serviceUnavailable('Redis is unavailable', error);
  }
  const send = <T>(args: string[]) => {
    let timer: NodeJS.Timeout | undefined;
    // A late answer is still read (the connection's replies stay in order) and dropped. The timeout
    // is decided after the I/O already waiting (setImmediate): when the process itself was busy past
    // it, Redis's answer is in that I/O, and a busy process is not a Redis that failed.
    return Promise.race([
      client.sendCommand<T>(args).finally(() => clearTimeout(timer)),
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () => setImmediate(() => reject(new Error(`Redis did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms`))),
          REDIS_COMMAND_TIMEOUT_MS,
        );
      }),
    ]);
  };
  return {
    client,
    send,
    async ping() {
      await send(['PING']);
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
