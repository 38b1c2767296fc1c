/** An API key as the service lists it (never its secret). */
export interface ApiKey {
  id: string;
  name: string;
  sites: string[] | '*';
  write: boolean;
  admin: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A key's sites for display: "all" or the list. */
export const siteList = (sites: string[] | '*'): string => (sites === '*' ? 'all' : sites.join(',') || '-');
