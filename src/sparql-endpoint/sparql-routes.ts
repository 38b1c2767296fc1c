import express, { Router, type Request, type Response } from 'express';
import { AppError, badUserInput, unsupportedMediaType } from '../errors/app-error.ts';
import { mediaType } from '../http-kit/media-type.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { readableSite } from '../tenants/site-access.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { answerQuery, siteQuery, type SparqlLimits } from './answer-query.ts';
import { RESULT_TYPES, writeResults } from './write-results.ts';
import { MAX_QUERY_LENGTH, sparqlQueryParams } from './sparql-query-params.ts';

const QUERY_TYPES = ['application/x-www-form-urlencoded', 'application/sparql-query'];

/**
 * `GET|POST /sites/{siteId}/sparql`: the SPARQL 1.1 Protocol, queries only, over exactly the site's
 * graph and the ontology graph. Readable sites as in GraphQL (anonymous callers: the demo site).
 */
export function sparqlRoutes(sites: SiteStore, store: GraphStore, limits: SparqlLimits): Router {
  const router = Router();
  const handle = async (req: Request<{ siteId: string }>, res: Response, fromBody: Record<string, unknown>) => {
    const site = await readableSite(sites, req.client, req.params.siteId);
    const params = validateBody(sparqlQueryParams, { ...(req.query as Record<string, unknown>), ...fromBody });
    const query = siteQuery(site.id, params.query, limits);
    const types = RESULT_TYPES[query.form];
    const type = req.accepts([...types]);
    if (!type)
      throw new AppError(
        'NOT_ACCEPTABLE',
        `${query.form === 'ASK' ? 'An' : 'A'} ${query.form} query answers ${types.join(', ')}.`,
        { supported: types },
      );
    const result = await answerQuery(store, query, limits, req.work?.signal);
    res.type(type).send(writeResults(result, type));
  };

  router.get('/:siteId/sparql', (req, res) => handle(req, res, {}));
  router.post(
    '/:siteId/sparql',
    express.urlencoded({ extended: false, limit: MAX_QUERY_LENGTH * 4 }),
    express.text({ type: 'application/sparql-query', limit: MAX_QUERY_LENGTH * 4 }),
    (req, res) => {
      const type = mediaType(req);
      if (type === 'application/sparql-update')
        throw badUserInput('This endpoint is read-only: SPARQL Update is refused.');
      if (!QUERY_TYPES.includes(type)) {
        throw unsupportedMediaType(`Content-Type must be one of ${QUERY_TYPES.join(', ')}.`, QUERY_TYPES);
      }
      return handle(
        req,
        res,
        type === 'application/sparql-query' ? { query: req.body } : (req.body as Record<string, unknown>),
      );
    },
  );
  return router;
}
