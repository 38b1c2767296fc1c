/**
 * `timeseries` and `list_files`: a site's readings history and its documents and models, each
 * bounded: a series answers at most `limit` readings, files come a page at a time.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CATEGORIES, fileRecord } from '../files/site-file.ts';
import { AGGREGATES } from '../readings/reading-store.ts';
import { answerTimeseries } from '../timeseries/answer-timeseries.ts';
import type { Caller } from './graphql-call.ts';
import { callerSite, type McpSources } from './mcp-sources.ts';
import { answering, page } from './tool-answer.ts';

const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
/** Series per call and readings per series: 50 × 500 readings stay within an answer's size. */
const MAX_SERIES = 50;
const MAX_READINGS = 500;

export function registerDataTools(server: McpServer, sources: McpSources, caller: Caller): void {
  const site = (siteId: string) => callerSite(sources, caller, siteId);

  server.registerTool(
    'timeseries',
    {
      title: 'Timeseries history',
      description:
        'Readings of points over a time range, raw or aggregated per window, the same request as POST /api/sites/{siteId}/timeseries. ' +
        'Give the points’ timeseriesId (find_entities with kind "point" returns them). start and end are ISO-8601 instants, or ' +
        'relative ones such as "-24h", "-7d", "now()"; without an offset an instant is read in the site’s timezone. window ("15m", "1h", "1d") ' +
        'with aggregate (mean, min, max, sum, count, first, last) gives one value per window. Each series answers its point’s name, class, ' +
        `unit and equipment; instants are in the site’s timezone (query.timezone). At most ${MAX_SERIES} series and ${MAX_READINGS} readings per series: ` +
        'a series with exactly `limit` readings may go on; ask again from its last instant.',
      inputSchema: {
        siteId: z.string().min(1).describe('A site id from list_sites.'),
        timeseriesIds: z.array(z.string().min(1)).min(1).max(MAX_SERIES),
        start: z.string().optional().describe('Start (inclusive): ISO-8601, or relative ("-24h"). Default: -1h.'),
        end: z.string().optional().describe('End (exclusive): ISO-8601, relative, or now() (the default).'),
        window: z.string().optional().describe('Aggregate per window of this size ("15m", "1h", "1d").'),
        aggregate: z.enum(AGGREGATES).optional().describe('How each window is combined (default mean).'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_READINGS)
          .default(100)
          .describe(`Readings (or windows) per series, the earliest first (1–${MAX_READINGS}).`),
      },
      annotations: readOnly,
    },
    ({ siteId, ...request }) =>
      answering(async () =>
        answerTimeseries(
          { sites: sources.sites, query: sources.query, readings: sources.readings },
          await site(siteId),
          request,
          caller.work,
        ),
      ),
  );

  server.registerTool(
    'list_files',
    {
      title: 'List site files',
      description:
        'The documents and models of a site (spec sheets, maintenance records, IFC and other 3D models, …): name, category, format, ' +
        'size, the graph entity a file documents (entityUri), and the path to download it with the same credentials. ' +
        'Filter by category or entity_uri; pages with limit/offset.',
      inputSchema: {
        siteId: z.string().min(1).describe('A site id from list_sites.'),
        category: z.enum(CATEGORIES).optional(),
        entity_uri: z.string().max(511).optional().describe('Only files linked to this graph entity (its full IRI).'),
        limit: z.number().int().min(1).max(200).default(50),
        offset: z.number().int().min(0).default(0),
      },
      annotations: readOnly,
    },
    ({ siteId, category, entity_uri, limit, offset }) =>
      answering(async () => {
        const { id } = await site(siteId);
        const filter = { sites: [id], site: id, category, entityUri: entity_uri };
        const [total, files] = await Promise.all([
          sources.files.count(filter),
          sources.files.list(filter, { limit, offset }),
        ]);
        const items = files.map((file) => ({ ...fileRecord(file), download: `/api/files/${file.id}/download/` }));
        return page(items, total, limit, offset);
      }),
  );
}
