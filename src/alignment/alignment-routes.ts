import { Router, type Request } from 'express';
import { z } from 'zod';
import { jsonBody } from '../http-kit/json-body.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { readableSite, requireCredentials, writableSite } from '../sites/site-access.ts';
import type { SiteStore } from '../sites/site-store.ts';
import type { AlignmentService } from './alignment-service.ts';
import { coverage } from './coverage.ts';

/** Largest page of proposals; larger `limit`s are cut to it. */
export const MAX_PROPOSAL_PAGE = 1000;
const DEFAULT_PROPOSAL_PAGE = 100;

const score = (what: string) =>
  z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, `${what} is a number from 0 to 1.`)
    .transform(Number);
const count = (what: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${what} is a whole number.`)
    .transform(Number);

/** The query of `GET /sites/{siteId}/alignment/proposals`. */
export const proposalsQuery = z.object({
  minScore: score('minScore').optional().meta({ description: 'Only proposals scoring at least this (0..1).' }),
  ifcClass: z.string().max(64).optional().meta({ description: 'Only elements of this IFC class (any case: `IfcPump`, `IFCPUMP`).' }),
  storey: z.string().max(255).optional().meta({ description: "Only elements on this storey (its name in the IFC model, exact)." }),
  status: z.enum(['proposed', 'accepted', 'rejected', 'all'], { error: 'status is one of proposed, accepted, rejected, all.' }).optional().meta({ description: 'proposed (default: open proposals), accepted (links the graph states), rejected, or all.' }),
  limit: count('limit')
    .refine((n) => n > 0, 'limit is at least 1.')
    .transform((n) => Math.min(n, MAX_PROPOSAL_PAGE))
    .optional()
    .meta({ description: `Page size (default ${DEFAULT_PROPOSAL_PAGE}, at most ${MAX_PROPOSAL_PAGE}).` }),
  offset: count('offset').optional(),
});

/** The body of accept and reject: proposal ids, or every open proposal scoring at least `minScore`. */
export const decisionBody = z.union(
  [
    z.object({ ids: z.array(z.string().min(1).max(64)).min(1, 'ids names at least one proposal.').max(10_000) }).strict(),
    z.object({ minScore: z.number().min(0).max(1) }).strict(),
  ],
  { error: 'The body is {"ids": ["…"]} or {"minScore": 0.8}.' },
);

/**
 * `/sites/{siteId}/alignment`: the proposed links between a site's IFC elements and its graph's
 * entities (docs/ifc-alignment.md), accepting and rejecting them, and the coverage report.
 * Reads need read access to the site, decisions a write key (the demo site is read-only: 403).
 */
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
    res.json({ items: matching.slice(offset, end), total: matching.length, nextOffset: end < matching.length ? end : null });
  });

  router.post('/:siteId/alignment/accept', jsonBody('1mb'), async (req, res) => {
    const site = await writable(req);
    res.json({ accepted: await alignment.accept(site.id, validateBody(decisionBody, req.body), req.work) });
  });

  router.post('/:siteId/alignment/reject', jsonBody('1mb'), async (req, res) => {
    const site = await writable(req);
    res.json({ rejected: await alignment.reject(site.id, validateBody(decisionBody, req.body), req.work) });
  });

  router.get('/:siteId/alignment/coverage', async (req, res) => {
    const site = await readable(req);
    res.json(coverage(await alignment.compute(site.id, req.work)));
  });

  return router;
}
