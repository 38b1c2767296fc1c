// POST /api/v1/sites/{id}/timeseries (docs/readings.md, "History"): raw and aggregated history of a site's
// series, described from the graph; ids the graph does not know go to `errors`; bad bodies are
// 400s naming the field; instants in the site's timezone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { createKey, createSite, fetchAs, iso, post, postReadings } from './readings-support.ts';

let h: Harness;
const MIN = 60_000;
// A fixed hour well in the past, in winter (Berlin +01:00, Los Angeles -08:00).
const T0 = Date.UTC(2026, 0, 15, 9, 0, 0); // 2026-01-15T09:00:00Z

beforeAll(async () => {
  h = await createHarness({ sites: {} });
  await createSite(h, 'berlin', 'Europe/Berlin');
  await createSite(h, 'la', 'America/Los_Angeles');
  // ts-sat: a reading every 5 minutes from 09:00 to 09:55 with values 10, 11, …, 21 (minute / 5 + 10).
  await postReadings(
    h,
    'berlin',
    Array.from({ length: 12 }, (_, i) => ({ timeseriesId: 'ts-sat', timestamp: iso(T0 + i * 5 * MIN), value: 10 + i })),
  );
  // ts-fan: 09:00 → 1, 09:10 → null, 09:20 → 0.
  await postReadings(h, 'berlin', [
    { timeseriesId: 'ts-fan', timestamp: iso(T0), value: 1 },
    { timeseriesId: 'ts-fan', timestamp: iso(T0 + 10 * MIN), value: null },
    { timeseriesId: 'ts-fan', timestamp: iso(T0 + 20 * MIN), value: 0 },
  ]);
  await postReadings(h, 'la', [{ timeseriesId: 'ts-sat', timestamp: iso(T0), value: 5 }]);
  // ts-sat-sp: 09:00 → 13.3, 09:05 → 13.4, 09:10 → 0.1, 09:15 → 0.2 (sums whose doubles carry noise).
  await postReadings(
    h,
    'berlin',
    [13.3, 13.4, 0.1, 0.2].map((value, i) => ({ timeseriesId: 'ts-sat-sp', timestamp: iso(T0 + i * 5 * MIN), value })),
  );
});
afterAll(async () => {
  await h?.close();
});

const query = async (siteId: string, body: unknown, base = '/api/v1/sites') => {
  const res = await h.fetch(`${base}/${siteId}/timeseries`, post(body));
  return { status: res.status, body: await res.json() };
};

