/** What the alignment routes take: the proposals page's parameters and a decision's body. */
import { z } from 'zod';

/** Largest page of proposals; larger `limit`s are cut to it. */
export const MAX_PROPOSAL_PAGE = 1000;
export const DEFAULT_PROPOSAL_PAGE = 100;

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
  ifcClass: z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'Only elements of this IFC class (any case: `IfcPump`, `IFCPUMP`).' }),
  storey: z
    .string()
    .max(255)
    .optional()
    .meta({ description: 'Only elements on this storey (its name in the IFC model, exact).' }),
  status: z
    .enum(['proposed', 'accepted', 'rejected', 'all'], { error: 'status is one of proposed, accepted, rejected, all.' })
    .optional()
    .meta({ description: 'proposed (default: open proposals), accepted (links the graph states), rejected, or all.' }),
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
    z
      .object({ ids: z.array(z.string().min(1).max(64)).min(1, 'ids names at least one proposal.').max(10_000) })
      .strict(),
    z.object({ minScore: z.number().min(0).max(1) }).strict(),
  ],
  { error: 'The body is {"ids": ["…"]} or {"minScore": 0.8}.' },
);

/**
 * `/sites/{siteId}/alignment`: the proposed links between a site's IFC elements and its graph's
 * entities (docs/ifc-alignment.md), accepting and rejecting them, and the coverage report.
 * Reads need read access to the site, decisions a write key (the demo site is read-only: 403).
 */
