import type { ModelFormat, SiteFileRecord } from '../files/site-file.ts';

/** A model file as the REST API shows it (docs/files-and-models.md, "Files"). */
export interface ModelFile {
  id: string;
  name: string;
  format: ModelFormat;
  storey: string;
  sort_order: number;
  size_bytes: number;
  download_url: string;
  created_at: string;
  source_ifc: string | null;
}

/** The REST object of a model file; `downloadUrl` is the path its bytes are served at. */
export function modelFile(file: SiteFileRecord & { format: ModelFormat }, downloadUrl: string): ModelFile {
  return {
    id: file.id,
    name: file.name,
    format: file.format,
    storey: file.storey,
    sort_order: file.sort_order,
    size_bytes: file.size_bytes,
    download_url: downloadUrl,
    created_at: file.created_at,
    source_ifc: file.source_ifc,
  };
}
