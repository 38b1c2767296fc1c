import { createAuthenticator, type Authenticator } from './auth/authenticator.ts';
import { KeyStore } from './auth/key-store.ts';
import type { Config } from './config/config.ts';
import { openDatabase, type Database } from './db/database.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { openBlobStore } from './blobs/open-blob-store.ts';
import { demoFilesRestorer } from './files/demo-files.ts';
import { SiteFiles } from './files/site-files.ts';
import type { Logger } from './log/logger.ts';
import { Ontology } from './ontology/ontology.ts';
import { ensureOntologyGraph } from './ontology/ensure-ontology-graph.ts';
import type { CurrentValues } from './readings/current-values.ts';
import { Readings } from './readings/readings.ts';
import { connectRedis, type RedisConnection } from './redis/redis-connection.ts';
import { DemoSite } from './sites/demo-site.ts';
import { loadSiteFile, siteFilesIn } from './sites/load-site-files.ts';
import { SiteStore } from './sites/site-store.ts';
import { InstrumentedStore } from './store/instrumented-store.ts';
import { openGraphStore } from './store/open-graph-store.ts';

/** The engines and shared state of one running service. */
export interface Services {
  readonly store: InstrumentedStore;
  readonly ontology: Ontology;
  readonly database: Database;
  readonly sites: SiteStore;
  readonly keys: KeyStore;
  readonly redis: RedisConnection | undefined;
  readonly authenticator: Authenticator;
  readonly demo: DemoSite | undefined;
  /** Where file bytes live (local disk or S3). */
  readonly blobs: BlobStore;
  /** Site files and models: records and bytes together. */
  readonly files: SiteFiles;
  /** The latest readings, for `currentValue`. */
  readonly readings: CurrentValues;
  /** Readings: store, ingestion (REST, MQTT, demo simulator), live events. */
  readonly live: Readings;
  close(): Promise<void>;
}

/** Opens the engines the configuration names, loads the ontology, the demo site and the site files. */
export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const started = performance.now();
  const ontology = await Ontology.load(config.ontologyPath);
  const store = new InstrumentedStore(await openGraphStore(config.graphStore, config.dataDir));
  store.onQuery(({ query, durationMs, ok }) => logger.debug({ store: store.name, durationMs: Number(durationMs.toFixed(2)), ok, query }, 'sparql query'));
  const { triples: ontologyTriples, written } = await ensureOntologyGraph(store, ontology, config.ontologyPath);
  logger.info({ ontology: config.ontologyPath, store: store.name, classes: ontology.classes.size, triples: ontologyTriples, written }, 'ontology loaded');

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const sites = new SiteStore(database);
  const keys = new KeyStore(database);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, logger) : undefined;
  const blobs = await openBlobStore(config.files, config.dataDir);
  const files = new SiteFiles(database, blobs, logger);
  files.scheduleSweep(6 * 60 * 60 * 1000);

  let demo: DemoSite | undefined;
  if (config.demoFixture) {
    demo = new DemoSite(config.demoFixture, store, sites, logger);
    if (config.files.demoFilesDir) demo.onReset(demoFilesRestorer(files, config.files.demoFilesDir));
    await demo.reset();
    demo.schedule(config.demoResetSeconds);
  }
  for (const file of config.sitesDir ? await siteFilesIn(config.sitesDir, logger) : []) {
    await loadSiteFile(store, file, logger);
    await sites.ensure({ id: file.siteId, name: file.siteId, organization: null, address: null, city: null, country: null, country_code: null, latitude: null, longitude: null, timezone: 'UTC' });
  }
  const live = new Readings(config.readings, { database, sites, redis, store, ontology, demo }, logger);
  logger.info({ database: database.kind, redis: Boolean(redis), seconds: Number(((performance.now() - started) / 1000).toFixed(2)) }, 'services ready');
  return {
    store,
    ontology,
    database,
    sites,
    keys,
    redis,
    authenticator: createAuthenticator(config.auth, keys),
    demo,
    blobs,
    files,
    readings: live.currentValues,
    live,
    async close() {
      demo?.stop();
      files.stop();
      await live.close();
      await redis?.close();
      await database.close();
      await store.close();
    },
  };
}
