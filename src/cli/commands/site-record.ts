import type { SiteRecord } from '../../tenants/site-store.ts';

/** A site as the service answers it (`GET /api/v1/sites/`): the record the service stores. */
export type Site = SiteRecord;

/** The path of a site, its id escaped. */
export const sitePath = (siteId: string) => `api/v1/sites/${encodeURIComponent(siteId)}`;
