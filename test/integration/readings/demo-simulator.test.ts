// The living demo: at start the simulator backfills 7 days at 15-minute resolution and writes the
// current minute for every demo point with a timeseries, so currentValue is good everywhere and
// the history is worth plotting; the demo reset leaves the readings alone; BKG_DEMO_SIMULATOR=0
// turns it off.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/logger.ts';
import { DemoSimulator } from '../../../src/simulator/demo-simulator.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { post } from './readings-support.ts';

const DEMO_FIXTURE = fileURLToPath(new URL('../../../fixtures/demo.ttl', import.meta.url));

describe('the demo simulator', () => {
  let h: Harness;
  /** When the service (and so its backfill) started: the backfill reaches 7 days before that moment, not before the test's. */
  let startedAt: number;
  beforeAll(async () => {
    startedAt = Date.now();
    h = await createHarness({
      sites: {},
      env: {
        BKG_DEMO_FIXTURE: DEMO_FIXTURE,
        BKG_DEMO_FILES: '',
        BKG_DEMO_RESET_SECONDS: '0',
        BKG_DEMO_SIMULATOR_SECONDS: '3600',
      },
    });
    await h.services.simulator!.whenStarted();
  });
  afterAll(async () => {
    await h?.close();
  });

  const demoPoints = async () => {
    const res = await h.graphql(
      '{ point(siteId: "demo") { id type timeseriesId currentValue { value quality timestamp } } }',
    );
    expect(res.errors).toBeUndefined();
    return res.data.point as Array<{
      id: string;
      type: string;
      timeseriesId: string | null;
      currentValue: { value: number; quality: string; timestamp: string } | null;
    }>;
  };

  it('gives every demo point with a timeseries a good currentValue, in Berlin time', async () => {
    const points = (await demoPoints()).filter((p) => p.timeseriesId);
    expect(points.length).toBeGreaterThan(100);
    for (const point of points) {
      expect(point.currentValue, point.id).toMatchObject({ quality: 'good' });
      expect(Number.isFinite(point.currentValue!.value)).toBe(true);
      expect(point.currentValue!.timestamp).toMatch(/\+0[12]:00$/);
    }
  });

  it('backfills 7 days at 15-minute resolution for every series', async () => {
    const [row] = await h.services.database.query<{ series: number; oldest: Date }>(
      "SELECT count(DISTINCT timeseries_id)::int AS series, min(ts) AS oldest FROM readings WHERE site = 'demo'",
    );
    const series = (await demoPoints()).filter((p) => p.timeseriesId).map((p) => p.timeseriesId);
    expect(row!.series).toBe(new Set(series).size);
    // The oldest reading is the first quarter hour of the 7 days before the backfill ran, which was
    // between the service's start and now (seconds apart on a busy machine).
    const oldest = new Date(row!.oldest).getTime();
    expect(oldest).toBeGreaterThanOrEqual(startedAt - 7 * 86_400_000);
    expect(oldest).toBeLessThan(Date.now() - 7 * 86_400_000 + 16 * 60_000);
    const [count] = await h.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM readings WHERE site = 'demo' AND timeseries_id = $1",
      [series[0]],
    );
    expect(count!.n).toBeGreaterThanOrEqual(7 * 96);
    expect(count!.n).toBeLessThanOrEqual(7 * 96 + 2);
  });

  it('draws plausible curves: zone temperatures near their setpoints with a daily cycle, CO2 following occupancy', async () => {
    const points = await demoPoints();
    const zoneTemp = points.find((p) => p.type === 'Zone_Air_Temperature_Sensor' && p.timeseriesId)!;
    const co2 = points.find((p) => p.type === 'CO2_Level_Sensor' && p.timeseriesId)!;
    const res = await h.fetch(
      '/api/v1/sites/demo/timeseries',
      post({ timeseriesIds: [zoneTemp.timeseriesId, co2.timeseriesId], start: '-7d', window: '1h', aggregate: 'mean' }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    const [temps, co2s] = body.series.map((s: { data: Array<{ v: number }> }) => s.data.map((d) => d.v)) as number[][];
    expect(temps!.length).toBeGreaterThanOrEqual(167);
    expect(Math.min(...temps!)).toBeGreaterThan(15);
    expect(Math.max(...temps!)).toBeLessThan(26);
    expect(Math.max(...temps!) - Math.min(...temps!)).toBeGreaterThan(2);
    expect(Math.min(...co2s!)).toBeGreaterThan(350);
    expect(Math.max(...co2s!)).toBeGreaterThan(700);
  });

  it('after a restart fills only the gap since the last reading', async () => {
    const series = 'demo:AHU-1-SAT';
    const count = async () =>
      (
        await h.services.database.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM readings WHERE site = 'demo' AND timeseries_id = $1",
          [series],
        )
      )[0]!.n;
    const before = await count();
    // A restart an hour later: 4 quarter hours of gap, then the reading of the current minute.
    const later = new DemoSimulator(
      h.services.query,
      h.services.live.store,
      h.services.live.ingest,
      createLogger({ logLevel: 'silent' }),
      {
        intervalSeconds: 0,
        backfillDays: 7,
        timeZone: 'Europe/Berlin',
      },
      () => Date.now() + 3_600_000,
    );
    await later.start();
    await later.stop();
    expect(await count()).toBeGreaterThanOrEqual(before + 4);
    expect(await count()).toBeLessThanOrEqual(before + 6);
  });

  it('keeps the readings through a demo reset', async () => {
    const [before] = await h.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM readings WHERE site = 'demo'",
    );
    await h.services.demo!.reset();
    const [after] = await h.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM readings WHERE site = 'demo'",
    );
    expect(after!.n).toBe(before!.n);
    expect((await demoPoints()).filter((p) => p.timeseriesId).every((p) => p.currentValue?.quality === 'good')).toBe(
      true,
    );
  });
});

describe('BKG_DEMO_SIMULATOR=0', () => {
  it('leaves the demo without readings', async () => {
    const h = await createHarness({
      sites: {},
      env: { BKG_DEMO_FIXTURE: DEMO_FIXTURE, BKG_DEMO_FILES: '', BKG_DEMO_RESET_SECONDS: '0', BKG_DEMO_SIMULATOR: '0' },
    });
    try {
      expect(h.services.simulator).toBeUndefined();
      expect(await h.services.database.query("SELECT 1 FROM readings WHERE site = 'demo' LIMIT 1")).toEqual([]);
    } finally {
      await h.close();
    }
  });
});
