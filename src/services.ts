import { createAuthenticator, type Authenticator } from './auth/authenticator.ts';
import { KeyStore } from './auth/key-store.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/database.ts';
import { GraphHistory } from './history/graph-history.ts';
import { VersionStore } from './history/version-store.ts';
import { VersionFeed, redisFeedEvents } from './history/version-feed.ts';
import { changedEntities } from './history/changed-entities.ts';
import { memorySiteEvents } from './redis/site-events.ts';
import { openDatabase } from './db/open-database.ts';
import type { BlobStore } from './blobs/blob-store.ts';
import { openBlobStore } from './blobs/open-blob-store.ts';
import { sweepTemporaryFiles } from './blobs/temp-dir.ts';
import { demoFilesRestorer } from './files/demo-files.ts';
import { SiteFiles } from './files/site-files.ts';
import { IfcModels } from './ifc/ifc-models.ts';
import type { Logger } from './log/logger.ts';
import { Metrics } from './metrics/metrics.ts';
import { Ontology } from './ontology/ontology.ts';
import { ensureOntologyGraph, ontologyGraphVersion } from './ontology/ensure-ontology-graph.ts';
import { QueryLayer } from './query/query-layer.ts';
import { storeRunner } from './query/query-runner.ts';
import { SiteCaches } from './query/site-caches.ts';
import type { CurrentValues } from './readings/current-values.ts';
import { Readings } from './readings/readings.ts';
import type { RedisConnection } from './redis/redis-connection.ts';
import { DemoSimulator } from './simulator/demo-simulator.ts';
import { DemoSite, demoSiteRecord } from './graphs/demo-site.ts';
import { StartupError } from './startup/startup-error.ts';
import { loadSiteFile, SiteFileError, siteFilesIn } from './graphs/load-site-files.ts';
import { SiteStore } from './tenants/site-store.ts';
import { ModelValidation } from './validation/model-validation.ts';
import { InstrumentedStore } from './store/instrumented-store.ts';
import { openGraphStore } from './store/open-graph-store.ts';
import type { GraphStore } from './store/graph-store.ts';
import { openEngines } from './startup/open-engines.ts';
import { serialize } from './rdf/sparql-serializer.ts';

/** The engines and shared state of one running service. */
export interface Services {
  readonly store: InstrumentedStore;
  readonly ontology: Ontology;
  /** Plans run against what is kept of each site's graph (the only way to the graph's entities). */
  readonly query: QueryLayer;
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
  /** Reads IFC files and converts them to fragments in the background. */
  readonly ifc: IfcModels;
  /** The latest readings, for `currentValue`. */
  readonly readings: CurrentValues;
  /** Readings: store, ingestion (REST, MQTT, demo simulator), live events. */
  readonly live: Readings;
  /** Writes the demo site's readings, when there is a demo site and the simulator is enabled. */
  readonly simulator: DemoSimulator | undefined;
  /** Prometheus metrics of this service. */
  readonly metrics: Metrics;
  /** Checks models against Brick's shapes, in a worker thread. */
  readonly validation: ModelValidation;
  /** The versions of each site's graph: every change recorded, writes of a site in turn. */
  readonly history: GraphHistory;
  /** Each site's graph changes as they commit, for whoever follows them. */
  readonly feed: VersionFeed;
  close(): Promise<void>;
}

