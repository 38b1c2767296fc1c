import type { Database } from '../db/database.ts';

/** A pair a user rejected. */
export interface Rejection {
  readonly fileId: string;
  readonly globalId: string;
  readonly entityIri: string;
}

/** The pairs users rejected (`alignment_rejections`, migration 006): never proposed again. */
export class RejectionStore {
  constructor(private readonly db: Database) {}

  /** Every rejection of a site. */
  async list(site: string): Promise<Rejection[]> {
    const rows = await this.db.query<{ file_id: string; global_id: string; entity_iri: string }>(
      'SELECT file_id, global_id, entity_iri FROM alignment_rejections WHERE site = $1',
      [site],
    );
    return rows.map((row) => ({ fileId: row.file_id, globalId: row.global_id, entityIri: row.entity_iri }));
  }

  /** Remembers rejections (one statement for all). */
  async add(site: string, pairs: readonly Rejection[]): Promise<void> {
    if (pairs.length === 0) return;
    await this.db.query(
      `INSERT INTO alignment_rejections (site, file_id, global_id, entity_iri)
       SELECT $1, r.file_id::uuid, r.global_id, r.entity_iri FROM unnest($2::text[], $3::text[], $4::text[]) AS r (file_id, global_id, entity_iri)
       ON CONFLICT DO NOTHING`,
      [site, pairs.map((p) => p.fileId), pairs.map((p) => p.globalId), pairs.map((p) => p.entityIri)],
    );
  }

  /** Forgets rejections (a pair accepted after all). */
  async remove(site: string, pairs: readonly Rejection[]): Promise<void> {
    if (pairs.length === 0) return;
    await this.db.query(
      `DELETE FROM alignment_rejections a USING unnest($2::text[], $3::text[], $4::text[]) AS r (file_id, global_id, entity_iri)
       WHERE a.site = $1 AND a.file_id = r.file_id::uuid AND a.global_id = r.global_id AND a.entity_iri = r.entity_iri`,
      [site, pairs.map((p) => p.fileId), pairs.map((p) => p.globalId), pairs.map((p) => p.entityIri)],
    );
  }
}
