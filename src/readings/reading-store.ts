import type { Database } from '../db/database.ts';

/** One reading: a timeseries' value at an instant (epoch milliseconds); `value` null carries no number. */
export interface Reading {
  readonly timeseriesId: string;
  readonly ms: number;
  readonly value: number | null;
}

/** A point of a series: time and value. */
export interface SeriesPoint {
  readonly ms: number;
  readonly value: number | null;
}

/** Timeseries ids by site id: the series a lookup is for. */
export type SeriesBySite = ReadonlyMap<string, readonly string[]>;

/** A site's latest readings by timeseries id, and the timezone its times are shown in. */
export interface LatestReadings {
  readonly timeZone: string;
  readonly readings: Map<string, SeriesPoint>;
}

/** How readings in a window are combined. */
export type Aggregate = 'mean' | 'min' | 'max' | 'sum' | 'count' | 'first' | 'last';

export const AGGREGATES: readonly Aggregate[] = ['mean', 'min', 'max', 'sum', 'count', 'first', 'last'];

// Constants of this module, never user input. Readings without a number are ignored by every
// aggregate: a window holding only those has count 0 and null otherwise.
const AGGREGATE_SQL: Record<Aggregate, string> = {
  mean: 'avg(value)',
  min: 'min(value)',
  max: 'max(value)',
  sum: 'sum(value)',
  count: 'count(value)::integer',
  first: '(array_agg(value ORDER BY ts) FILTER (WHERE value IS NOT NULL))[1]',
  last: '(array_agg(value ORDER BY ts DESC) FILTER (WHERE value IS NOT NULL))[1]',
};

/**
 * Significant digits a computed aggregate (mean, sum) keeps. Adding doubles leaves noise in the
 * last of their ~16 digits (a mean of 13.3 and 13.4 is 13.350000000000001); 12 drop it and keep
 * more than any sensor measures. The other aggregates are readings as stored, never rounded.
 */
export const COMPUTED_DIGITS = 12;

const COMPUTED: ReadonlySet<Aggregate> = new Set(['mean', 'sum']);

const roundComputed = (value: number | null): number | null =>
  value === null ? null : Number(value.toPrecision(COMPUTED_DIGITS));

/** Rows per INSERT: unnest() batches of this size measured fastest on PGlite (100k rows: ~0.65 s; one a row: ~6 s). */
const BATCH = 1000;

const iso = (ms: number) => new Date(ms).toISOString();
const msOf = (value: unknown): number => (value instanceof Date ? value.getTime() : Date.parse(String(value)));
const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

const UPSERT = `INSERT INTO readings (site, timeseries_id, ts, value)
  SELECT $1, r.id, r.ts, r.v FROM unnest($2::text[], $3::timestamptz[], $4::double precision[]) AS r(id, ts, v)
  ON CONFLICT (site, timeseries_id, ts) DO UPDATE SET value = EXCLUDED.value
  WHERE readings.value IS DISTINCT FROM EXCLUDED.value`;

/**
 * Readings in the record database (PGlite or PostgreSQL). Every query is one statement over the
 * primary key (site, timeseries_id, ts): see migration 003.
 */
export class ReadingStore {
  constructor(private readonly db: Database) {}