describe('raw readings', () => {
  it('answers the query, each series described from the graph, and its points in the site timezone', async () => {
    const { status, body } = await query('berlin', {
      timeseriesIds: ['ts-fan', 'ts-zat'],
      start: iso(T0),
      end: iso(T0 + 60 * MIN),
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      query: {
        start: '2026-01-15T10:00:00+01:00',
        end: '2026-01-15T11:00:00+01:00',
        window: null,
        aggregate: null,
        timezone: 'Europe/Berlin',
      },
      series: [
        {
          timeseriesId: 'ts-fan',
          name: 'AHU-1 Fan Status',
          type: 'Fan_Status',
          unit: null,
          equipment: 'AHU-1',
          pointId: 'FAN-STATUS',
          equipmentId: 'AHU-1',
          data: [
            { t: '2026-01-15T10:00:00+01:00', v: 1 },
            { t: '2026-01-15T10:10:00+01:00', v: null },
            { t: '2026-01-15T10:20:00+01:00', v: 0 },
          ],
        },
        {
          timeseriesId: 'ts-zat',
          name: 'VAV-1 Zone Temp',
          type: 'Zone_Air_Temperature_Sensor',
          unit: 'DEG_C',
          equipment: 'VAV-1',
          pointId: 'ZAT',
          equipmentId: 'VAV-1',
          data: [],
        },
      ],
      errors: {},
    });
  });

  it('start is inclusive, end exclusive; limit caps each series, oldest first', async () => {
    const { body } = await query('berlin', {
      timeseriesIds: ['ts-sat'],
      start: iso(T0 + 10 * MIN),
      end: iso(T0 + 30 * MIN),
    });
    expect(body.series[0].data.map((p: { v: number }) => p.v)).toEqual([12, 13, 14, 15]);
    const limited = await query('berlin', {
      timeseriesIds: ['ts-sat'],
      start: iso(T0),
      end: iso(T0 + 60 * MIN),
      limit: 3,
    });
    expect(limited.body.series[0].data.map((p: { v: number }) => p.v)).toEqual([10, 11, 12]);
  });

  it('a point of a zone has no equipment; the legacy brick:timeseries form is found too', async () => {
    const { body } = await query('berlin', {
      timeseriesIds: ['ts-rh', 'ts-sat-sp'],
      start: iso(T0),
      end: iso(T0 + MIN),
    });
    expect(body.series.map((s: Record<string, unknown>) => [s.timeseriesId, s.name, s.equipment, s.unit])).toEqual([
      ['ts-rh', 'Zone 1 Humidity', null, 'PERCENT_RH'],
      ['ts-sat-sp', 'AHU-1 Supply Air Temp Setpoint', 'AHU-1', 'DEG_C'],
    ]);
  });

  it('an id unknown to the graph goes to errors, even one with readings; the others still answer', async () => {
    await postReadings(h, 'berlin', [{ timeseriesId: 'orphan', timestamp: iso(T0), value: 1 }]);
    const { status, body } = await query('berlin', {
      timeseriesIds: ['orphan', 'ts-fan', 'nope'],
      start: iso(T0),
      end: iso(T0 + MIN),
    });
    expect(status).toBe(200);
    expect(body.series.map((s: { timeseriesId: string }) => s.timeseriesId)).toEqual(['ts-fan']);
    expect(Object.keys(body.errors).sort()).toEqual(['nope', 'orphan']);
    expect(body.errors.nope).toMatch(/graph/);
  });

  it('writes instants with the offset of the site: Los Angeles', async () => {
    const { body } = await query('la', {
      timeseriesIds: ['ts-sat'],
      start: '2026-01-15T00:00:00',
      end: '2026-01-16T00:00:00',
    });
    // Times without an offset are the site's wall-clock time: 00:00 in Los Angeles is 08:00Z.
    expect(body.query).toEqual({
      start: '2026-01-15T00:00:00-08:00',
      end: '2026-01-16T00:00:00-08:00',
      window: null,
      aggregate: null,
      timezone: 'America/Los_Angeles',
    });
    expect(body.series[0].data).toEqual([{ t: '2026-01-15T01:00:00-08:00', v: 5 }]);
  });

  it('a site whose time zone is changed answers in the new zone at once; the readings keep their instants', async () => {
    await createSite(h, 'moving', 'Europe/Berlin');
    await postReadings(h, 'moving', [{ timeseriesId: 'ts-sat', timestamp: iso(T0), value: 7 }]);
    const ask = async () =>
      (await query('moving', { timeseriesIds: ['ts-sat'], start: iso(T0 - 60 * MIN), end: iso(T0 + 60 * MIN) })).body;
    expect((await ask()).series[0].data).toEqual([{ t: '2026-01-15T10:00:00+01:00', v: 7 }]);
    const patched = await h.fetch('/api/v1/sites/moving/', {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timezone: 'Asia/Tokyo' }),
    });
    expect(patched.status).toBe(200);
    const after = await ask();
    expect(after.query.timezone).toBe('Asia/Tokyo');
    expect(after.series[0].data).toEqual([{ t: '2026-01-15T18:00:00+09:00', v: 7 }]);
  });

  it('defaults to the last hour until now(), and takes relative starts', async () => {
    const now = Date.now();
    await postReadings(h, 'berlin', [
      { timeseriesId: 'ts-zat', timestamp: iso(now - 30 * MIN), value: 21 },
      { timeseriesId: 'ts-zat', timestamp: iso(now - 90 * MIN), value: 20 },
    ]);
    const recent = await query('berlin', { timeseriesIds: ['ts-zat'] });
    expect(recent.body.series[0].data.map((p: { v: number }) => p.v)).toEqual([21]);
    expect(Date.parse(recent.body.query.end) - Date.parse(recent.body.query.start)).toBe(3_600_000);
    expect(Math.abs(Date.parse(recent.body.query.end) - now)).toBeLessThan(10_000);
    const day = await query('berlin', { timeseriesIds: ['ts-zat'], start: '-24h', end: 'now()' });
    expect(day.body.series[0].data.map((p: { v: number }) => p.v)).toEqual([20, 21]);
    const week = await query('berlin', { timeseriesIds: ['ts-zat'], start: '-7d', end: '-1h' });
    expect(week.body.series[0].data.map((p: { v: number }) => p.v)).toEqual([20]);
    const quarter = await query('berlin', { timeseriesIds: ['ts-zat'], start: '-15m' });
    expect(quarter.body.series[0].data).toEqual([]);
  });
});

