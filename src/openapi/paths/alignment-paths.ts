import { z } from 'zod';
import { MAX_PROPOSAL_PAGE, decisionBody, proposalsQuery } from '../../alignment/alignment-requests.ts';
import { alignmentCoverage, alignmentProposalPage } from '../response-schemas.ts';
import { json, errors, siteParams, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The IFC alignment paths. */
export function alignmentPaths(path: PathRegistrar): void {
  const decision = {
    required: true,
    content: { 'application/json': { schema: decisionBody.meta({ id: 'AlignmentDecision' }) } },
  };
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/alignment/proposals',
    tags: [TAGS.alignment],
    summary: 'Proposed links between the site’s IFC elements and its graph’s entities, best score first',
    description: `Every read IFC file of the site against the graph, one-to-one (docs/ifc-alignment.md). \`status\`: proposed (default), accepted (links the graph states), rejected, all. \`limit\` defaults to 100, at most ${MAX_PROPOSAL_PAGE}.`,
    request: { params: siteParams, query: proposalsQuery },
    responses: { 200: json(alignmentProposalPage, 'A page of proposals.'), ...errors(400, 404) },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/alignment/accept',
    tags: [TAGS.alignment],
    summary:
      'Accept proposals (write access; the demo site is read-only): their ref:IFCReference links are written into the graph',
    description:
      'By `ids` (open or rejected proposals; an unknown id is 404 and nothing changes) or every open proposal scoring at least `minScore`. `entityByIfcId` finds the links at once.',
    request: { params: siteParams, body: decision },
    responses: {
      200: json(z.object({ accepted: z.number().int() }), 'How many links were written.'),
      ...errors(400, 403, 404, 415),
    },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/alignment/reject',
    tags: [TAGS.alignment],
    summary: 'Reject proposals (write access): never proposed again; an accepted link’s triples leave the graph',
    request: { params: siteParams, body: decision },
    responses: {
      200: json(z.object({ rejected: z.number().int() }), 'How many pairs were rejected.'),
      ...errors(400, 403, 404, 415),
    },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/alignment/coverage',
    tags: [TAGS.alignment],
    summary:
      'Which IFC elements that should map are mapped, proposed or unmatched, per class and storey, and the entities without an element',
    request: { params: siteParams },
    responses: { 200: json(alignmentCoverage, 'The coverage report.'), ...errors(404) },
  });
}
