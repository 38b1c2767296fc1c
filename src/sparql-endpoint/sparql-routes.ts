import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, badUserInput, unsupportedMediaType } from '../errors/app-error.ts';
import { mediaType } from '../http-kit/media-type.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { readableSite } from '../sites/site-access.ts';
import type { SiteStore } from '../sites/site-store.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { answerQuery, siteQuery, type SparqlLimits } from './answer-query.ts';
import { RESULT_TYPES, writeResults } from './write-results.ts';

/** The longest query text taken, in characters (a body over it is 413). */
export const MAX_QUERY_LENGTH = 100_000;

const fixedDataset = 'The dataset is fixed: the site’s graph and the ontology graph. Name graphs with FROM, FROM NAMED or GRAPH in the query.';

/** The protocol parameters of `GET|POST /sites/{siteId}/sparql` (query string, or form body). */
export const sparqlQueryParams = z.object({
  query: z
    .string({ error: 'A SPARQL query is required: the `query` parameter, or an application/sparql-query body.' })
    .min(1, 'A SPARQL query is required: the `query` parameter, or an application/sparql-query body.')
    .max(MAX_QUERY_LENGTH, `At most ${MAX_QUERY_LENGTH} characters.`)
    .meta({ description: 'The SPARQL 1.1 query (SELECT, ASK, CONSTRUCT or DESCRIBE).', example: 'SELECT ?ahu WHERE { ?ahu a brick:AHU }' }),
  'default-graph-uri': z.undefined({ error: fixedDataset }).optional(),
  'named-graph-uri': z.undefined({ error: fixedDataset }).optional(),
  update: z.undefined({ error: 'This endpoint is read-only: SPARQL Update is refused.' }).optional(),
});

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
    if (!type) throw new AppError('NOT_ACCEPTABLE', `${query.form === 'ASK' ? 'An' : 'A'} ${query.form} query answers ${types.join(', ')}.`, { supported: types });
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
      if (type === 'application/sparql-update') throw badUserInput('This endpoint is read-only: SPARQL Update is refused.');
      if (!QUERY_TYPES.includes(type)) {
        throw unsupportedMediaType(`Content-Type must be one of ${QUERY_TYPES.join(', ')}.`, QUERY_TYPES);
      }
      return handle(req, res, type === 'application/sparql-query' ? { query: req.body } : (req.body as Record<string, unknown>));
    },
  );
  return router;
}