describe('aggregated readings', () => {
  // ts-sat over 09:00–10:00 in 15-minute windows: 10,11,12 | 13,14,15 | 16,17,18 | 19,20,21.
  it.each([
    ['mean', [11, 14, 17, 20]],
    ['min', [10, 13, 16, 19]],
    ['max', [12, 15, 18, 21]],
    ['sum', [33, 42, 51, 60]],
    ['count', [3, 3, 3, 3]],
    ['first', [10, 13, 16, 19]],
    ['last', [12, 15, 18, 21]],
  ])('%s per 15m window', async (aggregate, values) => {
    const { body } = await query('berlin', {
      timeseriesIds: ['ts-sat'],
      start: iso(T0),
      end: iso(T0 + 60 * MIN),
      window: '15m',
      aggregate,
    });
    expect(body.query).toEqual({
      start: '2026-01-15T10:00:00+01:00',
      end: '2026-01-15T11:00:00+01:00',
      window: '15m',
      aggregate,
      timezone: 'Europe/Berlin',
    });
    expect(body.series[0].data).toEqual(
      ['10:00', '10:15', '10:30', '10:45'].map((time, i) => ({ t: `2026-01-15T${time}:00+01:00`, v: values[i] })),
    );
  });

  it('defaults to mean; windows align to the window size, not to start', async () => {
    // From 09:20 in 30-minute windows: [09:00, 09:30) holds 09:20 and 09:25 → mean(14, 15); [09:30, 10:00) → mean(16…21).
    const { body } = await query('berlin', {
      timeseriesIds: ['ts-sat'],
      start: iso(T0 + 20 * MIN),
      end: iso(T0 + 60 * MIN),
      window: '30m',
    });
    expect(body.query.aggregate).toBe('mean');
    expect(body.series[0].data).toEqual([
      { t: '2026-01-15T10:00:00+01:00', v: 14.5 },
      { t: '2026-01-15T10:30:00+01:00', v: 18.5 },
    ]);
  });

  it('ignores readings without a number: 1h count of ts-fan is 2, its mean 0.5', async () => {
    const count = await query('berlin', {
      timeseriesIds: ['ts-fan'],
      start: iso(T0),
      end: iso(T0 + 60 * MIN),
      window: '1h',
      aggregate: 'count',
    });
    expect(count.body.series[0].data).toEqual([{ t: '2026-01-15T10:00:00+01:00', v: 2 }]);
    const mean = await query('berlin', {
      timeseriesIds: ['ts-fan'],
      start: iso(T0),
      end: iso(T0 + 60 * MIN),
      window: '1h',
    });
    expect(mean.body.series[0].data).toEqual([{ t: '2026-01-15T10:00:00+01:00', v: 0.5 }]);
  });

  it('rounds a mean and a sum to 12 significant digits: 13.35, not 13.350000000000001', async () => {
    const window = (aggregate: string) =>
      query('berlin', {
        timeseriesIds: ['ts-sat-sp'],
        start: iso(T0),
        end: iso(T0 + 20 * MIN),
        window: '10m',
        aggregate,
      });
    expect((await window('mean')).body.series[0].data.map((p: { v: number }) => p.v)).toEqual([13.35, 0.15]);
    expect((await window('sum')).body.series[0].data.map((p: { v: number }) => p.v)).toEqual([26.7, 0.3]);
    // A reading itself is never rounded.
    expect((await window('max')).body.series[0].data.map((p: { v: number }) => p.v)).toEqual([13.4, 0.2]);
  });
});

describe('bad requests', () => {
  it.each([
    [{}, 'timeseriesIds'],
    [{ timeseriesIds: [] }, 'timeseriesIds'],
    [{ timeseriesIds: Array.from({ length: 201 }, (_, i) => `ts-${i}`) }, 'timeseriesIds'],
    [{ timeseriesIds: [''] }, 'timeseriesIds.0'],
    [{ timeseriesIds: ['ts-sat'], start: 'last tuesday' }, 'start'],
    [{ timeseriesIds: ['ts-sat'], start: '-1x' }, 'start'],
    [{ timeseriesIds: ['ts-sat'], end: 'soon' }, 'end'],
    [{ timeseriesIds: ['ts-sat'], start: '-1h', end: '-2h' }, 'end'],
    [{ timeseriesIds: ['ts-sat'], window: '30s' }, 'window'],
    [{ timeseriesIds: ['ts-sat'], window: '2d' }, 'window'],
    [{ timeseriesIds: ['ts-sat'], window: '15m', aggregate: 'median' }, 'aggregate'],
    [{ timeseriesIds: ['ts-sat'], aggregate: 'max' }, 'aggregate'],
    [{ timeseriesIds: ['ts-sat'], limit: 0 }, 'limit'],
    [{ timeseriesIds: ['ts-sat'], limit: 10_001 }, 'limit'],
    [{ timeseriesIds: ['ts-sat'], limit: 1.5 }, 'limit'],
    [{ timeseriesIds: ['ts-sat'], limits: 5 }, 'non_field_errors'],
  ])('%j → 400 naming %s', async (body, field) => {
    const res = await query('berlin', body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toContain(field);
  });

  it('is readable with read access, under /api/sites/ too; foreign sites are 404, anonymous 401', async () => {
    const reader = await createKey(h, { sites: ['berlin'] });
    const as = fetchAs(h, reader.key);
    expect((await as('/api/v1/sites/berlin/timeseries', post({ timeseriesIds: ['ts-sat'] }))).status).toBe(200);
    expect((await as('/api/v1/sites/la/timeseries', post({ timeseriesIds: ['ts-sat'] }))).status).toBe(404);
    expect(
      (await fetchAs(h, null)('/api/v1/sites/berlin/timeseries', post({ timeseriesIds: ['ts-sat'] }))).status,
    ).toBe(401);
    expect(
      (await query('berlin', { timeseriesIds: ['ts-sat'], start: iso(T0), end: iso(T0 + MIN) }, '/api/sites')).body
        .series[0].data,
    ).toEqual([{ t: '2026-01-15T10:00:00+01:00', v: 10 }]);
  });
});
