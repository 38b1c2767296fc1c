import { notFound } from '../errors/app-error.ts';

/** Site ids are slugs: they name graphs, files and URLs, so nothing else is accepted. */
export const SITE_ID = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Which sites exist. */
export interface SiteDirectory {
  /** Whether the site exists. */
  has(siteId: string): Promise<boolean>;
}

/** Fails with NOT_FOUND unless the site exists; the message never reveals more than the id. */
export async function requireSite(sites: SiteDirectory, siteId: string): Promise<void> {
  if (!SITE_ID.test(siteId) || !(await sites.has(siteId))) throw notFound(`Site "${siteId.slice(0, 100)}" not found.`);
}

/** The sites loaded at start-up, kept in memory. */
export class MemorySiteDirectory implements SiteDirectory {
  private readonly ids = new Set<string>();

  /** Records a site as existing. */
  add(siteId: string): void {
    if (!SITE_ID.test(siteId)) throw new TypeError(`Invalid site id "${siteId}"`);
    this.ids.add(siteId);
  }

  async has(siteId: string): Promise<boolean> {
    return this.ids.has(siteId);
  }
}
