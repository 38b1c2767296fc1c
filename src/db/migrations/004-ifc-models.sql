-- IFC models (issue 8): what the service read from an uploaded IFC file, and the fragments file it
-- made from it. Only IFC files of category model-3d or bim-source are read; other rows keep nulls.
--   ifc_status:  pending → reading → converting → ready, or failed (ifc_error says why). A failure
--                never touches the upload itself; the file stays as it was stored.
--   ifc_schema:  the file's schema as it declares it (IFC2X3, IFC4, IFC4X3 …).
--   ifc_storeys: [{"global_id", "name", "elevation"}] by elevation; elevation in metres or null.
--   ifc_element_count: how many rows ifc_elements holds for the file.
-- `generated_from` marks the fragments file the service made from an IFC file (it also carries
-- `source_ifc`, as docs/files-and-models.md, "Files", says); it goes with its IFC file. Files users
-- upload never carry it.
ALTER TABLE site_files
  ADD COLUMN ifc_status text CHECK (ifc_status IN ('pending', 'reading', 'converting', 'ready', 'failed')),
  ADD COLUMN ifc_error varchar(1000),
  ADD COLUMN ifc_schema varchar(32),
  ADD COLUMN ifc_storeys jsonb,
  ADD COLUMN ifc_element_count integer,
  ADD COLUMN generated_from uuid REFERENCES site_files (id) ON DELETE CASCADE;

CREATE INDEX site_files_ifc_work ON site_files (ifc_status) WHERE ifc_status IN ('pending', 'reading', 'converting');
CREATE UNIQUE INDEX site_files_generated_from ON site_files (generated_from) WHERE generated_from IS NOT NULL;

-- The products of an IFC file (every IfcProduct with a GlobalId): its class, name and the storey it
-- stands on (the name of the IfcBuildingStorey reached through containment, aggregation, nesting,
-- voids, fills and ports; empty outside any storey). One row per GlobalId: a duplicate keeps the first.
CREATE TABLE ifc_elements (
  file_id uuid NOT NULL REFERENCES site_files (id) ON DELETE CASCADE,
  global_id varchar(64) NOT NULL,
  ifc_class varchar(64) NOT NULL,
  name varchar(255) NOT NULL DEFAULT '',
  storey varchar(255) NOT NULL DEFAULT '',
  PRIMARY KEY (file_id, global_id)
);

-- The storey filter lists one storey's elements.
CREATE INDEX ifc_elements_storey ON ifc_elements (file_id, storey, global_id);
