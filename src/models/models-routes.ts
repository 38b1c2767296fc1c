import { Router } from 'express';
import { notFound } from '../errors/app-error.ts';
import { UUID, listModelsQuery } from '../files/file-fields.ts';
import { sendFile, type DownloadOptions } from '../files/send-file.ts';
import type { ModelFormat } from '../files/site-file.ts';
import type { SiteFiles } from '../files/site-files.ts';
import { validateBody } from '../http/validate-body.ts';
import { readableSite, requireCredentials } from '../sites/site-access.ts';
import type { SiteStore } from '../sites/site-store.ts';
import { modelFile } from './model-file.ts';

/**
 * `/sites/{siteId}/models` (SPEC 4.2): a site's model files (site files whose format is ifc, frag,
 * glb or obj) for 3D viewers, and their bytes. Mounted beside the site routes.
 */
export function modelsRoutes(sites: SiteStore, files: SiteFiles, download: DownloadOptions): Router {
  const router = Router();

  router.get('/:siteId/models', async (req, res) => {
    requireCredentials(req.client);
    const site = await readableSite(sites, req.client, req.params.siteId);
    const query = validateBody(listModelsQuery, req.query);
    const models = await files.models(site.id, { format: query.file_format, storey: query.storey });
    const base = `${req.baseUrl}/${site.id}/models`;
    res.json(models.map((file) => modelFile(file as typeof file & { format: ModelFormat }, `${base}/${file.id}/download`)));
  });

  router.get('/:siteId/models/:modelId/download', async (req, res) => {
    requireCredentials(req.client);
    const site = await readableSite(sites, req.client, req.params.siteId);
    const id = req.params.modelId;
    const file = UUID.test(id) ? await files.get(id.toLowerCase()) : undefined;
    if (!file || file.site !== site.id || file.format === null) throw notFound(`Model "${id.slice(0, 100)}" not found.`);
    await sendFile(req, res, files.blobs, file, download);
  });

  return router;
}
