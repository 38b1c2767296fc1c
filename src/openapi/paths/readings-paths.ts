import { z } from 'zod';
import { MAX_READINGS_PER_REQUEST, readingItemSchema } from '../../readings/reading-input.ts';
import { timeseriesQueryBody } from '../../timeseries/timeseries-query.ts';
import { ingestReport, timeseriesAnswer } from '../response-schemas.ts';
import { json, errors, siteParams, TAGS, unversioned, type PathRegistrar } from '../openapi-kit.ts';

/** The Readings and timeseries paths. */
export function readingsPaths(path: PathRegistrar): void {
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/readings',
    tags: [TAGS.readings],
    summary: 'Store readings (write access)',
    description: `A JSON array (or one object), or NDJSON (one reading per line), of at most ${MAX_READINGS_PER_REQUEST} readings. Each item is checked on its own: bad items are reported by index, the good ones stored in one transaction. Writing a reading again replaces it.`,
    request: {
      params: siteParams,
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.union([
              z.array(readingItemSchema.meta({ id: 'Reading' })).max(MAX_READINGS_PER_REQUEST),
              readingItemSchema,
            ]),
          },
          'application/x-ndjson': { schema: z.string().meta({ description: 'One Reading object per line.' }) },
        },
      },
    },
    responses: {
      200: json(ingestReport, 'What was stored and what was refused.'),
      ...errors(400, 403, 404, 413, 415, 503),
    },
  });
  for (const [base, note] of [
    ['/api/v1', ''],
    ['/api', unversioned],
  ] as const) {
    path({
      method: 'post',
      path: `${base}/sites/{siteId}/timeseries`,
      tags: [TAGS.timeseries],
      summary: `Historical readings of up to 200 series, raw or per window${note}`,
      request: {
        params: siteParams,
        body: {
          required: true,
          content: { 'application/json': { schema: timeseriesQueryBody.meta({ id: 'TimeseriesQuery' }) } },
        },
      },
      responses: {
        200: json(
          timeseriesAnswer,
          'The series, with the site’s timezone under `query.timezone`; ids no point carries are under `errors`.',
        ),
        ...errors(400, 404, 503),
      },
    });
  }
}
