import type { Database } from '../db/database.ts';
import { isoTimestamp } from '../db/sql-values.ts';
import {
  readsAsIfc,
  type Category,
  type IfcInfo,
  type IfcStatus,
  type IfcStorey,
  type ModelFormat,
  type StoredFile,
} from './site-file.ts';

/** A file row to insert: everything but the timestamps and what the service reads from an IFC file. */
export type NewStoredFile = Omit<StoredFile, 'created_at' | 'updated_at' | 'ifc'>;

/** The columns an update may change. */
export type FileChanges = Partial<
  Omit<StoredFile, 'id' | 'site' | 'created_at' | 'updated_at' | 'ifc' | 'generated_from'>
>;

/** What the file list filters on; `sites` are the sites the caller may read. */
export interface FileFilter {
  readonly sites: readonly string[] | '*';
  readonly site?: string | undefined;
  readonly category?: Category | undefined;
  readonly entityUri?: string | undefined;
}

/** What the model list filters on. */
export interface ModelFilter {
  readonly format?: ModelFormat | undefined;
  readonly storey?: string | undefined;
}

const COLUMNS =
  'id, site, category, name, entity_uri, content_type, size_bytes, format, storey, sort_order, source_ifc, blob_key, sha256, created_at, updated_at, ' +
  'ifc_status, ifc_error, ifc_schema, ifc_storeys, ifc_element_count, generated_from, ' +
  '(SELECT g.id FROM site_files g WHERE g.generated_from = site_files.id) AS fragments_id';

const CHANGEABLE = [
  'category',
  'name',
  'entity_uri',
  'content_type',
  'size_bytes',
  'format',
  'storey',
  'sort_order',
  'source_ifc',
  'blob_key',
  'sha256',
] as const;

type Row = Record<string, unknown>;

/** jsonb arrives parsed (PGlite, pg); text only from engines that leave it alone. */
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

const ifcOf = (row: Row): IfcInfo | null =>
  row.ifc_status === null || row.ifc_status === undefined
    ? null
    : {
        status: row.ifc_status as IfcStatus,
        error: (row.ifc_error as string | null) ?? null,
        schema: (row.ifc_schema as string | null) ?? null,
        storeys: (json(row.ifc_storeys) as IfcStorey[] | null) ?? [],
        element_count:
          row.ifc_element_count === null || row.ifc_element_count === undefined ? null : Number(row.ifc_element_count),
        fragments_id: (row.fragments_id as string | null) ?? null,
      };

