import type { Database } from '../db/database.ts';
import type { Logger } from '../log/logger.ts';
import { MqttReadings } from './mqtt-readings.ts';
import type { Ontology } from '../ontology/ontology.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import { DemoSimulator } from '../simulator/demo-simulator.ts';
import type { DemoSite } from '../sites/demo-site.ts';
import { demoSiteRecord } from '../sites/demo-site.ts';
import type { SiteStore } from '../sites/site-store.ts';
import type { GraphStore } from '../store/graph-store.ts';
import type { CurrentValues } from './current-values.ts';
import type { LivePointValues } from './point-values-subscription.ts';
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
  readonly store: GraphStore;
  readonly ontology: Ontology;
  readonly demo: DemoSite | undefined;
}

/**
 * The readings feature: the store, the one ingestion path (REST, MQTT, simulator), events for live
 * subscriptions (Redis across replicas when configured), currentValue, the MQTT subscriber and
 * the demo simulator.
 */
export class Readings implements LivePointValues {
  readonly store: ReadingStore;
  readonly events: ReadingEvents;
  readonly ingest: ReadingIngest;
  readonly currentValues: CurrentValues;
  readonly mqtt: MqttReadings | undefined;
  readonly simulator: DemoSimulator | undefined;

  constructor(
    config: ReadingsConfig,
    private readonly deps: ReadingsDependencies,
    logger: Logger,
  ) {
    this.store = new ReadingStore(deps.database);
    this.events = deps.redis ? redisReadingEvents(deps.redis, config.redisChannelPrefix, logger) : memoryReadingEvents();
    this.ingest = new ReadingIngest(this.store, this.events);
    this.currentValues = storedCurrentValues(this.store);
    this.mqtt = config.mqtt && new MqttReadings(config.mqtt, deps.sites, this.ingest, logger);
    if (deps.demo && config.simulator.enabled) {
      const simulator = new DemoSimulator(deps.store, deps.ontology, this.store, this.ingest, logger, {
        intervalSeconds: config.simulator.intervalSeconds,
        backfillDays: config.simulator.backfillDays,
        timeZone: demoSiteRecord.timezone,
      });
      deps.demo.onReset(async () => simulator.refreshPoints());
      // In the background: a first start's backfill takes a few seconds and the service can serve meanwhile.
      void simulator.start();
      this.simulator = simulator;
    }
  }

  async timeZoneOf(siteId: string): Promise<string> {
    return (await this.deps.sites.get(siteId))?.timezone ?? 'UTC';
  }

  /** Stops the simulator and the subscriber, then the events; the database is closed by its owner. */
  async close(): Promise<void> {
    await this.simulator?.stop();
    await this.mqtt?.close();
    await this.events.close();
  }
}
