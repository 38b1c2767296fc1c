/** The categories of a site file (SPEC 2.12). */
export const CATEGORIES = ['kg-csv', 'model-3d', 'bim-source', 'spec-sheet', 'maintenance', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The formats that make a site file a model file (SPEC 4.2). */
export const MODEL_FORMATS = ['ifc', 'frag', 'glb', 'obj'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

/** A site file as the REST API shows it (SPEC 4.3); timestamps are ISO-8601 UTC strings. */
export interface SiteFileRecord {
  id: string;
  site: string;
  category: Category;
  name: string;
  /** The graph entity the file documents; empty when none. */
  entity_uri: string;
  content_type: string;
  size_bytes: number;
  /** Set for model files (ifc, frag, glb, obj); null for any other file. */
  format: ModelFormat | null;
  /** Storey name; empty when not applicable. */
  storey: string;
  sort_order: number;
  /** The IFC file a fragment file was made from. */
  source_ifc: string | null;
  created_at: string;
  updated_at: string;
}

/** A site file as stored: the record plus where its bytes are and their checksum. */
export interface StoredFile extends SiteFileRecord {
  blob_key: string;
  /** SHA-256 of the bytes (hex): the download's ETag. */
  sha256: string;
}

/** The public record: a stored file without its storage details. */
export function fileRecord(file: StoredFile): SiteFileRecord {
  const { blob_key: _key, sha256: _sha256, ...record } = file;
  return record;
}
