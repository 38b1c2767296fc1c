import { Router, type Request } from 'express';
import { authorOf } from '../history/graph-history.ts';
import { jsonBody } from '../http-kit/json-body.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { readableSite, requireCredentials, writableSite } from '../tenants/site-access.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import type { AlignmentService } from './alignment-service.ts';
import { coverage } from './coverage.ts';
import { DEFAULT_PROPOSAL_PAGE, decisionBody, proposalsQuery } from './alignment-requests.ts';

export function alignmentRoutes(sites: SiteStore, alignment: AlignmentService): Router {
  const router = Router();
  const readable = (req: Request) => {
    requireCredentials(req.client);
    return readableSite(sites, req.client, String(req.params.siteId));
  };
  const writable = (req: Request) => {
    requireCredentials(req.client);
    return writableSite(sites, req.client, String(req.params.siteId));
  };

  router.get('/:siteId/alignment/proposals', async (req, res) => {
    const site = await readable(req);
    const query = validateBody(proposalsQuery, req.query);
    const status = query.status ?? 'proposed';
    const ifcClass = query.ifcClass?.toUpperCase();
    const { proposals } = await alignment.compute(site.id, req.work);
    const matching = proposals.filter(
      (p) =>
        (status === 'all' || p.status === status) &&
        (query.minScore === undefined || p.score >= query.minScore) &&
        (ifcClass === undefined || p.ifcClass.toUpperCase() === ifcClass) &&
        (query.storey === undefined || p.storey === query.storey),
    );
    const limit = query.limit ?? DEFAULT_PROPOSAL_PAGE;
    const offset = query.offset ?? 0;
    const end = offset + limit;
    res.json({
      items: matching.slice(offset, end),
      total: matching.length,
      nextOffset: end < matching.length ? end : null,
    });
  });

  router.post('/:siteId/alignment/accept', jsonBody('1mb'), async (req, res) => {
    const site = await writable(req);
    const selection = validateBody(decisionBody, req.body);
    res.json({ accepted: await alignment.accept(site.id, selection, authorOf(req.client), req.work) });
  });

  router.post('/:siteId/alignment/reject', jsonBody('1mb'), async (req, res) => {
    const site = await writable(req);
    const selection = validateBody(decisionBody, req.body);
    res.json({ rejected: await alignment.reject(site.id, selection, authorOf(req.client), req.work) });
  });

  router.get('/:siteId/alignment/coverage', async (req, res) => {
    const site = await readable(req);
    res.json(coverage(await alignment.compute(site.id, req.work)));
  });

  return router;
}