const toFile = (row: Row): StoredFile => ({
  id: row.id as string,
  site: row.site as string,
  category: row.category as Category,
  name: row.name as string,
  entity_uri: row.entity_uri as string,
  content_type: row.content_type as string,
  // bigint arrives as a string (pg) or a bigint (PGlite); file sizes are far below 2^53.
  size_bytes: Number(row.size_bytes),
  format: (row.format as ModelFormat | null) ?? null,
  storey: row.storey as string,
  sort_order: Number(row.sort_order),
  source_ifc: (row.source_ifc as string | null) ?? null,
  ifc: ifcOf(row),
  blob_key: row.blob_key as string,
  sha256: row.sha256 as string,
  generated_from: (row.generated_from as string | null) ?? null,
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

/** WHERE clauses and their parameters for a file list. */
function where(filter: FileFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (n: number) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(params.length));
  };
  if (filter.sites !== '*') add((n) => `site = ANY($${n}::text[])`, [...filter.sites]);
  if (filter.site !== undefined) add((n) => `site = $${n}`, filter.site);
  if (filter.category !== undefined) add((n) => `category = $${n}`, filter.category);
  if (filter.entityUri !== undefined) add((n) => `entity_uri = $${n}`, filter.entityUri);
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * Site file rows in the record database. It knows nothing of bytes: `SiteFiles` pairs each change
 * with the BlobStore. Pass a transaction's Database to combine changes.
 */
export class SiteFileStore {
  constructor(private readonly db: Database) {}

  /** One file, or undefined. `forUpdate` locks its row until the transaction ends. */
  async get(id: string, options: { forUpdate?: boolean } = {}): Promise<StoredFile | undefined> {
    const [row] = await this.db.query(
      `SELECT ${COLUMNS} FROM site_files WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return row && toFile(row);
  }

  /** How many files match. */
  async count(filter: FileFilter): Promise<number> {
    if (filter.sites !== '*' && filter.sites.length === 0) return 0;
    const { sql, params } = where(filter);
    const [row] = await this.db.query<{ count: unknown }>(`SELECT count(*) AS count FROM site_files ${sql}`, params);
    return Number(row!.count);
  }

  /**
   * The bytes a site's files take (fragments files the service made included). `lock` first
   * locks the site's row until the transaction ends, so that the quota checks of one site's
   * uploads run one after another and two uploads never both take the same room.
   */
  async siteBytes(site: string, options: { lock?: boolean } = {}): Promise<number> {
    if (options.lock) await this.db.query('SELECT 1 FROM sites WHERE id = $1 FOR NO KEY UPDATE', [site]);
    const [row] = await this.db.query<{ bytes: unknown }>(
      'SELECT coalesce(sum(size_bytes), 0) AS bytes FROM site_files WHERE site = $1',
      [site],
    );
    // A sum of bigints arrives as a string (pg) or a bigint (PGlite); far below 2^53 either way.
    return Number(row!.bytes);
  }

  /** The matching files, oldest first; `page` cuts out `limit` of them from `offset`. */
  async list(filter: FileFilter, page?: { limit: number; offset: number }): Promise<StoredFile[]> {
    if (filter.sites !== '*' && filter.sites.length === 0) return [];
    const { sql, params } = where(filter);
    const paging = page ? ` LIMIT $${params.length + 1} OFFSET $${params.length + 2}` : '';
    const rows = await this.db.query(
      `SELECT ${COLUMNS} FROM site_files ${sql} ORDER BY created_at, creation_order${paging}`,
      page ? [...params, page.limit, page.offset] : params,
    );
    return rows.map(toFile);
  }

  /** A site's model files, by sort_order, then upload time. */
  async models(site: string, filter: ModelFilter = {}): Promise<StoredFile[]> {
    const params: unknown[] = [site];
    let sql = `SELECT ${COLUMNS} FROM site_files WHERE site = $1 AND format IS NOT NULL`;
    if (filter.format !== undefined) {
      params.push(filter.format);
      sql += ` AND format = $${params.length}`;
    }
    if (filter.storey !== undefined) {
      params.push(filter.storey);
      sql += ` AND storey = $${params.length}`;
    }
    return (await this.db.query(`${sql} ORDER BY sort_order, created_at, creation_order`, params)).map(toFile);
  }

  /** Inserts a file row; an IFC file the service reads starts `pending`. */
  async insert(file: NewStoredFile): Promise<StoredFile> {
    const [row] = await this.db.query(
      `INSERT INTO site_files (id, site, category, name, entity_uri, content_type, size_bytes, format, storey, sort_order, source_ifc, blob_key, sha256, ifc_status, generated_from)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING ${COLUMNS}`,
      [
        file.id,
        file.site,
        file.category,
        file.name,
        file.entity_uri,
        file.content_type,
        file.size_bytes,
        file.format,
        file.storey,
        file.sort_order,
        file.source_ifc,
        file.blob_key,
        file.sha256,
        readsAsIfc(file) ? 'pending' : null,
        file.generated_from,
      ],
    );
    return toFile(row!);
  }

  /** Changes the given columns (and updated_at); undefined if the row is gone. */
  async update(id: string, changes: FileChanges): Promise<StoredFile | undefined> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    for (const column of CHANGEABLE) {
      if (changes[column] === undefined) continue;
      params.push(changes[column]);
      sets.push(`${column} = $${params.length}`);
    }
    sets.push('updated_at = now()');
    const [row] = await this.db.query(
      `UPDATE site_files SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
      params,
    );
    return row && toFile(row);
  }

  /**
   * Deletes a file row with the fragments file the service made from it, returning the file and
   * those (with their blob keys) or undefined when there was no such file.
   */
  async delete(id: string): Promise<{ file: StoredFile; generated: StoredFile[] } | undefined> {
    const rows = (
      await this.db.query(`DELETE FROM site_files WHERE id = $1 OR generated_from = $1 RETURNING ${COLUMNS}`, [id])
    ).map(toFile);
    const file = rows.find((row) => row.id === id);
    return file && { file, generated: rows.filter((row) => row !== file) };
  }

  /** Deletes every file row of a site, returning them. */
  async deleteSite(site: string): Promise<StoredFile[]> {
    return (await this.db.query(`DELETE FROM site_files WHERE site = $1 RETURNING ${COLUMNS}`, [site])).map(toFile);
  }
}
