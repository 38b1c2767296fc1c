import express, { type Express } from 'express';
import type { Config } from '../config/config.ts';
import { createGraphQL } from '../graphql/create-yoga.ts';
import type { Services } from '../services.ts';

/** The express app: GraphQL and the health endpoints. */
export function createApp(config: Config, services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  const yoga = createGraphQL(config, { store: services.store, ontology: services.ontology, sites: services.sites });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      await services.store.ping();
      res.json({ status: 'ready', engines: { graph: 'ok' } });
    } catch {
      res.status(503).json({ status: 'unavailable', engines: { graph: 'unavailable' } });
    }
  });
  app.use(yoga.graphqlEndpoint, yoga as unknown as express.RequestHandler);
  return app;
}
