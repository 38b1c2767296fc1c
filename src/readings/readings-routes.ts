import { Router, json, text, type Request } from 'express';
import { badUserInput, unsupportedMediaType } from '../errors/app-error.ts';
import { requireCredentials, writableSite } from '../tenants/site-access.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import { MAX_READINGS_PER_REQUEST, ndjsonItems } from './reading-input.ts';
import type { ReadingIngest } from './reading-ingest.ts';

/** Media types read as NDJSON: one reading object per line. */
const NDJSON_TYPES = [
  'application/x-ndjson',
  'application/ndjson',
  'application/jsonl',
  'application/json-lines',
  'application/jsonlines',
];
// 10,000 readings of a few hundred bytes each, with room to spare.
const BODY_LIMIT = '16mb';

/** The items of the body: a JSON array (or a single object), or NDJSON lines. */
function itemsOf(req: Request): unknown[] {
  if (req.is(NDJSON_TYPES)) return ndjsonItems(typeof req.body === 'string' ? req.body : '');
  if (!req.is('application/json')) {
    throw unsupportedMediaType('Send readings as application/json (an array) or application/x-ndjson (one per line).');
  }
  const body: unknown = req.body;
  if (Array.isArray(body)) return body;
  if (typeof body === 'object' && body !== null) return [body];
  throw badUserInput('Expected a JSON array of readings.', {
    fields: { non_field_errors: ['Expected a JSON array of {timeseriesId, timestamp, value} objects.'] },
  });
}

/** `POST /sites/{id}/readings`: store readings, item by item (docs/readings.md). */
export function readingsRoutes(sites: SiteStore, ingest: ReadingIngest): Router {
  const router = Router();
  router.post(
    '/:siteId/readings',
    json({ limit: BODY_LIMIT, type: 'application/json' }),
    text({ limit: BODY_LIMIT, type: NDJSON_TYPES }),
    async (req, res) => {
      requireCredentials(req.client);
      const site = await writableSite(sites, req.client, req.params.siteId);
      const items = itemsOf(req);
      if (items.length > MAX_READINGS_PER_REQUEST) {
        throw badUserInput(`At most ${MAX_READINGS_PER_REQUEST} readings per request.`, {
          fields: {
            non_field_errors: [`At most ${MAX_READINGS_PER_REQUEST} readings per request, got ${items.length}.`],
          },
        });
      }
      res.json(await ingest.ingest(site.id, items));
    },
  );
  return router;
}
