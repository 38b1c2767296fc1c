import { Router } from 'express';
import { DEMO_SITE } from '../auth/client.ts';
import { forbidden, notFound } from '../errors/app-error.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { readableSite, readableSiteIds, requireAdmin, requireCredentials } from '../tenants/site-access.ts';
import { newSiteSchema, siteChangesSchema } from './site-schema.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import { jsonBody } from '../http-kit/json-body.ts';

/** Things that hold a site's data beyond its graph, removed with the site (files, readings). */
export type SiteDataRemover = (siteId: string) => Promise<void>;

/** `/sites/`: list, create, read, update, delete. */
export function sitesRoutes(sites: SiteStore, store: GraphStore, removers: readonly SiteDataRemover[]): Router {
  const router = Router();
  router.use(jsonBody('64kb'));

  router.get('/', async (req, res) => {
    requireCredentials(req.client);
    res.json(await sites.list(readableSiteIds(req.client)));
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

  router.patch('/:siteId', async (req, res) => {
    requireCredentials(req.client);
    const site = await readableSite(sites, req.client, req.params.siteId);
    requireAdmin(req.client);
    if (site.id === DEMO_SITE) throw forbidden('The demo site is read-only.');
    const changes = validateBody(siteChangesSchema, req.body);
    // Readings are stored as instants: a new time zone changes how answers write them, from now on.
    const updated = await sites.update(site.id, changes);
    if (!updated) throw notFound(`Site "${site.id}" not found.`);
    res.json(updated);
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
