// Readings over MQTT against a real broker (Mosquitto; BKG_MQTT_URL, which .ci/run sets): both
// topics, the same checks as REST, bad messages counted and logged without stopping the
// subscriber, reconnection, and a share group splitting messages between replicas.
import { randomBytes } from 'node:crypto';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, engineUrl } from '../../support/needs.ts';
import { BUILDING_TTL, iso } from './readings-support.ts';

const mqttUrl = engineUrl('BKG_MQTT_URL');

describeNeeding(['BKG_MQTT_URL'], 'MQTT readings', () => {
  // A topic prefix and share group of this run's own, so parallel runs on one broker do not meet.
  const prefix = `bkg-test-${randomBytes(4).toString('hex')}`;
  let h: Harness;
  let publisher: MqttClient;

  const publish = (topic: string, payload: unknown) =>
    publisher.publishAsync(`${prefix}/${topic}`, typeof payload === 'string' ? payload : JSON.stringify(payload), {
      qos: 1,
    });
  const stats = () => h.services.live.mqtt!.stats;
  const stored = async (siteId: string, timeseriesId: string) =>
    (
      await h.services.database.query<{ ts: Date; value: number | null }>(
        'SELECT ts, value FROM readings WHERE site = $1 AND timeseries_id = $2 ORDER BY ts',
        [siteId, timeseriesId],
      )
    ).map((r) => ({
      ms: new Date(r.ts).getTime(),
      value: r.value,
    }));

  beforeAll(async () => {
    h = await createHarness({
      sites: { plant: BUILDING_TTL, demo: BUILDING_TTL },
      env: { BKG_MQTT_URL: mqttUrl!, BKG_MQTT_TOPIC_PREFIX: prefix, BKG_MQTT_SHARE_GROUP: prefix },
    });
    await h.services.live.mqtt!.ready();
    publisher = await connectAsync(mqttUrl!);
  });
  afterAll(async () => {
    await publisher?.endAsync();
    await h?.close();
  });

  it('stores a JSON array from <prefix>/<site>/readings; currentValue shows it', async () => {
    const t = Date.now() - 1000;
    await publish('plant/readings', [
      { timeseriesId: 'ts-sat', timestamp: iso(t), value: 12.75 },
      { timeseriesId: 'ts-fan', timestamp: t, value: true },
    ]);
    await expect.poll(() => stored('plant', 'ts-sat')).toEqual([{ ms: t, value: 12.75 }]);
    await expect.poll(() => stored('plant', 'ts-fan')).toEqual([{ ms: t, value: 1 }]);
    const res = await h.graphql('{ point(siteId: "plant", id: "SAT") { currentValue { value quality } } }');
    expect(res.data.point[0].currentValue).toEqual({ value: 12.75, quality: 'good' });
  });

  it('stores from the per-series topic <prefix>/<site>/ts/<id>: an object, an array, a bare value stamped on arrival', async () => {
    const t = Date.now() - 5000;
    await publish('plant/ts/ts-zat', { timestamp: iso(t), value: 21.5 });
    await publish('plant/ts/ts-zat', [{ timestamp: iso(t + 1000), value: 21.6 }]);
    const before = Date.now();
    await publish('plant/ts/ts-zat', '21.7');
    await expect.poll(async () => (await stored('plant', 'ts-zat')).length).toBe(3);
    const rows = await stored('plant', 'ts-zat');
    expect(rows.slice(0, 2)).toEqual([
      { ms: t, value: 21.5 },
      { ms: t + 1000, value: 21.6 },
    ]);
    expect(rows[2]!.value).toBe(21.7);
    expect(rows[2]!.ms).toBeGreaterThanOrEqual(before - 1000);
  });

  it('timeseries ids with a slash work on the per-series topic', async () => {
    await publish('plant/ts/building/ahu-1/sat', { timestamp: iso(Date.now()), value: 3 });
    await expect.poll(async () => (await stored('plant', 'building/ahu-1/sat')).length).toBe(1);
  });

  it('counts bad messages and bad readings, stores nothing from them, and keeps going', async () => {
    const before = { ...stats() };
    await publish('plant/readings', 'not json {');
    await publish('nowhere/readings', [{ timeseriesId: 'x', timestamp: iso(Date.now()), value: 1 }]);
    await publish('demo/readings', [{ timeseriesId: 'ts-sat', timestamp: iso(Date.now()), value: 1 }]);
    await publish('plant/readings', '42');
    await publish('plant/ts/ts-sat', { timeseriesId: 'ts-fan', timestamp: iso(Date.now()), value: 1 });
    await publish('plant/readings', [
      { timeseriesId: 'ts-rh', timestamp: 'noon', value: 40 },
      { timeseriesId: 'ts-rh', timestamp: iso(Date.now()), value: 41 },
    ]);
    await expect.poll(() => stats().messages - before.messages).toBe(6);
    await expect.poll(() => stats().badMessages - before.badMessages).toBe(4);
    expect(stats().rejectedReadings - before.rejectedReadings).toBe(2);
    expect((await stored('plant', 'ts-rh')).map((r) => r.value)).toEqual([41]);
    expect(await stored('demo', 'ts-sat')).toEqual([]);
  });

  it('reconnects and resubscribes after losing the broker connection', async () => {
    // A second client with the same client id makes the broker drop ours (MQTT session takeover).
    const usurper = await connectAsync(mqttUrl!, { clientId: h.services.live.mqtt!.clientId, reconnectPeriod: 0 });
    await usurper.endAsync();
    const t = Date.now();
    await expect
      .poll(
        async () => {
          await publish('plant/ts/ts-sat-sp', { timestamp: iso(t), value: 13 });
          return (await stored('plant', 'ts-sat-sp')).length;
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe(1);
  });

  it('replicas in one share group each get a part of the messages, every message once', async () => {
    const second = await createHarness({
      sites: { plant: BUILDING_TTL },
      env: { BKG_MQTT_URL: mqttUrl!, BKG_MQTT_TOPIC_PREFIX: prefix, BKG_MQTT_SHARE_GROUP: prefix },
    });
    try {
      await second.services.live.mqtt!.ready();
      const before = stats().messages;
      const start = Date.now() - 60_000;
      for (let i = 0; i < 20; i++) await publish('plant/ts/ts-shared', { timestamp: iso(start + i * 1000), value: i });
      const total = () => stats().messages - before + second.services.live.mqtt!.stats.messages;
      await expect.poll(total).toBe(20);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(total()).toBe(20);
    } finally {
      await second.close();
    }
  });
});
