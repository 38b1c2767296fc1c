// Readings in (POST /sites/{id}/readings) and Point.currentValue out (docs/readings.md, "The current value"):
// item-by-item validation, idempotent writes, access rules, the quality rules at their
// boundaries, the site's timezone, and one batched lookup per plan, none when unselected.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { BUILDING_TTL, createKey, createSite, fetchAs, iso, post, postReadings } from './readings-support.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sites: { demo: BUILDING_TTL, other: BUILDING_TTL } });
  await createSite(h, 'berlin', 'Europe/Berlin');
  await createSite(h, 'la', 'America/Los_Angeles');
});
afterAll(async () => {
  await h?.close();
});

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const currentValue = async (siteId: string, pointId: string) => {
  const res = await h.graphql(
    `query ($s: String!, $id: String!) { point(siteId: $s, id: $id) { currentValue { value timestamp quality } } }`,
    { s: siteId, id: pointId },
  );
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data.point[0].currentValue as { value: number | null; timestamp: string; quality: string } | null;
};

describe('POST /api/v1/sites/{id}/readings', () => {
  it('stores a JSON array and says how many', async () => {
    const now = Date.now();
    const report = await postReadings(h, 'berlin', [
      { timeseriesId: 'ts-sat', timestamp: iso(now - 2 * MINUTE), value: 13.5 },
      { timeseriesId: 'ts-sat', timestamp: iso(now - MINUTE), value: 13.7 },
    ]);
    expect(report).toEqual({ received: 2, stored: 2, rejected: [] });
  });

  it('rejects bad items one by one, with their index and the field at fault, and stores the rest', async () => {
    const now = Date.now();
    const report = await postReadings(h, 'berlin', [
      { timeseriesId: 'ts-fan', timestamp: iso(now), value: 1 },
      { timeseriesId: '', timestamp: iso(now), value: 1 },
      { timeseriesId: 'ts-fan', timestamp: '2026-11-21T23:05:00', value: 1 },
      { timeseriesId: 'ts-fan', timestamp: 'yesterday', value: 1 },
      { timeseriesId: 'ts-fan', timestamp: iso(now), value: 'warm' },
      { timeseriesId: 'ts-fan', timestamp: iso(now) },
      'not an object',
      { timeseriesId: 'ts-fan', timestamp: now - SECOND, value: true },
    ]);
    expect(report.received).toBe(8);
    expect(report.stored).toBe(2);
    expect(report.rejected.map((r) => [r.index, Object.keys(r.errors)])).toEqual([
      [1, ['timeseriesId']],
      [2, ['timestamp']],
      [3, ['timestamp']],
      [4, ['value']],
      [5, ['value']],
      [6, ['non_field_errors']],
    ]);
    expect(report.rejected[1]!.errors.timestamp![0]).toMatch(/offset/);
  });

  it('accepts NDJSON, reporting a line that is not JSON at its index', async () => {
    const now = Date.now();
    const body = [
      JSON.stringify({ timeseriesId: 'ts-zat', timestamp: iso(now - 3 * MINUTE), value: 21.1 }),
      '',
      '{"timeseriesId": "ts-zat", oops',
      JSON.stringify({ timeseriesId: 'ts-zat', timestamp: iso(now - 2 * MINUTE), value: 21.2 }),
    ].join('\n');
    const res = await h.fetch('/api/v1/sites/berlin/readings', post(body, 'application/x-ndjson'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      received: 3,
      stored: 2,
      rejected: [{ index: 1, errors: { non_field_errors: ['Not valid JSON.'] } }],
    });
  });

  it('is idempotent: the same reading twice is stored once, a new value for the same instant replaces it', async () => {
    const t = iso(Date.now() - 30 * SECOND);
    await postReadings(h, 'other', [{ timeseriesId: 'ts-rh', timestamp: t, value: 40 }]);
    await postReadings(h, 'other', [
      { timeseriesId: 'ts-rh', timestamp: t, value: 40 },
      { timeseriesId: 'ts-rh', timestamp: t, value: 41 },
    ]);
    const rows = await h.services.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM readings WHERE site = 'other' AND timeseries_id = 'ts-rh'",
    );
    expect(rows[0]!.n).toBe(1);
    expect((await currentValue('other', 'ZONE-RH'))?.value).toBe(41);
  });

  it('takes up to 10,000 readings in one request and refuses more with 400', async () => {
    const start = Date.now() - 3 * 86_400_000;
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      timeseriesId: 'ts-bulk',
      timestamp: start + i * 1000,
      value: i,
    }));
    expect((await postReadings(h, 'other', many)).stored).toBe(10_000);
    const res = await h.fetch('/api/v1/sites/other/readings', post([...many, many[0]]));
    expect(res.status).toBe(400);
    expect((await res.json()).non_field_errors[0]).toMatch(/10000/);
  });

  it('refuses a body that is not an array of readings (400) or not JSON (400), and other media types (415)', async () => {
    expect((await h.fetch('/api/v1/sites/other/readings', post('"text"'))).status).toBe(400);
    expect((await h.fetch('/api/v1/sites/other/readings', post('[{'))).status).toBe(400);
    expect((await h.fetch('/api/v1/sites/other/readings', post('a,b', 'text/csv'))).status).toBe(415);
  });

  it('needs write access: 403 on the demo site and for a read-only key, 404 for a foreign or unknown site, 401 anonymous', async () => {
    const reading = [{ timeseriesId: 'ts-sat', timestamp: iso(Date.now()), value: 1 }];
    expect((await h.fetch('/api/v1/sites/demo/readings', post(reading))).status).toBe(403);
    const reader = await createKey(h, { sites: ['other'], write: false });
    expect((await fetchAs(h, reader.key)('/api/v1/sites/other/readings', post(reading))).status).toBe(403);
    const foreign = await createKey(h, { sites: ['other'], write: true });
    expect((await fetchAs(h, foreign.key)('/api/v1/sites/berlin/readings', post(reading))).status).toBe(404);
    expect((await fetchAs(h, foreign.key)('/api/v1/sites/other/readings', post(reading))).status).toBe(200);
    expect((await h.fetch('/api/v1/sites/nowhere/readings', post(reading))).status).toBe(404);
    expect((await fetchAs(h, null)('/api/v1/sites/other/readings', post(reading))).status).toBe(401);
  });

  it('answers under /api/sites/ too', async () => {
    const res = await h.fetch(
      '/api/sites/other/readings',
      post([{ timeseriesId: 'ts-fan', timestamp: iso(Date.now()), value: 0 }]),
    );
    expect(res.status).toBe(200);
  });
});

