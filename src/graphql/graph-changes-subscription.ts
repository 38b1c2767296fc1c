/**
 * `Subscription.graphChanges(siteId, since)`: the site's graph changes as they commit (the version
 * feed, `history/version-feed.ts`), with the tenancy of queries.
 */
import type { Client } from '../auth/client.ts';
import { badUserInput } from '../errors/app-error.ts';
import type { FeedMessage, VersionFeed } from '../history/version-feed.ts';
import { requireSite, type SiteDirectory } from '../tenants/site-directory.ts';

/** The part of the GraphQL context this subscription uses. */
export interface GraphChangesContext {
  readonly sites: SiteDirectory;
  readonly client: Client;
  readonly feed: Pick<VersionFeed, 'follow'>;
}

/** A feed message as the GraphChange type shows it. */
function graphChange(message: FeedMessage): Record<string, unknown> {
  switch (message.type) {
    case 'version': {
      const { site, ...change } = message.change;
      return { siteId: site, type: 'VERSION', ...change };
    }
    case 'reread':
      return { siteId: message.site, type: 'REREAD', version: message.version, reason: message.reason };
    case 'deleted':
      return { siteId: message.site, type: 'DELETED' };
  }
}

async function* changesOf(messages: AsyncIterableIterator<FeedMessage>): AsyncGenerator<Record<string, unknown>> {
  try {
    for await (const message of messages) yield graphChange(message);
  } finally {
    await messages.return?.();
  }
}

/** The `Subscription.graphChanges` field resolver. */
export const graphChangesResolver = {
  subscribe: async (_source: unknown, args: Record<string, unknown>, ctx: GraphChangesContext) => {
    const siteId = args.siteId as string;
    await requireSite(ctx.sites, ctx.client, siteId);
    const since = args.since as number | null | undefined;
    if (since !== null && since !== undefined && since < 0)
      throw badUserInput(`since must be a version number (0 or more), got ${since}.`, { argument: 'since' });
    return changesOf(await ctx.feed.follow(siteId, since ?? undefined));
  },
  resolve: (change: Record<string, unknown>) => change,
};
