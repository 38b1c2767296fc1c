import { canRead, canWrite, DEMO_SITE, isAdmin, type Client } from '../auth/client.ts';
import { forbidden, MissingCredentials, notFound } from '../errors/app-error.ts';
import type { SiteRecord, SiteStore } from './site-store.ts';
import { SITE_ID } from './site-directory.ts';

/** REST needs credentials: anonymous callers may only read the demo site, through GraphQL. */
export function requireCredentials(client: Client): void {
  if (client.kind === 'anonymous')
    throw new MissingCredentials('This endpoint needs an Authorization: Bearer <token> header.');
}

/** The ids of the sites the client may read, for a list of them: every site (`'*'`), or its own and the demo site, which is everyone's (canRead). */
export function readableSiteIds(client: Client): readonly string[] | '*' {
  if (client.kind === 'anonymous') return [];
  return client.sites === '*' ? '*' : [...client.sites, DEMO_SITE];
}

/** The site, if the client may read it; otherwise 404, so a foreign site's existence is never revealed. */
export async function readableSite(sites: SiteStore, client: Client, siteId: string): Promise<SiteRecord> {
  const site = SITE_ID.test(siteId) && canRead(client, siteId) ? await sites.get(siteId) : undefined;
  if (!site) throw notFound(`Site "${siteId.slice(0, 100)}" not found.`);
  return site;
}

/** The site, if the client may change it: 404 as for reads, 403 on the read-only demo site or without write access. */
export async function writableSite(sites: SiteStore, client: Client, siteId: string): Promise<SiteRecord> {
  const site = await readableSite(sites, client, siteId);
  if (site.id === DEMO_SITE) throw forbidden('The demo site is read-only.');
  if (!canWrite(client, site.id)) {
    throw forbidden(
      client.kind === 'user'
        ? 'This token may not write to this site: user tokens only read.'
        : 'This key may not write to this site.',
    );
  }
  return site;
}

/** Fails with 403 unless the client is an admin. */
export function requireAdmin(client: Client): void {
  if (!isAdmin(client)) throw forbidden('This operation needs an admin key.');
}
