import type { Database } from '../db/database.ts';
import type { IfcStatus, IfcStorey, StoredFile } from './site-file.ts';

/** A product of an IFC file as the elements endpoint shows it. */
export interface IfcElementRow {
  readonly global_id: string;
  readonly ifc_class: string;
  readonly name: string;
  /** The storey's name; empty outside any storey. */
  readonly storey: string;
  /** Its IFC Tag; empty when none (and for files read before migration 006). */
  readonly tag?: string;
}

/** An element of one of a site's read IFC files. */
export interface SiteIfcElement extends IfcElementRow {
  readonly file_id: string;
}

/** Two elements of a file joined port to port. */
export interface IfcConnectionRow {
  readonly file_id: string;
  readonly from_id: string;
  readonly to_id: string;
}

/**
 * Which bytes of a file a job works on (each upload gets a fresh blob key, even for the same
 * bytes): writes of a job whose bytes were replaced meanwhile change nothing.
 */
export interface IfcJobFile {
  readonly id: string;
  readonly blob_key: string;
}

/** Elements are written in batches of this many rows (one statement each). */
export const ELEMENT_BATCH = 1000;

/**
 * What the service read from IFC files: the status columns of `site_files` and the `ifc_elements`
 * rows (migration 004). Pass a transaction's Database to combine changes.
 */
export class IfcModelStore {
  constructor(private readonly db: Database) {}

  /**
   * Forgets what was read from a file (and its elements) and sets its status (null: not an IFC
   * file the service reads). Deletes the fragments file made from it and answers it, so the
   * caller removes its bytes.
   */
  async reset(id: string, status: IfcStatus | null): Promise<Array<Pick<StoredFile, 'id' | 'blob_key'>>> {
    await this.db.query(
      'UPDATE site_files SET ifc_status = $2, ifc_error = NULL, ifc_schema = NULL, ifc_storeys = NULL, ifc_element_count = NULL, ifc_project_id = NULL WHERE id = $1',
      [id, status],
    );
    await this.db.query('DELETE FROM ifc_elements WHERE file_id = $1', [id]);
    await this.db.query('DELETE FROM ifc_connections WHERE file_id = $1', [id]);
    return this.db.query<{ id: string; blob_key: string }>(
      'DELETE FROM site_files WHERE generated_from = $1 RETURNING id, blob_key',
      [id],
    );
  }

