import type { Logger } from '../log/logger.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import { GraphLoad, KEPT_MS, MemoryGraphLoads, type GraphLoadRecord, type GraphLoads } from './graph-loads.ts';

/** Redis key of a site's latest load: this prefix, then the site id. */
const KEY_PREFIX = 'bkg:graph-load:';
/** How often, at most, a running load's changes are written: a large upload changes thousands of times a second. */
const WRITE_INTERVAL_MS = 250;
/** How often a running load that did not change is written anyway, so that its key outlives it. */
const REFRESH_MS = 60_000;

/**
 * The latest load of each site's graph, in Redis, so that a poll of `GET …/graph/load` reaching
 * any replica behind a load balancer is answered. Each key expires KEPT_MS after its last write: a
 * load KEPT_MS after it ended, as in memory; a running one is written at least every minute, so
 * the load of a replica that died goes too. Redis is never in a load's way: a write that fails is
 * logged and the load goes on, and this replica's own loads (kept in memory too) answer while
 * Redis does not.
 */
export class SharedGraphLoads implements GraphLoads {
  private readonly own = new MemoryGraphLoads();

  constructor(
    private readonly redis: RedisConnection,
    private readonly logger: Logger,
  ) {}

  start(site: string, replace: boolean, bytesTotal: number | null): GraphLoad {
    let written = -1;
    let writtenAt = 0;
    let writing: Promise<void> | undefined;
    const write = (): Promise<void> => {
      written = load.version;
      writtenAt = Date.now();
      const record = JSON.stringify(load.record());
      writing = this.redis
        .send(['SET', KEY_PREFIX + site, record, 'PX', String(KEPT_MS)])
        .then(() => undefined)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, site }, 'could not share a graph load’s progress through Redis'),
        )
        .finally(() => (writing = undefined));
      return writing;
    };
    // Throttled: one write in flight at most, the changes since it sent with the next.
    const timer = setInterval(() => {
      if (!writing && (load.version !== written || Date.now() - writtenAt > REFRESH_MS)) void write();
    }, WRITE_INTERVAL_MS).unref();
    // The end is written at once, after any write in flight (the connection keeps their order).
    const ended = async () => {
      clearInterval(timer);
      await write();
    };
    const load = this.own.add(new GraphLoad(site, replace, bytesTotal, ended));
    void write();
    return load;
  }

  /** The latest load Redis knows, or this replica's own when it is later (its write failed) or Redis does not answer. */
  async latest(site: string): Promise<GraphLoadRecord | undefined> {
    const own = await this.own.latest(site);
    let shared: GraphLoadRecord | undefined;
    try {
      const text = await this.redis.send<string | null>(['GET', KEY_PREFIX + site]);
      shared = text === null ? undefined : (JSON.parse(text) as GraphLoadRecord);
    } catch (error) {
      this.logger.warn(
        { err: error, site },
        'could not read a graph load’s progress from Redis; answering this replica’s own',
      );
    }
    if (!shared) return own;
    return own && own.startedMs > shared.startedMs ? own : shared;
  }
}
