/**
 * `site_history`: what changed in a site's graph and when, as an agent asks it ("who re-mapped
 * these points last week?"): the versions, newest first, and the summary of one version's change.
 * And each site as a resource, `bkg://sites/{siteId}` (its record and the version its graph is
 * at), which a client in a session subscribes to: it is told when the site's graph changes.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { readableSiteIds } from '../tenants/site-access.ts';
import { z } from 'zod';
import { summarizePatch } from '../history/patch-summary.ts';
import type { Caller } from './graphql-call.ts';
import { callerSite, type McpSources } from './mcp-sources.ts';
import { answering } from './tool-answer.ts';

/** The resource of a site: `bkg://sites/hq`. */
export const siteUri = (siteId: string): string => `bkg://sites/${siteId}`;

/** The site a resource URI names, or undefined. */
export function siteOfUri(uri: string): string | undefined {
  return /^bkg:\/\/sites\/([a-z0-9-]{1,64})$/.exec(uri)?.[1];
}

export function registerHistoryTools(server: McpServer, sources: McpSources, caller: Caller): void {
  server.registerResource(
    'site',
    new ResourceTemplate('bkg://sites/{siteId}', {
      list: async () => ({
        resources: (await sources.sites.list(readableSiteIds(caller.client))).map((site) => ({
          uri: siteUri(site.id),
          name: site.id,
          title: site.name,
          mimeType: 'application/json',
        })),
      }),
    }),
    {
      title: 'A site',
      description:
        'A site’s record and the version its graph is at, with its latest change. Subscribe to it (resources/subscribe, in a session) to be told when the graph changes.',
      mimeType: 'application/json',
    },
    async (uri, { siteId }) => {
      const site = await callerSite(sources, caller, String(siteId));
      const [latest] = await sources.history.list(site.id, 1);
      const text = JSON.stringify({ ...site, version: latest?.version ?? 0, latestChange: latest ?? null });
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] };
    },
  );

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