  /** The files whose reading or conversion has not finished (a restart interrupted it, or it never started). */
  async unfinished(): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      "SELECT id FROM site_files WHERE ifc_status IN ('pending', 'reading', 'converting') ORDER BY created_at, creation_order",
    );
    return rows.map((row) => row.id);
  }

  /**
   * Starts (or restarts) reading a file: status `reading`, nothing read yet. False when the file is
   * gone or its bytes changed.
   */
  async startReading(file: IfcJobFile): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE site_files SET ifc_status = 'reading', ifc_error = NULL, ifc_schema = NULL, ifc_storeys = NULL, ifc_element_count = NULL
       WHERE id = $1 AND blob_key = $2 RETURNING id`,
      [file.id, file.blob_key],
    );
    if (rows.length === 0) return false;
    await this.db.query('DELETE FROM ifc_elements WHERE file_id = $1', [file.id]);
    await this.db.query('DELETE FROM ifc_connections WHERE file_id = $1', [file.id]);
    return true;
  }

  /** Adds a batch of elements; a GlobalId the file already has keeps its first row. */
  async addElements(file: IfcJobFile, rows: readonly IfcElementRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.query(
      `INSERT INTO ifc_elements (file_id, global_id, ifc_class, name, storey, tag)
       SELECT $1, e.global_id, e.ifc_class, e.name, e.storey, e.tag
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS e (global_id, ifc_class, name, storey, tag)
       WHERE EXISTS (SELECT 1 FROM site_files WHERE id = $1 AND blob_key = $2)
       ON CONFLICT (file_id, global_id) DO NOTHING`,
      [
        file.id,
        file.blob_key,
        rows.map((row) => row.global_id),
        rows.map((row) => row.ifc_class),
        rows.map((row) => row.name),
        rows.map((row) => row.storey),
        rows.map((row) => row.tag ?? ''),
      ],
    );
  }

  /** Adds a batch of port-to-port pairs (GlobalIds, the smaller first); a pair the file has is kept once. */
  async addConnections(file: IfcJobFile, pairs: ReadonlyArray<readonly [string, string]>): Promise<void> {
    if (pairs.length === 0) return;
    await this.db.query(
      `INSERT INTO ifc_connections (file_id, from_id, to_id)
       SELECT $1, c.from_id, c.to_id FROM unnest($3::text[], $4::text[]) AS c (from_id, to_id)
       WHERE EXISTS (SELECT 1 FROM site_files WHERE id = $1 AND blob_key = $2)
       ON CONFLICT DO NOTHING`,
      [file.id, file.blob_key, pairs.map((pair) => pair[0]), pairs.map((pair) => pair[1])],
    );
  }

  /**
   * The elements of the given classes (any case) of the site's IFC files that have been read (their
   * elements are complete), by file and GlobalId.
   */
  async siteElements(site: string, classes: readonly string[]): Promise<SiteIfcElement[]> {
    return this.db.query<SiteIfcElement & Record<string, unknown>>(
      `SELECT e.file_id, e.global_id, e.ifc_class, e.name, e.storey, e.tag FROM ifc_elements e JOIN site_files f ON f.id = e.file_id
       WHERE f.site = $1 AND f.ifc_element_count IS NOT NULL AND upper(e.ifc_class) = ANY($2::text[]) ORDER BY e.file_id, e.global_id COLLATE "C"`,
      [site, classes.map((c) => c.toUpperCase())],
    );
  }

  /** The site's IFC files that have been read: id, name and their IfcProject's GlobalId (null when not known). */
  async siteReadFiles(site: string): Promise<Array<{ id: string; name: string; ifc_project_id: string | null }>> {
    return this.db.query<{ id: string; name: string; ifc_project_id: string | null }>(
      'SELECT id, name, ifc_project_id FROM site_files WHERE site = $1 AND ifc_element_count IS NOT NULL ORDER BY id',
      [site],
    );
  }

  /** Every port-to-port pair of the site's read IFC files. */
  async siteConnections(site: string): Promise<IfcConnectionRow[]> {
    return this.db.query<IfcConnectionRow & Record<string, unknown>>(
      `SELECT c.file_id, c.from_id, c.to_id FROM ifc_connections c JOIN site_files f ON f.id = c.file_id
       WHERE f.site = $1 AND f.ifc_element_count IS NOT NULL`,
      [site],
    );
  }

  /** Records what was read (schema, storeys, how many elements, the IfcProject's GlobalId) and moves on to `converting`. */
  async finishReading(
    file: IfcJobFile,
    schema: string,
    storeys: readonly IfcStorey[],
    projectId = '',
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE site_files SET ifc_status = 'converting', ifc_schema = $3, ifc_storeys = $4::jsonb,
         ifc_element_count = (SELECT count(*) FROM ifc_elements WHERE file_id = $1), ifc_project_id = NULLIF($5, '')
       WHERE id = $1 AND blob_key = $2 RETURNING id`,
      [file.id, file.blob_key, schema, JSON.stringify(storeys), projectId.slice(0, 64)],
    );
    return rows.length > 0;
  }

  /** Sets where a job ended: `ready`, `failed` with the reason, or `pending` again (to be retried). */
  async finish(file: IfcJobFile, status: 'ready' | 'failed' | 'pending', error: string | null = null): Promise<void> {
    await this.db.query('UPDATE site_files SET ifc_status = $3, ifc_error = $4 WHERE id = $1 AND blob_key = $2', [
      file.id,
      file.blob_key,
      status,
      error,
    ]);
  }

  /** One element of a file, or undefined. */
  async element(fileId: string, globalId: string): Promise<IfcElementRow | undefined> {
    const [row] = await this.db.query<Record<string, unknown>>(
      'SELECT global_id, ifc_class, name, storey FROM ifc_elements WHERE file_id = $1 AND global_id = $2',
      [fileId, globalId],
    );
    return row as IfcElementRow | undefined;
  }

  /** How many elements stand on each storey of a file, by storey name ('' for those outside any storey). */
  async storeyCounts(fileId: string): Promise<Map<string, number>> {
    const rows = await this.db.query<{ storey: string; count: unknown }>(
      'SELECT storey, count(*) AS count FROM ifc_elements WHERE file_id = $1 GROUP BY storey',
      [fileId],
    );
    return new Map(rows.map((row) => [row.storey, Number(row.count)]));
  }

  /** A page of a file's elements (of one storey, if given), by GlobalId, and how many match. */
  async elements(
    fileId: string,
    filter: { storey?: string | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: IfcElementRow[] }> {
    const params: unknown[] = [fileId];
    let where = 'file_id = $1';
    if (filter.storey !== undefined) {
      params.push(filter.storey);
      where += ' AND storey = $2';
    }
    const [counted] = await this.db.query<{ count: unknown }>(
      `SELECT count(*) AS count FROM ifc_elements WHERE ${where}`,
      params,
    );
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT global_id, ifc_class, name, storey FROM ifc_elements WHERE ${where} ORDER BY global_id COLLATE "C" LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return { count: Number(counted!.count), rows: rows as unknown as IfcElementRow[] };
  }
}
