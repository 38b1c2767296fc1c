import { createClient } from 'redis';
import { serviceUnavailable } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';

/** The service's Redis connection (rate-limit counters, events across replicas). */
export type RedisClient = ReturnType<typeof createRedisClient>;

const createRedisClient = (url: string) =>
  createClient({ url, socket: { reconnectStrategy: (retries: number) => Math.min(retries * 200, 5000) } });

export interface RedisConnection {
  readonly client: RedisClient;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Connects to Redis; fails with SERVICE_UNAVAILABLE when it cannot be reached. Reconnects by itself after. */
export async function connectRedis(url: string, logger: Logger): Promise<RedisConnection> {
  const client = createRedisClient(url);
  let reported = false;
  client.on('error', (error: Error) => {
    if (!reported) logger.warn({ err: { message: error.message } }, 'redis connection error');
    reported = true;
  });
  client.on('ready', () => {
    reported = false;
  });
  try {
    await client.connect();
  } catch (error) {
    await client.destroy();
    throw serviceUnavailable('Redis is unavailable', error);
  }
  return {
    client,
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
