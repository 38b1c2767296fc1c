// The readings store on both record engines: PGlite always, PostgreSQL when DATABASE_URL is set
// (.ci/run sets it; without it that variant is a skip naming it). Idempotent writes, the current-value window, ranges and every aggregate
// checked against values computed by hand.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase, type DatabaseOptions } from '../../../src/db/open-database.ts';
import { ReadingStore, type Aggregate } from '../../../src/readings/reading-store.ts';
import { SiteStore } from '../../../src/tenants/site-store.ts';
import { describeVariants, requiredEngineUrl, type Variant } from '../../support/needs.ts';

interface Engine extends Variant {
  setup(): Promise<DatabaseOptions>;
  teardown(): Promise<void>;
}

function pglite(): Engine {
  let dataDir = '';
  return {
    name: 'PGlite',
    async setup() {
      dataDir = await mkdtemp(join(tmpdir(), 'bkg-readings-'));
      return { dataDir };
    },
    teardown: () => rm(dataDir, { recursive: true, force: true }),
  };
}

function postgres(): Engine {
  const schema = `readings_test_${randomBytes(6).toString('hex')}`;
  return {
    name: 'PostgreSQL',
    needs: ['DATABASE_URL'],
    setup: async () => ({ databaseUrl: requiredEngineUrl('DATABASE_URL'), dataDir: tmpdir(), schema }),
    async teardown() {
      const client = new pg.Client({ connectionString: requiredEngineUrl('DATABASE_URL') });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

const engines = [pglite(), postgres()];

const T0 = Date.UTC(2026, 10, 21, 10, 0, 0); // 2026-11-21T10:00:00Z
const MIN = 60_000;

describeVariants('reading store on $name', engines, (engine) => {
  let db: Database;
  let readings: ReadingStore;

  beforeAll(async () => {
    db = await openDatabase(await engine.setup());
    readings = new ReadingStore(db);
    const sites = new SiteStore(db);
    for (const id of ['s1', 's2']) {
      await sites.create({
        id,
        name: id,
        organization: null,
        address: null,
        city: null,
        country: null,
        country_code: null,
        latitude: null,
        longitude: null,
        timezone: 'Europe/Berlin',
      });
    }
  });
  afterAll(async () => {
    await db?.close();
    await engine.teardown();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM readings');
  });

  it('keys readings by site, series and instant: writing the same reading again changes nothing', async () => {
    const batch = [
      { timeseriesId: 'a', ms: T0, value: 1 },
      { timeseriesId: 'a', ms: T0 + MIN, value: 2 },
    ];
    await readings.write('s1', batch);
    await readings.write('s1', batch);
    await readings.write('s2', batch);
    const rows = await db.query<{ site: string; n: number }>(
      'SELECT site, count(*)::int AS n FROM readings GROUP BY site ORDER BY site',
    );
    expect(rows).toEqual([
      { site: 's1', n: 2 },
      { site: 's2', n: 2 },
    ]);
  });

  it('a later write of the same key replaces the value; in one batch the last one wins', async () => {
    await readings.write('s1', [{ timeseriesId: 'a', ms: T0, value: 1 }]);
    await readings.write('s1', [
      { timeseriesId: 'a', ms: T0, value: 5 },
      { timeseriesId: 'a', ms: T0, value: 6 },
    ]);
    expect(await readings.range('s1', ['a'], T0, T0 + 1, 10)).toEqual(new Map([['a', [{ ms: T0, value: 6 }]]]));
  });

  it('stores null values and more than one batch of rows in one call', async () => {
    const many = Array.from({ length: 2500 }, (_, i) => ({
      timeseriesId: 'big',
      ms: T0 + i * 1000,
      value: i % 10 === 0 ? null : i,
    }));
    await readings.write('s1', many);
    const [row] = await db.query<{ n: number; nulls: number }>(
      "SELECT count(*)::int AS n, count(*) FILTER (WHERE value IS NULL)::int AS nulls FROM readings WHERE timeseries_id = 'big'",
    );
    expect(row).toEqual({ n: 2500, nulls: 250 });
  });

  it('latest: per series the newest reading with after < ts <= until, with its site timezone, for several sites in one query', async () => {
    await readings.write('s1', [
      { timeseriesId: 'a', ms: T0 - 10 * MIN, value: 1 },
      { timeseriesId: 'a', ms: T0 - 2 * MIN, value: 2 },
      { timeseriesId: 'a', ms: T0 + MIN, value: 3 }, // after `until`
      { timeseriesId: 'b', ms: T0 - 6 * MIN, value: 4 }, // before `after`
      { timeseriesId: 'c', ms: T0, value: null },
    ]);
    await readings.write('s2', [{ timeseriesId: 'b', ms: T0, value: 9 }]);
    const latest = await readings.latest(new Map([['s1', ['a', 'b', 'c', 'missing']]]), T0 - 5 * MIN, T0);
    expect(latest).toEqual(
      new Map([
        [
          's1',
          {
            timeZone: 'Europe/Berlin',
            readings: new Map([
              ['a', { ms: T0 - 2 * MIN, value: 2 }],
              ['c', { ms: T0, value: null }],
            ]),
          },
        ],
      ]),
    );
    const both = await readings.latest(
      new Map([
        ['s1', ['b']],
        ['s2', ['b']],
      ]),
      T0 - 5 * MIN,
      T0,
    );
    expect([...both.keys()]).toEqual(['s2']);
    expect(both.get('s2')!.readings.get('b')).toEqual({ ms: T0, value: 9 });
  });

  it('range: start inclusive, end exclusive, oldest first, limit per series, in request order', async () => {
    await readings.write('s1', [
      ...[0, 1, 2, 3, 4].map((i) => ({ timeseriesId: 'a', ms: T0 + i * MIN, value: i })),
      ...[0, 1, 2].map((i) => ({ timeseriesId: 'b', ms: T0 + i * MIN, value: 10 + i })),
    ]);
    const result = await readings.range('s1', ['b', 'a'], T0 + MIN, T0 + 4 * MIN, 2);
    expect([...result.keys()]).toEqual(['b', 'a']);
    expect(result.get('a')).toEqual([
      { ms: T0 + MIN, value: 1 },
      { ms: T0 + 2 * MIN, value: 2 },
    ]);
    expect(result.get('b')).toEqual([
      { ms: T0 + MIN, value: 11 },
      { ms: T0 + 2 * MIN, value: 12 },
    ]);
  });

  describe('aggregate over 15-minute windows aligned to the epoch', () => {
    // Series "a", readings at 10:00, 10:05, 10:10 (window 10:00) and 10:20, 10:25 (window 10:15),
    // 10:30 with no number and 10:40 (window 10:30):
    //   10:00 → 2, 4, 9       mean 5, min 2, max 9, sum 15, count 3, first 2, last 9
    //   10:15 → 1, -3         mean -1, min -3, max 1, sum -2, count 2, first 1, last -3
    //   10:30 → null, 7       mean 7, min 7, max 7, sum 7, count 1, first 7, last 7
    const series = [
      [0, 2],
      [5, 4],
      [10, 9],
      [20, 1],
      [25, -3],
      [30, null],
      [40, 7],
    ] as const;
    const expected: Record<Aggregate, number[]> = {
      mean: [5, -1, 7],
      min: [2, -3, 7],
      max: [9, 1, 7],
      sum: [15, -2, 7],
      count: [3, 2, 1],
      first: [2, 1, 7],
      last: [9, -3, 7],
    };
    const windows = [T0, T0 + 15 * MIN, T0 + 30 * MIN];

    beforeEach(async () => {
      await readings.write(
        's1',
        series.map(([minute, value]) => ({ timeseriesId: 'a', ms: T0 + minute * MIN, value })),
      );
    });

    it.each(Object.entries(expected))('%s', async (aggregate, values) => {
      const result = await readings.aggregate('s1', ['a'], {
        start: T0,
        end: T0 + 60 * MIN,
        windowMs: 15 * MIN,
        aggregate: aggregate as Aggregate,
        limit: 100,
      });
      expect(result.get('a')).toEqual(windows.map((ms, i) => ({ ms, value: values[i] })));
    });

    it('a start inside a window keeps the window at its aligned start, with only the readings from start on', async () => {
      const result = await readings.aggregate('s1', ['a'], {
        start: T0 + 5 * MIN,
        end: T0 + 26 * MIN,
        windowMs: 15 * MIN,
        aggregate: 'mean',
        limit: 100,
      });
      expect(result.get('a')).toEqual([
        { ms: T0, value: 6.5 },
        { ms: T0 + 15 * MIN, value: -1 },
      ]);
    });

    it('a window of only readings without a number has count 0 and null otherwise; the limit counts windows', async () => {
      await readings.write('s1', [{ timeseriesId: 'n', ms: T0, value: null }]);
      const count = await readings.aggregate('s1', ['n', 'a'], {
        start: T0,
        end: T0 + 60 * MIN,
        windowMs: 15 * MIN,
        aggregate: 'count',
        limit: 1,
      });
      expect(count.get('n')).toEqual([{ ms: T0, value: 0 }]);
      expect(count.get('a')).toEqual([{ ms: T0, value: 3 }]);
      const mean = await readings.aggregate('s1', ['n'], {
        start: T0,
        end: T0 + 60 * MIN,
        windowMs: 15 * MIN,
        aggregate: 'mean',
        limit: 10,
      });
      expect(mean.get('n')).toEqual([{ ms: T0, value: null }]);
    });

    it('one-day windows start at midnight UTC', async () => {
      const result = await readings.aggregate('s1', ['a'], {
        start: T0 - 86_400_000,
        end: T0 + 86_400_000,
        windowMs: 86_400_000,
        aggregate: 'sum',
        limit: 10,
      });
      expect(result.get('a')).toEqual([{ ms: Date.UTC(2026, 10, 21), value: 20 }]);
    });
  });

  it('lastReadingTime: the newest instant of the site, undefined without readings', async () => {
    expect(await readings.lastReadingTime('s1')).toBeUndefined();
    await readings.write('s1', [
      { timeseriesId: 'a', ms: T0, value: 1 },
      { timeseriesId: 'b', ms: T0 + MIN, value: null },
    ]);
    await readings.write('s2', [{ timeseriesId: 'a', ms: T0 + 5 * MIN, value: 1 }]);
    expect(await readings.lastReadingTime('s1')).toBe(T0 + MIN);
  });

  it('coverage: the series with readings and their first and last instant, of one site only', async () => {
    expect(await readings.coverage('s1')).toEqual({ series: 0, first: null, last: null });
    await readings.write('s1', [
      { timeseriesId: 'b', ms: T0 + MIN, value: 1 },
      { timeseriesId: 'a', ms: T0 - 3 * MIN, value: null },
      { timeseriesId: 'a', ms: T0, value: 2 },
      { timeseriesId: 'c', ms: T0 + 9 * MIN, value: 3 },
    ]);
    await readings.write('s2', [{ timeseriesId: 'z', ms: T0 - 60 * MIN, value: 1 }]);
    expect(await readings.coverage('s1')).toEqual({ series: 3, first: T0 - 3 * MIN, last: T0 + 9 * MIN });
    expect(await readings.coverage('s2')).toEqual({ series: 1, first: T0 - 60 * MIN, last: T0 - 60 * MIN });
  });

  it('deleting a site deletes its readings', async () => {
    await readings.write('s2', [{ timeseriesId: 'a', ms: T0, value: 1 }]);
    await new SiteStore(db).delete('s2');
    expect(await db.query("SELECT 1 FROM readings WHERE site = 's2'")).toEqual([]);
  });
});
