import express, { type Express } from 'express';
import { keysRoutes } from '../keys/keys-routes.ts';
import type { Config } from '../config/config.ts';
import { notFound } from '../errors/app-error.ts';
import { createGraphQL, typeDefs } from '../graphql/create-yoga.ts';
import { graphqlBodyType } from '../graphql/graphql-body-type.ts';
import { mcpRoutes } from '../mcp/mcp-routes.ts';
import type { Logger } from '../log/logger.ts';
import { readingsRoutes } from '../readings/readings-routes.ts';
import type { Services } from '../services.ts';
import { MemoryGraphLoads } from '../graphs/graph-loads.ts';
import { SharedGraphLoads } from '../graphs/shared-graph-loads.ts';
import { graphRoutes } from '../graphs/graph-routes.ts';
import { historyRoutes } from '../history/history-routes.ts';
import { spoolDir } from '../blobs/temp-dir.ts';
import { sitesRoutes } from '../sites/sites-routes.ts';
import { timeseriesRoutes } from '../timeseries/timeseries-routes.ts';
import { filesRoutes } from '../files/files-routes.ts';
import { modelsRoutes } from '../models/models-routes.ts';
import { alignmentRoutes } from '../alignment/alignment-routes.ts';
import { AlignmentService } from '../alignment/alignment-service.ts';
import { viewerAssets } from '../viewer/viewer-assets.ts';
import { errorHandler } from './error-handler.ts';
import { sparqlRoutes } from '../sparql-endpoint/sparql-routes.ts';
import '../http-kit/request-context.ts';
import { useAuthentication } from './use-authentication.ts';
import { useCors } from './use-cors.ts';
import { useRateLimit } from './use-rate-limit.ts';
import { useRequestWork } from './use-request-work.ts';
import { docsRoutes } from '../openapi/docs-routes.ts';
import { metricsRoute } from './metrics-route.ts';
import { livenessRoute } from './liveness-route.ts';
import { readinessRoute } from './readiness-route.ts';
import { faviconRoute } from './favicon-route.ts';
import { graphiqlAssets } from '../graphql/graphiql.ts';
import { listAppRoutes, routeNamer } from './route-table.ts';
import { useRequestMetrics } from './use-request-metrics.ts';
import { useRequestScope } from './use-request-scope.ts';
import { SubscriptionSlots } from '../limits/subscription-slots.ts';
import { AnswerCache } from '../graphql/answer-cache.ts';

/** The express app: health, then authentication and rate limits, then GraphQL and the REST API. */
export function createApp(config: Config, services: Services, logger: Logger): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');

  // Every request gets an id, a log scope, an access-log line and its metrics; the route names come
  // from the finished app (below).
  let routeOf: (method: string, path: string) => string = () => 'unmatched';
  app.use(
    useRequestScope(),
    useRequestMetrics(services.metrics, logger, (method, path) => routeOf(method, path)),
  );
  app.use(useCors(config.cors));

  // Probes, metrics, documentation and the icon are neither authenticated nor limited.
  app.get('/metrics', metricsRoute(services.metrics, config.metricsToken));
  app.use(docsRoutes(), graphiqlAssets(), faviconRoute());
  app.get('/healthz', livenessRoute(services.store));
  app.get('/readyz', readinessRoute(services));

  // The viewer page is public: it holds no data.
  app.use('/viewer', viewerAssets());

  // A failed authentication counts against its address's anonymous limit, so it needs the limiter.
  const rateLimit = useRateLimit(config.rateLimits, services, logger);
  app.use(useAuthentication(services.authenticator, rateLimit));
  app.use(rateLimit);
  // Every request past the limits runs with its deadline, its budget and its client's signal.
  app.use(useRequestWork(config.limits));

  // Subscriptions and feeds of graph changes count against one cap per client.
  const slots = new SubscriptionSlots(config.subscriptionCaps);
  const answers = new AnswerCache(config.graphqlCacheBytes);
  // Every change of a graph through this process, recorded as a version or not (the demo's reset), ends what was kept of it.
  services.store.onChange(({ graph, done }) => {
    if (done) answers.changed(graph);
  });
  const yoga = createGraphQL(config, { ...services, slots, answers }, logger);
  app.use(yoga.graphqlEndpoint, graphqlBodyType(), yoga as unknown as express.RequestHandler);

  // With Redis, any replica answers a poll of a load's progress.
  const loads = services.redis ? new SharedGraphLoads(services.redis, logger) : new MemoryGraphLoads();
  const graph = graphRoutes(services.sites, services.store, {
    tmpDir: spoolDir(config.dataDir),
    maxUploadBytes: config.maxGraphUploadBytes,
    validation: services.validation,
    loads,
    query: services.query,
    history: services.history,
  });
  const history = historyRoutes(services.sites, services.store, services.history, { feed: services.feed, slots });
  const sites = sitesRoutes(services.sites, services.store, [
    (siteId) => services.files.removeSite(siteId),
    (siteId) => services.keys.removeSite(siteId),
    async (siteId) => services.history.forget(siteId),
  ]);
  const download = { redirectByDefault: config.files.downloadRedirect, urlSeconds: config.files.downloadUrlSeconds };
  const modelElements = { ifc: services.ifc, query: services.query };
  const models = modelsRoutes(services.sites, services.files, modelElements, { download });
  // The viewer page reads the demo site's models without a key (the demo site is public).
  app.use(
    '/viewer/api/sites',
    modelsRoutes(services.sites, services.files, modelElements, { download, anonymousDemo: true }),
  );
  const alignment = alignmentRoutes(
    services.sites,
    new AlignmentService(services.database, services.query, services.store, services.history),
  );
  const readings = readingsRoutes(services.sites, services.live.ingest);
  const timeseries = timeseriesRoutes({ sites: services.sites, query: services.query, readings: services.live.store });
  // Existing clients call the site routes without the version segment too.
  const sparql = sparqlRoutes(services.sites, services.store, config.sparqlEndpoint);
  for (const base of ['/api/v1/sites', '/api/sites']) app.use(base, readings, timeseries, sparql);
  // Before the site routes, whose JSON body limit (64 kB) would otherwise hold for a long list of ids.
  app.use('/api/v1/sites', alignment);
  for (const base of ['/api/v1/sites', '/api/sites']) app.use(base, graph, history, sites, models);
  app.use(
    '/api/files',
    filesRoutes(services.sites, services.files, {
      maxUploadBytes: config.files.maxUploadBytes,
      siteQuotaBytes: config.files.siteQuotaBytes,
      download,
    }),
  );
  app.use('/api/v1/keys', keysRoutes(services.keys));
  app.use(
    '/mcp',
    mcpRoutes(
      {
        sites: services.sites,
        store: services.store,
        query: services.query,
        readings: services.live.store,
        files: services.files,
        graphql: yoga,
        schemaText: typeDefs,
        sparqlLimits: config.sparqlEndpoint,
        history: services.history,
        feed: services.feed,
      },
      slots,
    ),
  );

  app.use((req, _res, next) => next(notFound(`No route for ${req.method} ${req.path}.`)));
  app.use(errorHandler(logger));
  // Handlers that are not express routes: GraphQL, and the viewer's static files.
  routeOf = routeNamer(listAppRoutes(app), [yoga.graphqlEndpoint, '/viewer']);
  return app;
}
