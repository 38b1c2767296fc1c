/**
 * `site_history`: what changed in a site's graph and when, as an agent asks it ("who re-mapped
 * these points last week?"): the versions, newest first, and the summary of one version's change.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { summarizePatch } from '../history/patch-summary.ts';
import type { Caller } from './graphql-call.ts';
import { callerSite, type McpSources } from './mcp-sources.ts';
import { answering } from './tool-answer.ts';

export function registerHistoryTools(server: McpServer, sources: McpSources, caller: Caller): void {
  server.registerTool(
    'site_history',
    {
      title: 'What changed in a site, and when',
      description:
        'The versions of a site’s graph, newest first: each change (a load, a patch, an alignment decision, a rollback) with when, ' +
        'who (an API key’s name or a user), how (`via`), the message given, and triples added and removed. With `version`, ' +
        'also what that version changed, as a reviewer reads it: entities added and removed, class changes, relations added and ' +
        'removed, labels changed. Pages with `before` (the oldest version number of the previous answer).',
      inputSchema: {
        siteId: z.string().min(1).describe('A site id from list_sites.'),
        limit: z.number().int().min(1).max(100).default(20),
        before: z.number().int().min(1).optional().describe('List versions older than this one.'),
        version: z.number().int().min(1).optional().describe('Also summarize what this version changed.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ siteId, limit, before, version }) =>
      answering(async () => {
        const site = await callerSite(sources, caller, siteId);
        const [latest, versions] = await Promise.all([
          sources.history.version(site.id),
          sources.history.list(site.id, limit, before),
        ]);
        const changed =
          version === undefined
            ? undefined
            : {
                version,
                summary: summarizePatch(await sources.history.change(site.id, version - 1, version)),
              };
        return { latest, versions, ...(changed ? { changed } : {}) };
      }),
  );
}
