import { Router, json } from 'express';
import { DEMO_SITE } from '../auth/client.ts';
import { forbidden } from '../errors/app-error.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { readableSite, requireAdmin, requireCredentials } from './site-access.ts';
import { newSiteSchema } from './site-schema.ts';
import type { SiteStore } from './site-store.ts';

/** Things that hold a site's data beyond its graph, removed with the site (files, readings). */
export type SiteDataRemover = (siteId: string) => Promise<void>;

/** `/sites/`: list, create, read, delete (SPEC 4.4). */
export function sitesRoutes(sites: SiteStore, store: GraphStore, removers: readonly SiteDataRemover[]): Router {
  const router = Router();
  router.use(json({ limit: '64kb' }));

  router.get('/', async (req, res) => {
    requireCredentials(req.client);
    const client = req.client;
    // The demo site is everyone's to read (canRead), so everyone's list shows it.
    const readable = client.kind === 'anonymous' ? [] : client.sites === '*' ? '*' : [...client.sites, DEMO_SITE];
    res.json(await sites.list(readable));
  });

  router.post('/', async (req, res) => {
    requireCredentials(req.client);
    requireAdmin(req.client);
    const site = validateBody(newSiteSchema, req.body);
    if (site.id === DEMO_SITE) throw forbidden('The demo site is read-only.');
    res.status(201).json(await sites.create(site));
  });

  router.get('/:siteId', async (req, res) => {
    requireCredentials(req.client);
    res.json(await readableSite(sites, req.client, req.params.siteId));
  });

  router.delete('/:siteId', async (req, res) => {
    requireCredentials(req.client);
    const site = await readableSite(sites, req.client, req.params.siteId);
    requireAdmin(req.client);
    if (site.id === DEMO_SITE) throw forbidden('The demo site is read-only.');
    // The record goes last: while anything else remains, the site can still be found and deleted again.
    await store.dropGraph(siteGraph(site.id));
    for (const remove of removers) await remove(site.id);
    await sites.delete(site.id);
    res.status(204).end();
  });

  return router;
}