  /**
   * Stores readings in one transaction (all or none). A reading repeated with the same key
   * replaces the stored value (the last one in `readings` wins), so repeating a write changes nothing.
   */
  async write(siteId: string, readings: readonly Reading[]): Promise<void> {
    const unique = new Map<string, Reading>();
    for (const reading of readings) unique.set(`${reading.timeseriesId}\u0000${reading.ms}`, reading);
    const rows = [...unique.values()];
    if (rows.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        await tx.query(UPSERT, [
          siteId,
          batch.map((r) => r.timeseriesId),
          batch.map((r) => iso(r.ms)),
          batch.map((r) => r.value),
        ]);
      }
    });
  }

  /**
   * The latest reading of each series with `after < ts <= until`, for series of any number of
   * sites, in one query (one index probe per series), with each site's timezone. Sites and series
   * without such a reading are absent.
   */
  async latest(series: SeriesBySite, after: number, until: number): Promise<Map<string, LatestReadings>> {
    const sites = [...series].flatMap(([siteId, ids]) => ids.map(() => siteId));
    const ids = [...series].flatMap(([, ids]) => [...ids]);
    const rows = await this.db.query<{
      site: string;
      id: string;
      ts: unknown;
      value: unknown;
      timezone: string | null;
    }>(
      `SELECT s.site, s.id, r.ts, r.value, sites.timezone
       FROM unnest($1::text[], $2::text[]) AS s(site, id)
       LEFT JOIN sites ON sites.id = s.site
       CROSS JOIN LATERAL (
         SELECT ts, value FROM readings
         WHERE site = s.site AND timeseries_id = s.id AND ts > $3::timestamptz AND ts <= $4::timestamptz
         ORDER BY ts DESC LIMIT 1
       ) AS r`,
      [sites, ids, iso(after), iso(until)],
    );
    const bySite = new Map<string, LatestReadings>();
    for (const row of rows) {
      let site = bySite.get(row.site);
      if (!site) bySite.set(row.site, (site = { timeZone: row.timezone ?? 'UTC', readings: new Map() }));
      site.readings.set(row.id, { ms: msOf(row.ts), value: numberOrNull(row.value) });
    }
    return bySite;
  }

  /**
   * How many series of a site have readings, and the first and last instant of them (null: none).
   * A skip scan of the primary key: a few index probes per series, not a read of every reading of
   * the site (years of them for a real one, in the pool every site shares).
   */
  async coverage(siteId: string): Promise<{ series: number; first: number | null; last: number | null }> {
    const [row] = await this.db.query<{ series: unknown; first: unknown; last: unknown }>(
      `WITH RECURSIVE series(id) AS (
         (SELECT timeseries_id FROM readings WHERE site = $1 ORDER BY timeseries_id LIMIT 1)
         UNION ALL
         SELECT (SELECT r.timeseries_id FROM readings r WHERE r.site = $1 AND r.timeseries_id > s.id ORDER BY r.timeseries_id LIMIT 1)
         FROM series s WHERE s.id IS NOT NULL
       )
       SELECT count(*)::int AS series,
              min((SELECT ts FROM readings r WHERE r.site = $1 AND r.timeseries_id = s.id ORDER BY ts LIMIT 1)) AS first,
              max((SELECT ts FROM readings r WHERE r.site = $1 AND r.timeseries_id = s.id ORDER BY ts DESC LIMIT 1)) AS last
       FROM series s WHERE s.id IS NOT NULL`,
      [siteId],
    );
    return {
      series: Number(row?.series ?? 0),
      first: row?.first == null ? null : msOf(row.first),
      last: row?.last == null ? null : msOf(row.last),
    };
  }

  /** Each series' readings with `start <= ts < end`, oldest first, at most `limit` per series, in one query. */
  async range(
    siteId: string,
    timeseriesIds: readonly string[],
    start: number,
    end: number,
    limit: number,
  ): Promise<Map<string, SeriesPoint[]>> {
    const rows = await this.db.query<{ id: string; ts: unknown; value: unknown }>(
      `SELECT s.id, r.ts, r.value
       FROM unnest($2::text[]) WITH ORDINALITY AS s(id, n)
       CROSS JOIN LATERAL (
         SELECT ts, value FROM readings
         WHERE site = $1 AND timeseries_id = s.id AND ts >= $3::timestamptz AND ts < $4::timestamptz
         ORDER BY ts LIMIT $5
       ) AS r
       ORDER BY s.n, r.ts`,
      [siteId, [...timeseriesIds], iso(start), iso(end), limit],
    );
    return groupRows(rows, 'ts');
  }

  /**
   * Each series' readings with `start <= ts < end` combined per window of `windowMs`, windows aligned
   * to multiples of the window size since the Unix epoch; the earliest `limit` windows per series,
   * oldest first. A window without readings is absent.
   */
  async aggregate(
    siteId: string,
    timeseriesIds: readonly string[],
    range: { start: number; end: number; windowMs: number; aggregate: Aggregate; limit: number },
  ): Promise<Map<string, SeriesPoint[]>> {
    const rows = await this.db.query<{ id: string; t: unknown; value: unknown }>(
      `SELECT s.id, w.t, w.value
       FROM unnest($2::text[]) WITH ORDINALITY AS s(id, n)
       CROSS JOIN LATERAL (
         SELECT date_bin($5::interval, ts, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS t, ${AGGREGATE_SQL[range.aggregate]} AS value
         FROM readings
         WHERE site = $1 AND timeseries_id = s.id AND ts >= $3::timestamptz AND ts < $4::timestamptz
         GROUP BY 1 ORDER BY 1 LIMIT $6
       ) AS w
       ORDER BY s.n, w.t`,
      [siteId, [...timeseriesIds], iso(range.start), iso(range.end), `${range.windowMs / 1000} seconds`, range.limit],
    );
    return groupRows(rows, 't', COMPUTED.has(range.aggregate) ? roundComputed : undefined);
  }

  /** The instant of the site's newest reading, if it has any (the simulator's backfill starts there). */
  async lastReadingTime(siteId: string): Promise<number | undefined> {
    const [row] = await this.db.query<{ last: unknown }>('SELECT max(ts) AS last FROM readings WHERE site = $1', [
      siteId,
    ]);
    return row?.last === null || row?.last === undefined ? undefined : msOf(row.last);
  }
}

function groupRows<K extends string>(
  rows: ReadonlyArray<{ id: string; value: unknown } & Record<K, unknown>>,
  time: K,
  round: (value: number | null) => number | null = (value) => value,
): Map<string, SeriesPoint[]> {
  const series = new Map<string, SeriesPoint[]>();
  for (const row of rows) {
    let points = series.get(row.id);
    if (!points) series.set(row.id, (points = []));
    points.push({ ms: msOf(row[time]), value: round(numberOrNull(row.value)) });
  }
  return series;
}
