// Subscription.pointValues over server-sent events: a watched point's new reading is pushed as it
// arrives, shaped like currentValue; the same tenancy as queries; with REDIS_URL, a reading
// ingested by one replica reaches a subscriber on another.
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, engineUrl } from '../../support/needs.ts';
import { BUILDING_TTL, createKey, createSite, iso, postReadings } from './readings-support.ts';
import { subscribe } from '../../support/sse-client.ts';

const SUBSCRIPTION = `subscription ($site: String!, $ids: [String!], $is: String) {
  pointValues(siteId: $site, pointIds: $ids, is: $is) { pointId pointUri timeseriesId value { value timestamp quality } }
}`;

describe('pointValues in one process', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ sites: { plain: BUILDING_TTL } });
    await createSite(h, 'berlin', 'Europe/Berlin');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('pushes the watched point’s reading as it arrives, in the site timezone, and nothing for other points', async () => {
    const sub = await subscribe(`${h.url}/graphql`, h.adminKey, SUBSCRIPTION, { site: 'berlin', ids: ['SAT'] });
    try {
      expect(sub.status).toBe(200);
      const t = Date.now() - 1000;
      await postReadings(h, 'berlin', [
        { timeseriesId: 'ts-fan', timestamp: iso(t), value: 1 },
        { timeseriesId: 'ts-sat', timestamp: iso(t), value: 13.5 },
      ]);
      const event = await sub.next();
      expect(event.data.pointValues).toMatchObject({
        pointId: 'SAT',
        pointUri: 'https://example.org/bldg#SAT',
        timeseriesId: 'ts-sat',
        value: { value: 13.5, quality: 'good' },
      });
      expect(Date.parse(event.data.pointValues.value.timestamp)).toBe(t);
      expect(event.data.pointValues.value.timestamp).toMatch(/\+0[12]:00$/);
      expect(await sub.drain(300)).toEqual([]);
    } finally {
      sub.close();
    }
  });

  it('watches a class of points with `is`, takes IRIs as pointIds, pushes a reading without a number as stale', async () => {
    const byClass = await subscribe(`${h.url}/graphql`, h.adminKey, SUBSCRIPTION, {
      site: 'berlin',
      is: 'Temperature_Sensor',
    });
    const byIri = await subscribe(`${h.url}/graphql`, h.adminKey, SUBSCRIPTION, {
      site: 'berlin',
      ids: ['https://example.org/bldg#ZAT'],
    });
    try {
      const t = Date.now();
      await postReadings(h, 'berlin', [
        { timeseriesId: 'ts-zat', timestamp: iso(t), value: null },
        { timeseriesId: 'ts-fan', timestamp: iso(t), value: 0 },
        { timeseriesId: 'ts-sat', timestamp: iso(t), value: 14 },
      ]);
      const received = [await byClass.next(), await byClass.next()].map((e) => e.data.pointValues);
      expect(received.map((u) => u.pointId).sort()).toEqual(['SAT', 'ZAT']);
      expect(received.find((u) => u.pointId === 'ZAT').value).toMatchObject({ value: null, quality: 'stale' });
      expect((await byIri.next()).data.pointValues.pointId).toBe('ZAT');
      expect(await byClass.drain(200)).toEqual([]);
    } finally {
      byClass.close();
      byIri.close();
    }
  });

  it('pushes only what is live: per series the newest reading of a batch, nothing for a backfill of history', async () => {
    const sub = await subscribe(`${h.url}/graphql`, h.adminKey, SUBSCRIPTION, { site: 'berlin', ids: ['SAT'] });
    try {
      const now = Date.now();
      await postReadings(
        h,
        'berlin',
        Array.from({ length: 10 }, (_, i) => ({
          timeseriesId: 'ts-sat',
          timestamp: iso(now - 86_400_000 + i * 60_000),
          value: i,
        })),
      );
      await postReadings(h, 'berlin', [
        { timeseriesId: 'ts-sat', timestamp: iso(now - 2000), value: 1 },
        { timeseriesId: 'ts-sat', timestamp: iso(now - 1000), value: 2 },
      ]);
      const event = await sub.next();
      expect(event.data.pointValues.value.value).toBe(2);
      expect(await sub.drain(200)).toEqual([]);
    } finally {
      sub.close();
    }
  });

  it('has the tenancy of queries: a foreign site is NOT_FOUND, so is an unknown point; an unknown class is UNKNOWN_CLASS', async () => {
    const key = await createKey(h, { sites: ['plain'] });
    const foreign = await subscribe(`${h.url}/graphql`, key.key, SUBSCRIPTION, { site: 'berlin' });
    expect((await foreign.next()).errors[0].extensions.code).toBe('NOT_FOUND');
    foreign.close();
    const anonymous = await subscribe(`${h.url}/graphql`, null, SUBSCRIPTION, { site: 'berlin' });
    expect((await anonymous.next()).errors[0].extensions.code).toBe('NOT_FOUND');
    anonymous.close();
    const unknownPoint = await subscribe(`${h.url}/graphql`, h.adminKey, SUBSCRIPTION, {
      site: 'berlin',
      ids: ['SAT', 'NOPE'],
    });
    const error = (await unknownPoint.next()).errors[0];
    expect(error.extensions.code).toBe('NOT_FOUND');
    expect(error.message).toContain('NOPE');
    unknownPoint.close();
    const unknownClass = await subscribe(`${h.url}/graphql`, h.adminKey, SUBSCRIPTION, {
      site: 'berlin',
      is: 'Flux_Capacitor',
    });
    expect((await unknownClass.next()).errors[0].extensions.code).toBe('UNKNOWN_CLASS');
    unknownClass.close();
  });

  it('a key with access to the site subscribes', async () => {
    const key = await createKey(h, { sites: ['plain'] });
    const sub = await subscribe(`${h.url}/graphql`, key.key, SUBSCRIPTION, { site: 'plain', ids: ['FAN-STATUS'] });
    try {
      await postReadings(h, 'plain', [{ timeseriesId: 'ts-fan', timestamp: iso(Date.now()), value: 1 }]);
      expect((await sub.next()).data.pointValues).toMatchObject({
        pointId: 'FAN-STATUS',
        value: { value: 1, quality: 'good', timestamp: expect.stringMatching(/\+00:00$/) },
      });
    } finally {
      sub.close();
    }
  });
});

