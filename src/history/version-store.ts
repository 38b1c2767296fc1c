import type { Database } from '../db/database.ts';
import { isUniqueViolation } from '../db/sql-errors.ts';
import { isoTimestamp } from '../db/sql-values.ts';
import { AppError } from '../errors/app-error.ts';

/** Who made a version: an API key (its id and name) or a user (the token's subject); never a secret. */
export interface VersionAuthor {
  readonly kind: 'key' | 'user' | 'service';
  readonly id: string;
  readonly name?: string;
}

/** How a version was made. */
export type VersionVia = 'put' | 'post' | 'patch' | 'delete' | 'alignment' | 'rollback';

/** A version of a site's graph as listed: what the change did, not the change itself. */
export interface GraphVersion {
  readonly version: number;
  readonly parent: number | null;
  readonly at: string;
  readonly by: VersionAuthor;
  readonly via: VersionVia;
  readonly message: string | null;
  /** Triples in the graph after the change. */
  readonly triples: number;
  readonly added: number;
  readonly removed: number;
  /** Subjects (IRIs) the change added or removed a triple of. */
  readonly entities: number;
  /** Whether the change itself is kept (diff, export and rollback reach across it). */
  readonly kept: boolean;
}

/** The latest version of a site, and when it was made: a site deleted and made again counts its versions anew, at other times. */
export interface VersionHead {
  readonly version: number;
  readonly at: string | null;
}

/** A version to record: what the store does not number or stamp itself, and the change as RDF Patch (null when not kept). */
export type NewVersion = Omit<GraphVersion, 'version' | 'parent' | 'at' | 'kept'> & { readonly patch: string | null };

interface VersionRow extends Record<string, unknown> {
  version: number;
  parent: number | null;
  at: unknown;
  by_kind: VersionAuthor['kind'];
  by_id: string;
  by_name: string | null;
  via: VersionVia;
  message: string | null;
  triples: string | number;
  added: string | number;
  removed: string | number;
  entities: number;
  kept: boolean;
}

const COLUMNS =
  'version, parent, at, by_kind, by_id, by_name, via, message, triples, added, removed, entities, patch IS NOT NULL AS kept';

const toVersion = (row: VersionRow): GraphVersion => ({
  version: row.version,
  parent: row.parent,
  at: isoTimestamp(row.at),
  by: { kind: row.by_kind, id: row.by_id, ...(row.by_name !== null ? { name: row.by_name } : {}) },
  via: row.via,
  message: row.message,
  triples: Number(row.triples),
  added: Number(row.added),
  removed: Number(row.removed),
  entities: row.entities,
  kept: row.kept,
});

/** The versions of each site's graph (`graph_versions`, migration 009), in the record database. */
export class VersionStore {
  constructor(private readonly db: Database) {}

  /** The site's latest version number; 0 when none is recorded. */
  async latest(site: string): Promise<number> {
    return (await this.head(site)).version;
  }

  /** The site's latest version and when it was made (null before the first). */
  async head(site: string): Promise<VersionHead> {
    const [row] = await this.db.query<{ version: number; at: unknown }>(
      'SELECT version, at FROM graph_versions WHERE site = $1 ORDER BY version DESC LIMIT 1',
      [site],
    );
    return row ? { version: row.version, at: isoTimestamp(row.at) } : { version: 0, at: null };
  }

  /**
   * Records the next version of the site, child of `parent` (the latest, which the caller holds
   * the site's write turn for); answers it.
   */
  async add(site: string, parent: number, version: NewVersion): Promise<GraphVersion> {
    const rows = await this.db
      .query<VersionRow>(
        `INSERT INTO graph_versions (site, version, parent, by_kind, by_id, by_name, via, message, triples, added, removed, entities, patch)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       RETURNING ${COLUMNS}`,
        [
          site,
          parent + 1,
          parent === 0 ? null : parent,
          version.by.kind,
          version.by.id,
          version.by.name ?? null,
          version.via,
          version.message,
          version.triples,
          version.added,
          version.removed,
          version.entities,
          version.patch,
        ],
      )
      .catch((error: unknown) => {
        // Another replica recorded this version number first (writes take turns within one process only).
        if (isUniqueViolation(error))
          throw new AppError(
            'CONFLICT',
            `Another replica changed the site's graph at the same moment, as version ${parent + 1}; this change was made too but not recorded as a version. Read the graph and its history again.`,
          );
        throw error;
      });
    return toVersion(rows[0]!);
  }

  /** The site's versions, newest first, from `before` (exclusive) when given. */
  async list(site: string, limit: number, before?: number): Promise<GraphVersion[]> {
    const rows = await this.db.query<VersionRow>(
      `SELECT ${COLUMNS} FROM graph_versions WHERE site = $1 AND ($2::integer IS NULL OR version < $2)
       ORDER BY version DESC LIMIT $3`,
      [site, before ?? null, limit],
    );
    return rows.map(toVersion);
  }

  async get(site: string, version: number): Promise<GraphVersion | undefined> {
    const [row] = await this.db.query<VersionRow>(
      `SELECT ${COLUMNS} FROM graph_versions WHERE site = $1 AND version = $2`,
      [site, version],
    );
    return row ? toVersion(row) : undefined;
  }

  /** Up to `limit` versions after `after`, oldest first, each with its change as RDF Patch (null when not kept). */
  async after(
    site: string,
    after: number,
    limit: number,
  ): Promise<Array<{ version: GraphVersion; patch: string | null }>> {
    const rows = await this.db.query<VersionRow & { patch: string | null }>(
      `SELECT ${COLUMNS}, patch FROM graph_versions WHERE site = $1 AND version > $2 ORDER BY version LIMIT $3`,
      [site, after, limit],
    );
    return rows.map((row) => ({ version: toVersion(row), patch: row.patch }));
  }

  /** The patches of versions after `from` up to `to` (inclusive), oldest first; null for a version whose patch is not kept. */
  async patches(site: string, from: number, to: number): Promise<Array<{ version: number; patch: string | null }>> {
    return this.db.query<{ version: number; patch: string | null }>(
      'SELECT version, patch FROM graph_versions WHERE site = $1 AND version > $2 AND version <= $3 ORDER BY version',
      [site, from, to],
    );
  }

  /**
   * Forgets the patches of versions past retention: all but the newest `keepVersions`, and those
   * older than `keepDays` (the newest is always kept whole). Their records stay, marked not kept.
   */
  async prune(site: string, keepVersions: number | undefined, keepDays: number | undefined): Promise<number> {
    const rows = await this.db.query<{ version: number }>(
      `UPDATE graph_versions SET patch = NULL
       WHERE site = $1 AND patch IS NOT NULL
         AND version < (SELECT max(version) FROM graph_versions WHERE site = $1)
         AND (($2::integer IS NOT NULL AND version <= (SELECT max(version) FROM graph_versions WHERE site = $1) - $2)
           OR ($3::integer IS NOT NULL AND at < now() - make_interval(days => $3)))
       RETURNING version`,
      [site, keepVersions ?? null, keepDays ?? null],
    );
    return rows.length;
  }
}
