/** The categories of a site file. */
export const CATEGORIES = ['kg-csv', 'model-3d', 'bim-source', 'spec-sheet', 'maintenance', 'other'] as const;
export type Category = (typeof CATEGORIES)[number];

/** The formats that make a site file a model file. */
export const MODEL_FORMATS = ['ifc', 'frag', 'glb', 'obj'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

/** A site file as the REST API shows it (docs/files-and-models.md, "Files"); timestamps are ISO-8601 UTC strings. */
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
  /** For IFC files of category model-3d or bim-source: what the service read from it; else null. */
  ifc: IfcInfo | null;
  created_at: string;
  updated_at: string;
}

/** Where the reading and conversion of an IFC file stand. */
export const IFC_STATUSES = ['pending', 'reading', 'converting', 'ready', 'failed'] as const;
export type IfcStatus = (typeof IFC_STATUSES)[number];

/** A storey of an IFC file; elevation in metres (null when the file gives none). */
export interface IfcStorey {
  global_id: string;
  name: string;
  elevation: number | null;
}

/** What the service read from an IFC file, and its fragments file once converted. */
export interface IfcInfo {
  status: IfcStatus;
  /** Why reading or conversion failed; null otherwise. */
  error: string | null;
  /** The schema the file declares (IFC2X3, IFC4 …), once read. */
  schema: string | null;
  /** By elevation; empty until read. */
  storeys: IfcStorey[];
  /** How many products with a GlobalId it holds; null until read. */
  element_count: number | null;
  /** The fragments (.frag) model file made from it; null until converted. */
  fragments_id: string | null;
}

/** A site file as stored: the record plus where its bytes are and their checksum. */
export interface StoredFile extends SiteFileRecord {
  blob_key: string;
  /** SHA-256 of the bytes (hex): the download's ETag. */
  sha256: string;
  /** The IFC file the service made this fragments file from; null for every file users upload. */
  generated_from: string | null;
}

/** The public record: a stored file without its storage details. */
export function fileRecord(file: StoredFile): SiteFileRecord {
  const { blob_key: _key, sha256: _sha256, generated_from: _generatedFrom, ...record } = file;
  return record;
}

/** Whether the service reads a file as IFC (and converts it): IFC files of category model-3d or bim-source. */
export function readsAsIfc(file: { readonly format: ModelFormat | null; readonly category: Category }): boolean {
  return file.format === 'ifc' && (file.category === 'model-3d' || file.category === 'bim-source');
}