const redisUrl = engineUrl('REDIS_URL');

describeNeeding(['REDIS_URL'], 'pointValues across replicas through Redis', () => {
  let a: Harness;
  let b: Harness;
  const prefix = `bkg-test-${randomBytes(4).toString('hex')}:`;
  const channel = `${prefix}shared`;
  beforeAll(async () => {
    // Two replicas: separate processes' state, the same Redis, a channel prefix of their own.
    const env = { REDIS_URL: redisUrl!, BKG_REDIS_CHANNEL_PREFIX: prefix };
    a = await createHarness({ sites: { shared: BUILDING_TTL }, env });
    b = await createHarness({ sites: { shared: BUILDING_TTL }, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('a reading posted to one replica reaches a subscriber on the other', async () => {
    const sub = await subscribe(`${b.url}/graphql`, b.adminKey, SUBSCRIPTION, { site: 'shared', ids: ['SAT'] });
    try {
      const t = Date.now();
      await postReadings(a, 'shared', [{ timeseriesId: 'ts-sat', timestamp: iso(t), value: 15.5 }]);
      const event = await sub.next();
      expect(event.data.pointValues).toMatchObject({
        pointId: 'SAT',
        timeseriesId: 'ts-sat',
        value: { value: 15.5, quality: 'good' },
      });
      expect(Date.parse(event.data.pointValues.value.timestamp)).toBe(t);
    } finally {
      sub.close();
    }
  });

  it('listens on the site channel while a subscriber is there, and stops when it leaves', async () => {
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    const subscribers = async () => Number((await redis.pubSubNumSub(channel))[channel] ?? 0);
    try {
      const sub = await subscribe(`${b.url}/graphql`, b.adminKey, SUBSCRIPTION, { site: 'shared', ids: ['SAT'] });
      expect(await subscribers()).toBe(1);
      sub.close();
      await expect.poll(subscribers, { timeout: 5000 }).toBe(0);
    } finally {
      await redis.close();
    }
  });
});