/** Opens the engines the configuration names, loads the ontology, the demo site and the site files. */
export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const started = performance.now();
  const swept = await sweepTemporaryFiles(config.dataDir);
  if (swept.files > 0) logger.info(swept, 'temporary files swept');
  // Every engine at once: a start-up with several bad engines reports them all (one line each).
  const engines = await openEngines({
    ontology: () => Ontology.load(config.ontologyPath),
    'graph store': () => openPingedGraphStore(config, logger),
    database: () => openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }),
    // The Redis client is imported only when configured (a quarter of a second to load).
    redis: async () =>
      config.redisUrl ? (await import('./redis/redis-connection.ts')).connectRedis(config.redisUrl, logger) : undefined,
    'file store': () => openBlobStore(config.files, config.dataDir),
  });
  const { ontology, database, redis } = engines;
  const blobs = engines['file store'];
  const store = new InstrumentedStore(engines['graph store']);
  const metrics = new Metrics();
  metrics.watchStore(store);
  // A query is algebra: printed again only where it is logged.
  store.onQuery(
    ({ query, durationMs, ok }) =>
      logger.isLevelEnabled('debug') &&
      logger.debug(
        { store: store.name, durationMs: Number(durationMs.toFixed(2)), ok, query: serialize(query) },
        'sparql query',
      ),
  );
  // Only an external SPARQL store may be changed by another replica: elsewhere this process sees every change, and keeps what it reads of a site until the graph changes.
  const ontologyVersion = await ontologyGraphVersion(ontology, config.ontologyPath);
  const query = new QueryLayer(
    storeRunner(store),
    new SiteCaches(store, ontology, { seesEveryChange: config.graphStore.kind !== 'sparql', ontologyVersion }),
  );
  const { triples: ontologyTriples, written } = await ensureOntologyGraph(
    store,
    ontology,
    config.ontologyPath,
    ontologyVersion,
  );
  logger.info(
    {
      ontology: config.ontologyPath,
      store: store.name,
      classes: ontology.classes.size,
      triples: ontologyTriples,
      written,
    },
    'ontology loaded',
  );

  const sites = new SiteStore(database);
  const keys = new KeyStore(database);
  const versionStore = new VersionStore(database);
  const feed = new VersionFeed(
    redis ? redisFeedEvents(redis, config.history.channelPrefix, logger) : memorySiteEvents(),
    versionStore,
    (site, patches, max) => changedEntities(query, ontology, site, patches, max),
    logger,
  );
  // Replicas share an external SPARQL store: each reads the latest version from the records.
  const history = new GraphHistory(
    versionStore,
    { ...config.history, othersWrite: config.graphStore.kind === 'sparql' },
    logger,
    feed,
  );
  const files = new SiteFiles(database, blobs, logger);
  files.scheduleSweep(6 * 60 * 60 * 1000);
  const ifc = new IfcModels(files, database, config.ifc, config.dataDir, logger);

  let demo: DemoSite | undefined;
  if (config.demoFixture) {
    demo = new DemoSite(config.demoFixture, store, sites, logger);
    if (config.files.demoFilesDir) demo.onReset(demoFilesRestorer(files, config.files.demoFilesDir));
    await demo.reset();
    demo.schedule(config.demoResetSeconds);
  }
  for (const file of config.sitesDir ? await siteFilesIn(config.sitesDir, logger) : []) {
    await loadSiteFile(store, file, logger).catch(async (error: unknown) => {
      if (!(error instanceof SiteFileError)) throw error;
      // Start-up stops here: what opened so far is closed, and the problem names the file.
      demo?.stop();
      files.stop();
      await Promise.allSettled([redis?.close(), database.close(), store.close()]);
      throw new StartupError([error.message]);
    });
    await sites.ensure({
      id: file.siteId,
      name: file.siteId,
      organization: null,
      address: null,
      city: null,
      country: null,
      country_code: null,
      latitude: null,
      longitude: null,
      timezone: 'UTC',
    });
  }
  await ifc.start();
  const live = new Readings(config.readings, { database, sites, redis }, logger);
  const simulator =
    demo && config.readings.simulator.enabled ? startSimulator(config, query, live, demo, logger) : undefined;
  // Started at its first validation, so a service that never validates pays nothing.
  const validation = new ModelValidation({ ontologyPath: config.ontologyPath, ...config.validation, logger });
  metrics.watchReadings(live.ingest);
  if (live.mqtt) metrics.watchMqtt(live.mqtt);
  logger.info(
    {
      database: database.kind,
      redis: Boolean(redis),
      seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    },
    'services ready',
  );
  return {
    store,
    ontology,
    query,
    database,
    sites,
    keys,
    redis,
    authenticator: createAuthenticator(config.auth, keys),
    demo,
    blobs,
    files,
    ifc,
    readings: live.currentValues,
    live,
    simulator,
    metrics,
    validation,
    history,
    feed,
    async close() {
      demo?.stop();
      files.stop();
      await ifc.stop();
      await simulator?.stop();
      await live.close();
      await feed.close();
      await redis?.close();
      await database.close();
      await validation.close();
      await store.close();
    },
  };
}

/** The demo simulator, writing through the readings and refreshing its points on each demo reset. */
function startSimulator(
  config: Config,
  query: QueryLayer,
  live: Readings,
  demo: DemoSite,
  logger: Logger,
): DemoSimulator {
  const simulator = new DemoSimulator(query, live.store, live.ingest, logger, {
    intervalSeconds: config.readings.simulator.intervalSeconds,
    backfillDays: config.readings.simulator.backfillDays,
    timeZone: demoSiteRecord.timezone,
  });
  demo.onReset(async () => simulator.refreshPoints());
  // In the background: a first start's backfill takes a few seconds and the service can serve meanwhile.
  void simulator.start();
  return simulator;
}

/** The configured graph store, once it has answered a query (an endpoint that is down fails start-up). */
async function openPingedGraphStore(config: Config, logger: Logger): Promise<GraphStore> {
  const store = await openGraphStore(config.graphStore, config.limits.loadDeadline, config.dataDir, logger);
  try {
    await store.ping();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}