describe('Point.currentValue', () => {
  it('is the latest reading of the last 5 minutes, in the site timezone with its offset', async () => {
    await createSite(h, 'cv-berlin', 'Europe/Berlin');
    const now = Date.now();
    await postReadings(h, 'cv-berlin', [
      { timeseriesId: 'ts-sat', timestamp: iso(now - 3 * MINUTE), value: 12.5 },
      { timeseriesId: 'ts-sat', timestamp: iso(now - 2 * MINUTE), value: 13.25 },
    ]);
    const value = await currentValue('cv-berlin', 'SAT');
    expect(value).toMatchObject({ value: 13.25, quality: 'good' });
    expect(Date.parse(value!.timestamp)).toBe(now - 2 * MINUTE);
    expect(value!.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+0[12]:00$/);
  });

  it('4:59 old is current (good); 5:01 old is not (null)', async () => {
    await createSite(h, 'cv-age', 'UTC');
    const now = Date.now();
    await postReadings(h, 'cv-age', [
      { timeseriesId: 'ts-sat', timestamp: iso(now - (4 * MINUTE + 59 * SECOND)), value: 1 },
      { timeseriesId: 'ts-fan', timestamp: iso(now - (5 * MINUTE + 1 * SECOND)), value: 1 },
    ]);
    expect(await currentValue('cv-age', 'SAT')).toMatchObject({ value: 1, quality: 'good' });
    expect(await currentValue('cv-age', 'FAN-STATUS')).toBeNull();
  });

  it('a recent reading without a number is stale, with value null', async () => {
    await createSite(h, 'cv-null', 'UTC');
    const t = Date.now() - MINUTE;
    await postReadings(h, 'cv-null', [{ timeseriesId: 'ts-zat', timestamp: iso(t), value: null }]);
    expect(await currentValue('cv-null', 'ZAT')).toEqual({
      value: null,
      timestamp: iso(t).replace(/Z$/, '+00:00').replace('.000+', '+'),
      quality: 'stale',
    });
  });

  it('a reading stamped in the future is not current yet; the latest reading up to now is', async () => {
    await createSite(h, 'cv-future', 'UTC');
    const now = Date.now();
    await postReadings(h, 'cv-future', [
      { timeseriesId: 'ts-sat', timestamp: iso(now - MINUTE), value: 10 },
      { timeseriesId: 'ts-sat', timestamp: iso(now + 2 * MINUTE), value: 99 },
      { timeseriesId: 'ts-fan', timestamp: iso(now + 2 * MINUTE), value: 1 },
    ]);
    expect(await currentValue('cv-future', 'SAT')).toMatchObject({ value: 10, quality: 'good' });
    expect(await currentValue('cv-future', 'FAN-STATUS')).toBeNull();
  });

  it('is null for a point without a timeseriesId and for a series with no reading', async () => {
    expect(await currentValue('berlin', 'NO-TS')).toBeNull();
    expect(await currentValue('la', 'SAT-SP')).toBeNull();
  });

  it('writes the same instant with each site’s offset: Europe/Berlin and America/Los_Angeles', async () => {
    const t = Math.floor((Date.now() - MINUTE) / 1000) * 1000;
    await postReadings(h, 'berlin', [{ timeseriesId: 'ts-sat-sp', timestamp: iso(t), value: 18 }]);
    await postReadings(h, 'la', [{ timeseriesId: 'ts-sat-sp', timestamp: iso(t), value: 18 }]);
    const berlin = (await currentValue('berlin', 'SAT-SP'))!.timestamp;
    const la = (await currentValue('la', 'SAT-SP'))!.timestamp;
    expect(Date.parse(berlin)).toBe(t);
    expect(Date.parse(la)).toBe(t);
    const berlinOffset = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' })
      .formatToParts(t)
      .find((p) => p.type === 'timeZoneName')!
      .value.replace('GMT', '');
    const laOffset = new Intl.DateTimeFormat('en', { timeZone: 'America/Los_Angeles', timeZoneName: 'longOffset' })
      .formatToParts(t)
      .find((p) => p.type === 'timeZoneName')!
      .value.replace('GMT', '');
    expect(berlin.endsWith(berlinOffset)).toBe(true);
    expect(la.endsWith(laOffset)).toBe(true);
    expect(['+01:00', '+02:00']).toContain(berlinOffset);
    expect(['-08:00', '-07:00']).toContain(laOffset);
  });

  it('is looked up once per request for all selected points (nested, several root fields, several sites), and not at all when unselected', async () => {
    const spy = vi.spyOn(h.services.readings, 'currentValues');
    const asked = (call: number) =>
      Object.fromEntries([...spy.mock.calls[call]![0]].map(([site, ids]) => [site, [...ids].sort()]));
    try {
      const res = await h.graphql(`{
        equipment(siteId: "berlin") { name points { name currentValue { value } } }
      }`);
      expect(res.errors).toBeUndefined();
      expect(spy).toHaveBeenCalledTimes(1);
      expect(asked(0)).toEqual({ berlin: ['ts-fan', 'ts-sat', 'ts-sat-sp', 'ts-zat'] });

      spy.mockClear();
      const two = await h.graphql(`{
        a: point(siteId: "berlin") { name currentValue { value } equipment { points { currentValue { quality } } } }
        b: point(siteId: "berlin") { name timeseriesId }
        c: point(siteId: "la", is: "Fan_Status") { name currentValue { value } }
        d: equipment(siteId: "la") { name points { currentValue { timestamp } } }
      }`);
      expect(two.errors).toBeUndefined();
      expect(spy).toHaveBeenCalledTimes(1);
      expect(asked(0)).toEqual({
        berlin: ['ts-fan', 'ts-rh', 'ts-sat', 'ts-sat-sp', 'ts-zat'],
        la: ['ts-fan', 'ts-sat', 'ts-sat-sp', 'ts-zat'],
      });

      spy.mockClear();
      const none = await h.graphql(`{ point(siteId: "berlin") { name timeseriesId } }`);
      expect(none.errors).toBeUndefined();
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
