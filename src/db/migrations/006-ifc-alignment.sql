-- IFC ↔ Brick alignment (issue 23).
-- `tag`: an element's IFC Tag (IfcElement.Tag: often the equipment tag a BMS names it by); '' when none.
-- `ifc_connections`: pairs of elements of a file joined port to port (IfcRelConnectsPorts, the ports
-- found through IfcRelNests or IfcRelConnectsPortToElement), once per pair, `from_id` < `to_id`;
-- pipes, ducts and fittings included (the alignment walks through them). Files read before this
-- migration have no tags nor connections until their bytes are read again.
-- `ifc_project_id`: the GlobalId of the file's IfcProject (an accepted link's ref:ifcProjectID); null
-- for files read before.
ALTER TABLE ifc_elements ADD COLUMN tag varchar(255) NOT NULL DEFAULT '';
ALTER TABLE site_files ADD COLUMN ifc_project_id varchar(64);

CREATE TABLE ifc_connections (
  file_id uuid NOT NULL REFERENCES site_files (id) ON DELETE CASCADE,
  from_id varchar(64) NOT NULL,
  to_id varchar(64) NOT NULL,
  PRIMARY KEY (file_id, from_id, to_id)
);

-- Pairs (IFC element, graph entity) a user rejected: never proposed again. Gone with the site or the file.
CREATE TABLE alignment_rejections (
  site text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  file_id uuid NOT NULL REFERENCES site_files (id) ON DELETE CASCADE,
  global_id varchar(64) NOT NULL,
  entity_iri text NOT NULL,
  rejected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (file_id, global_id, entity_iri)
);

CREATE INDEX alignment_rejections_site ON alignment_rejections (site);
