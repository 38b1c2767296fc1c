import { Router, type Request } from 'express';
import { readableSite, requireCredentials } from '../tenants/site-access.ts';
import { jsonBody } from '../http-kit/json-body.ts';
import { answerTimeseries, type TimeseriesSources } from './answer-timeseries.ts';

/** `POST /sites/{id}/timeseries`: `answerTimeseries` over HTTP. */
export function timeseriesRoutes(sources: TimeseriesSources): Router {
  const router = Router();
  router.post('/:siteId/timeseries', jsonBody('256kb'), async (req: Request<{ siteId: string }>, res) => {
    requireCredentials(req.client);
    const site = await readableSite(sources.sites, req.client, req.params.siteId);
    res.json(await answerTimeseries(sources, site, req.body, req.work));
  });
  return router;
}
