import { MemoryStore, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';

/** How often, at most, a Redis that failed is asked whether it answers again. */
const PROBE_INTERVAL_MS = 1000;

/**
 * Rate-limit counters in Redis, shared by every replica, while Redis answers; in this process's
 * memory while it does not (unreachable, or slower than the connection's command timeout), so that
 * an outage neither stalls requests nor lifts the limits. A probe in the background, never a request,
 * finds out when Redis answers again, and counting returns there. Meanwhile each replica limits on
 * its own, and what it counted stays in its memory.
 */
export class FallbackRateLimitStore implements Store {
  readonly localKeys = false;
  readonly prefix = 'bkg:rate:';
  readonly #shared: RedisStore;
  readonly #local = new MemoryStore();
  #options: Options | undefined;
  #degraded = false;
  /** While counting is local: asks Redis every second whether it answers again. */
  #probe: NodeJS.Timeout | undefined;
  #probing = false;

  constructor(
    private readonly redis: RedisConnection,
    private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {
    this.#shared = new RedisStore({
      prefix: this.prefix,
      sendCommand: (...args: string[]) => redis.send<RedisReply>(args),
    });
    // A connection closed for good (the service stopping) has nothing left to probe.
    redis.client.on('end', () => clearInterval(this.#probe));
  }

  /** Called once by the limiter with its window. */
  init(options: Options): void {
    this.#options = options;
    this.#local.init(options);
    this.#shared.init(options).catch((error: unknown) => this.#fail(error));
  }

  increment(key: string): Promise<IncrementResponse> {
    return this.#use((store) => store.increment(key));
  }

  decrement(key: string): Promise<void> {
    return this.#use((store) => store.decrement(key));
  }

  resetKey(key: string): Promise<void> {
    return this.#use((store) => store.resetKey(key));
  }

  async #use<T>(operation: (store: Store) => T | Promise<T>): Promise<T> {
    if (!this.#degraded) {
      try {
        return await operation(this.#shared);
      } catch (error) {
        this.#fail(error);
      }
    }
    return operation(this.#local);
  }

  #fail(error: unknown): void {
    if (this.#degraded) return;
    this.#degraded = true;
    if (this.redis.client.isOpen) this.#probe = setInterval(() => this.#tryRedis(), PROBE_INTERVAL_MS).unref();
    this.metrics.rateLimitDegraded.set(1);
    this.metrics.rateLimitFallbacks.inc();
    this.logger.warn({ err: error }, 'rate limits are counted in this process alone until Redis answers again');
  }

  #tryRedis(): void {
    if (this.#probing || !this.#options) return;
    this.#probing = true;
    // Loading the scripts is the probe, and a Redis that restarted empty needs them again anyway.
    this.#shared
      .init(this.#options)
      .then(
        () => {
          this.#degraded = false;
          clearInterval(this.#probe);
          this.#probe = undefined;
          this.metrics.rateLimitDegraded.set(0);
          this.logger.info('rate limits are counted in Redis again');
        },
        () => undefined,
      )
      .finally(() => {
        this.#probing = false;
      });
  }
}
