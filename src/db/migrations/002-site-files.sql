-- Site files (docs/files-and-models.md, "Files"): one row per stored file. The bytes live in the
-- BlobStore under `blob_key`; a row is written only after its bytes were stored, and a row's key
-- changes only to a key whose bytes were stored, so every row points at complete bytes. `sha256` (hex)
-- is the download ETag.
-- A model file is a row whose `format` is set.
CREATE TABLE site_files (
  id uuid PRIMARY KEY,
  site text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  category text NOT NULL CHECK (category IN ('kg-csv', 'model-3d', 'bim-source', 'spec-sheet', 'maintenance', 'other')),
  name varchar(255) NOT NULL CHECK (name <> ''),
  entity_uri varchar(511) NOT NULL DEFAULT '',
  content_type varchar(127) NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  format text CHECK (format IN ('ifc', 'frag', 'glb', 'obj')),
  storey varchar(255) NOT NULL DEFAULT '',
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order >= 0),
  source_ifc uuid REFERENCES site_files (id) ON DELETE SET NULL,
  blob_key text NOT NULL UNIQUE,
  sha256 char(64) NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The file list filters by site (and category); the model list orders a site's models.
CREATE INDEX site_files_site ON site_files (site, category, created_at);
CREATE INDEX site_files_models ON site_files (site, sort_order, created_at) WHERE format IS NOT NULL;
CREATE INDEX site_files_source_ifc ON site_files (source_ifc) WHERE source_ifc IS NOT NULL;
