-- Readings: one row per (site, timeseries, instant). The primary key makes a repeated reading
-- idempotent (writes upsert on it) and is the one index both hot queries use:
--   latest reading of N series: one backward index probe per series (LATERAL ... ORDER BY ts DESC LIMIT 1);
--   range of one series:        one forward index range scan (ts >= start AND ts < end ORDER BY ts).
-- `value` is null when the reading carries no number (quality `stale`).
CREATE TABLE readings (
  site text NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
  timeseries_id text NOT NULL,
  ts timestamptz NOT NULL,
  value double precision,
  PRIMARY KEY (site, timeseries_id, ts)
);

-- With TimescaleDB installed in the database (CREATE EXTENSION timescaledb), readings become a
-- hypertable chunked by time; the primary key already contains the time column, as it requires.
-- Without it (plain PostgreSQL, PGlite) this does nothing. README "Readings" shows how to convert
-- an existing table later.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'timescaledb') THEN
    EXECUTE 'SELECT create_hypertable(''readings'', ''ts'', chunk_time_interval => INTERVAL ''7 days'', migrate_data => true)';
  END IF;
END
$$;
