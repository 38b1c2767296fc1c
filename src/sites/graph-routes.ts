import { join } from 'node:path';
import { Router, type Request } from 'express';
import { AppError, badUserInput } from '../errors/app-error.ts';
import { receiveBody } from '../http/receive-body.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { RdfSyntaxError, type GraphStore, type RdfFormat } from '../store/graph-store.ts';
import { readableSite, requireCredentials, writableSite } from './site-access.ts';
import type { SiteStore } from './site-store.ts';

const FORMATS: Readonly<Record<string, RdfFormat>> = {
  'text/turtle': 'text/turtle',
  'application/x-turtle': 'text/turtle',
  'application/n-triples': 'application/n-triples',
  'application/n-quads': 'application/n-quads',
  'application/ld+json': 'application/ld+json',
};

function formatOf(req: Request): RdfFormat {
  const type = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const format = FORMATS[type];
  if (!format) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be one of ${Object.keys(FORMATS).join(', ')}.`, { supported: Object.keys(FORMATS) });
  }
  return format;
}

export interface GraphRoutesOptions {
  readonly tmpDir: string;
  readonly maxUploadBytes: number;
}

/** `/sites/{id}/graph`: PUT replaces, POST merges, GET exports the site's graph. */
export function graphRoutes(sites: SiteStore, store: GraphStore, options: GraphRoutesOptions): Router {
  const router = Router();

  const load = (replace: boolean) => async (req: Request<{ siteId: string }>, res: import('express').Response) => {
    requireCredentials(req.client);
    const site = await writableSite(sites, req.client, req.params.siteId);
    const format = formatOf(req);
    const started = performance.now();
    const body = await receiveBody(req, options.tmpDir, options.maxUploadBytes);
    try {
      const graph = siteGraph(site.id);
      const { triples } = replace ? await store.replaceGraph(graph, { path: body.path }, format) : await store.mergeGraph(graph, { path: body.path }, format);
      const seconds = (performance.now() - started) / 1000;
      res.json({ site: site.id, triples, bytes: body.bytes, seconds: Number(seconds.toFixed(3)) });
    } catch (error) {
      if (error instanceof RdfSyntaxError) {
        throw badUserInput(`The ${format} body has a syntax error: ${error.message}`, { line: error.line, column: error.column });
      }
      throw error;
    } finally {
      await body.remove();
    }
  };

  router.put('/:siteId/graph', load(true));
  router.post('/:siteId/graph', load(false));
  router.get('/:siteId/graph', async (req, res) => {
    requireCredentials(req.client);
    const site = await readableSite(sites, req.client, req.params.siteId);
    const format = req.accepts(['text/turtle', 'application/n-triples']);
    if (!format) throw new AppError('NOT_ACCEPTABLE', 'Accept text/turtle or application/n-triples.');
    res.type(format).send(await store.exportGraph(siteGraph(site.id), format as 'text/turtle' | 'application/n-triples'));
  });
  return router;
}

/** Where uploads are spooled. */
export const uploadDir = (dataDir: string) => join(dataDir, 'tmp');
