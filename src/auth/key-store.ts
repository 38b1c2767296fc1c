import { LRUCache } from 'lru-cache';
import type { Database } from '../db/database.ts';
import { isoTimestamp, isoTimestampOrNull } from '../db/sql-values.ts';
import { API_KEY_SECRET, apiKeyPrefix, generateApiKeySecret, hashApiKeySecret, sameHash } from './api-key-secret.ts';

/** An API key as listed to admins: never its secret. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  /** The sites the key may read, or '*' for every site, present and future. */
  sites: string[] | '*';
  write: boolean;
  admin: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** What an admin asks for when creating a key. */
export interface NewApiKey {
  name: string;
  sites: string[] | '*';
  write: boolean;
  admin: boolean;
}

type KeyRow = {
  id: string;
  name: string;
  all_sites: boolean;
  sites: string[];
  can_write: boolean;
  is_admin: boolean;
  created_at: unknown;
  last_used_at: unknown;
  revoked_at: unknown;
};

const KEY_COLUMNS = 'id, name, all_sites, sites, can_write, is_admin, created_at, last_used_at, revoked_at';

/** last_used_at is written at most this often per key, so verifying is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * How long a verified key is taken as read, with no query: a request with a key costs a query
 * of the record database at most this often per key. A revocation or a change of keys through
 * this process is seen at once; through another replica sharing the database, within this time.
 */
export const VERIFIED_KEY_SECONDS = 5;
/** Keys kept verified at once, the least recently used going first. */
const VERIFIED_KEYS_KEPT = 10_000;

/** A key verified lately, and when its last use was last written (or found written). */
interface VerifiedKey {
  readonly record: ApiKeyRecord;
  touchedAt: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const toRecord = (row: KeyRow): ApiKeyRecord => ({
  id: row.id,
  name: row.name,
  sites: row.all_sites ? '*' : row.sites,
  write: row.can_write,
  admin: row.is_admin,
  created_at: isoTimestamp(row.created_at),
  last_used_at: isoTimestampOrNull(row.last_used_at),
  revoked_at: isoTimestampOrNull(row.revoked_at),
});

/** API keys in the record database; secrets are kept only as sha256 hashes. */
export class KeyStore {
  /** Keys verified lately, by the hash of their secret (never the secret itself). */
  private readonly verified: LRUCache<string, VerifiedKey>;
  /** Bumped by every change of keys here: a verification that read the keys before it keeps nothing. */
  private changes = 0;

  /** `verifiedKeySeconds`: how long a verified key is taken as read (VERIFIED_KEY_SECONDS). */
  constructor(
    private readonly db: Database,
    { verifiedKeySeconds = VERIFIED_KEY_SECONDS }: { verifiedKeySeconds?: number } = {},
  ) {
    this.verified = new LRUCache({ max: VERIFIED_KEYS_KEPT, ttl: verifiedKeySeconds * 1000 });
  }

  /** Creates a key and returns its secret, which is shown this once and never stored. */
  async create(input: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }> {
    const secret = generateApiKeySecret();
    const allSites = input.sites === '*';
    const sites = input.sites === '*' ? [] : [...new Set(input.sites)];
    const [row] = await this.db.query<KeyRow>(
      `INSERT INTO api_keys (name, prefix, secret_hash, all_sites, sites, can_write, is_admin)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7) RETURNING ${KEY_COLUMNS}`,
      [input.name, apiKeyPrefix(secret), hashApiKeySecret(secret), allSites, sites, input.write, input.admin],
    );
    return { record: toRecord(row!), secret };
  }

  /** Every key, revoked ones included, oldest first. */
  async list(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, creation_order`);
    return rows.map(toRecord);
  }

  /** Revokes a key at once; false if no key has this id. Revoking twice keeps the first time. */
  async revoke(id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const rows = await this.db.query(
      'UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING id',
      [id],
    );
    this.forgetVerified();
    return rows.length > 0;
  }

  /** The key a secret belongs to, or undefined when it is unknown or revoked. */
  async verify(secret: string): Promise<ApiKeyRecord | undefined> {
    if (typeof secret !== 'string' || !API_KEY_SECRET.test(secret)) return undefined;
    const hash = hashApiKeySecret(secret);
    let known = this.verified.get(hash);
    if (!known) {
      const changes = this.changes;
      const candidates = await this.db.query<KeyRow & { secret_hash: string }>(
        `SELECT ${KEY_COLUMNS}, secret_hash FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL`,
        [apiKeyPrefix(secret)],
      );
      const row = candidates.find((candidate) => sameHash(candidate.secret_hash, hash));
      if (!row) return undefined;
      const record = toRecord(row);
      known = { record, touchedAt: record.last_used_at === null ? 0 : Date.parse(record.last_used_at) };
      // A revocation while the key was read: the key is answered as read, but not kept so.
      if (changes === this.changes) this.verified.set(hash, known);
    }
    if (Date.now() - known.touchedAt >= LAST_USED_RESOLUTION_MS) {
      // The condition is repeated in SQL so that replicas verifying at once write only once.
      const [touched] = await this.db.query<{ last_used_at: unknown }>(
        `UPDATE api_keys SET last_used_at = now()
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= now() - interval '1 minute')
         RETURNING last_used_at`,
        [known.record.id],
      );
      if (touched) known.record.last_used_at = isoTimestamp(touched.last_used_at);
      // Written now, by this replica or (no row) by another within the minute.
      known.touchedAt = Date.now();
    }
    return known.record;
  }

  /** Drops a deleted site from every key's site list (keys for all sites are unaffected). */
  async removeSite(siteId: string): Promise<void> {
    await this.db.query('UPDATE api_keys SET sites = array_remove(sites, $1::text) WHERE $1::text = ANY(sites)', [
      siteId,
    ]);
    this.forgetVerified();
  }

  /** Keys change: none verified before is taken as read any longer. */
  private forgetVerified(): void {
    this.changes++;
    this.verified.clear();
  }
}
