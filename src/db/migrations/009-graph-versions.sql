-- Every change of a site's graph is a version: who made it, how, when, what it changed. `patch`
-- holds the change as RDF Patch (src/rdf/rdf-patch.ts), so history costs what the changes cost,
-- not a copy of the graph per version; it is NULL where the change was not kept (a load of a
-- graph past the size whose changes are worked out, or a version past retention), and then no
-- diff, export or rollback reaches across it. Versions count from 1 per site; 0 is the graph
-- before the first version recorded (empty for a new site).
CREATE TABLE graph_versions (
  site text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  version integer NOT NULL,
  parent integer,
  at timestamptz NOT NULL DEFAULT now(),
  by_kind text NOT NULL,
  by_id text NOT NULL,
  by_name text,
  via text NOT NULL,
  message text,
  triples bigint NOT NULL,
  added bigint NOT NULL,
  removed bigint NOT NULL,
  entities integer NOT NULL,
  patch text,
  PRIMARY KEY (site, version)
);
