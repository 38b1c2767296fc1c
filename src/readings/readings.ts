import type { Database } from '../db/database.ts';
import type { Logger } from '../log/logger.ts';
import { MqttReadings } from './mqtt-readings.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import type { CurrentValues } from './current-values.ts';
import { memoryReadingEvents, redisReadingEvents, type ReadingEvents } from './reading-events.ts';
import { ReadingIngest } from './reading-ingest.ts';
import { ReadingStore } from './reading-store.ts';
import type { ReadingsConfig } from '../config/readings-config.ts';
import { storedCurrentValues } from './stored-current-values.ts';

/** What the readings feature runs on, and what it needs from the rest of the service. */
export interface ReadingsDependencies {
  readonly database: Database;
  readonly sites: SiteStore;
  readonly redis: RedisConnection | undefined;
}

/**
 * The readings feature: the store, the one ingestion path (REST, MQTT, simulator), events for live
 * subscriptions (Redis across replicas when configured), currentValue and the MQTT subscriber.
 * The demo simulator writes through it; the composition root starts it (src/services.ts).
 */
export class Readings {
  readonly store: ReadingStore;
  readonly events: ReadingEvents;
  readonly ingest: ReadingIngest;
  readonly currentValues: CurrentValues;
  readonly mqtt: MqttReadings | undefined;

  constructor(
    config: ReadingsConfig,
    private readonly deps: ReadingsDependencies,
    logger: Logger,
  ) {
    this.store = new ReadingStore(deps.database);
    this.events = deps.redis
      ? redisReadingEvents(deps.redis, config.redisChannelPrefix, logger)
      : memoryReadingEvents();
    this.ingest = new ReadingIngest(this.store, this.events);
    this.currentValues = storedCurrentValues(this.store);
    this.mqtt = config.mqtt && new MqttReadings(config.mqtt, deps.sites, this.ingest, logger);
  }

  async timeZoneOf(siteId: string): Promise<string> {
    return (await this.deps.sites.get(siteId))?.timezone ?? 'UTC';
  }

  /** Stops the subscriber, then the events; the database is closed by its owner. */
  async close(): Promise<void> {
    await this.mqtt?.close();
    await this.events.close();
  }
}
