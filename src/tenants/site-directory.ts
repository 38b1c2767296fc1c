import { canRead, type Client } from '../auth/client.ts';
import { notFound } from '../errors/app-error.ts';

/** Site ids are slugs: they name graphs, files and URLs, so nothing else is accepted. */
export const SITE_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Which sites exist. */
export interface SiteDirectory {
  /** Whether the site exists. */
  has(siteId: string): Promise<boolean>;
}

/**
 * Fails with NOT_FOUND unless the site exists and the client may read it: a foreign site is
 * indistinguishable from a missing one.
 */
export async function requireSite(sites: SiteDirectory, client: Client, siteId: string): Promise<void> {
  if (!SITE_ID.test(siteId) || !canRead(client, siteId) || !(await sites.has(siteId)))
    throw notFound(`Site "${siteId.slice(0, 100)}" not found.`);
}
