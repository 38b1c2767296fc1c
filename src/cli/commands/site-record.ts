/** A site as the service answers it (`GET /api/v1/sites/`). */
export interface Site {
  id: string;
  name: string;
  organization: string | null;
  address: string | null;
  city: string | null;
  country: string | null;
  country_code: string | null;
  latitude: number | null;
  longitude: number | null;
  timezone: string;
  created_at: string;
  updated_at: string;
}

/** The path of a site, its id escaped. */
export const sitePath = (siteId: string) => `api/v1/sites/${encodeURIComponent(siteId)}`;
