import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/sql-errors.ts';
import { isoTimestamp } from '../db/sql-values.ts';
import { AppError } from '../errors/app-error.ts';
import type { SiteDirectory } from './site-directory.ts';

/** A site as stored; timestamps are ISO-8601 UTC strings. */
export interface SiteRecord {
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

/** A site to create: every field but the timestamps. */
export type NewSite = Omit<SiteRecord, 'created_at' | 'updated_at'>;

type SiteRow = Omit<SiteRecord, 'created_at' | 'updated_at'> & { created_at: unknown; updated_at: unknown };

const SITE_COLUMNS =
  'id, name, organization, address, city, country, country_code, latitude, longitude, timezone, created_at, updated_at';

/** The fields `update` may change: all but the id and the timestamps. */
const CHANGEABLE = [
  'name',
  'organization',
  'address',
  'city',
  'country',
  'country_code',
  'latitude',
  'longitude',
  'timezone',
] as const satisfies ReadonlyArray<keyof NewSite>;

const INSERT_SITE = `INSERT INTO sites (id, name, organization, address, city, country, country_code, latitude, longitude, timezone)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

const insertParams = (site: NewSite): unknown[] => [
  site.id,
  site.name,
  site.organization,
  site.address,
  site.city,
  site.country,
  site.country_code,
  site.latitude,
  site.longitude,
  site.timezone,
];

const toRecord = (row: SiteRow): SiteRecord => ({
  ...row,
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

/**
 * Sites in the record database. Values are stored as given: the REST layer validates them.
 * Deleting a site leaves API keys listing it alone; callers pair `delete` with
 * `KeyStore.removeSite` in one transaction (both stores accept the transaction's Database).
 */
export class SiteStore implements SiteDirectory {
  /** When each site was last read to exist (`performance.now()`). */
  private readonly seen = new Map<string, number>();

  /**
   * `existenceTtlMs`: how long `has` trusts that a site it found still exists. Every GraphQL root
   * field asks, and the database's answer costs more than a small query on the store; a site
   * deleted through this instance is forgotten at once, one deleted by another replica after at
   * most this long (its graph is dropped before its record, so nothing of it is read meanwhile).
   */
  constructor(
    private readonly db: Database,
    private readonly existenceTtlMs = 5_000,
  ) {}

  /** Whether the site exists. */
  async has(siteId: string): Promise<boolean> {
    const seen = this.seen.get(siteId);
    if (seen !== undefined && performance.now() - seen < this.existenceTtlMs) return true;
    const exists = (await this.db.query('SELECT 1 FROM sites WHERE id = $1', [siteId])).length > 0;
    if (exists) this.seen.set(siteId, performance.now());
    else this.seen.delete(siteId);
    return exists;
  }

  /** All sites, or only those named, ordered by id; unknown names are skipped. */
  async list(only: readonly string[] | '*' = '*'): Promise<SiteRecord[]> {
    if (only !== '*' && only.length === 0) return [];
    const rows =
      only === '*'
        ? await this.db.query<SiteRow>(`SELECT ${SITE_COLUMNS} FROM sites ORDER BY id`)
        : await this.db.query<SiteRow>(`SELECT ${SITE_COLUMNS} FROM sites WHERE id = ANY($1::text[]) ORDER BY id`, [
            [...only],
          ]);
    return rows.map(toRecord);
  }

  /** One site, or undefined. */
  async get(id: string): Promise<SiteRecord | undefined> {
    const [row] = await this.db.query<SiteRow>(`SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1`, [id]);
    return row && toRecord(row);
  }

  /** Creates a site; CONFLICT if one with this id exists. */
  async create(site: NewSite): Promise<SiteRecord> {
    try {
      const [row] = await this.db.query<SiteRow>(`${INSERT_SITE} RETURNING ${SITE_COLUMNS}`, insertParams(site));
      return toRecord(row!);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', `Site "${site.id.slice(0, 100)}" already exists.`);
      throw error;
    }
  }

  /** Creates the site if it is missing, else returns the existing one unchanged (sites loaded at start-up). */
  async ensure(site: NewSite): Promise<SiteRecord> {
    // Another process may create or delete the site between the two statements: try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [created] = await this.db.query<SiteRow>(
        `${INSERT_SITE} ON CONFLICT (id) DO NOTHING RETURNING ${SITE_COLUMNS}`,
        insertParams(site),
      );
      if (created) return toRecord(created);
      const existing = await this.get(site.id);
      if (existing) return existing;
    }
    throw new AppError('CONFLICT', `Site "${site.id.slice(0, 100)}" is being changed concurrently.`);
  }

  /** Changes a site's descriptive fields (those given); the updated record, or undefined if there is no such site. */
  async update(id: string, changes: Partial<Omit<NewSite, 'id'>>): Promise<SiteRecord | undefined> {
    // Column names from this fixed list only; the values go as parameters.
    const columns = CHANGEABLE.filter((column) => changes[column] !== undefined);
    const assignments = columns.map((column, i) => `${column} = $${i + 2}`);
    const [row] = await this.db.query<SiteRow>(
      `UPDATE sites SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${SITE_COLUMNS}`,
      [id, ...columns.map((column) => changes[column])],
    );
    return row && toRecord(row);
  }

  /** The prefixes the site's model declared in its last Turtle loads (`{}` when none). */
  async prefixes(id: string): Promise<Record<string, string>> {
    const [row] = await this.db.query<{ prefixes: Record<string, string> | null }>(
      'SELECT prefixes FROM sites WHERE id = $1',
      [id],
    );
    return row?.prefixes ?? {};
  }

  /** Keeps a load's prefix declarations: a replace sets them, a merge adds them to those kept (its own win). */
  async keepPrefixes(id: string, prefixes: Readonly<Record<string, string>>, replace: boolean): Promise<void> {
    const json = JSON.stringify(prefixes);
    if (replace) await this.db.query('UPDATE sites SET prefixes = $2::jsonb WHERE id = $1', [id, json]);
    else
      await this.db.query("UPDATE sites SET prefixes = coalesce(prefixes, '{}'::jsonb) || $2::jsonb WHERE id = $1", [
        id,
        json,
      ]);
  }

  /** Deletes a site's record; false if there was none. */
  async delete(id: string): Promise<boolean> {
    const deleted = (await this.db.query('DELETE FROM sites WHERE id = $1 RETURNING id', [id])).length > 0;
    this.seen.delete(id);
    return deleted;
  }
}
