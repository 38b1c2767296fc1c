// Behind a load balancer a poll of a load's progress reaches any replica: with Redis, each load's
// status is kept there, so the replica that did not take the upload tells it too, during and after.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, requiredEngineUrl } from '../../support/needs.ts';
import { startRedisServer, type RedisServer } from '../../support/redis-server.ts';

const lines = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `<urn:replicas:${from + i}> <urn:replicas:p> "${from + i}" .\n`).join('');

describeNeeding(['REDIS_URL'], 'a graph load’s progress across replicas through Redis', () => {
  let a: Harness;
  let b: Harness;
  // A site of its own: other suites may share the Redis.
  const site = `replicas-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    // Two replicas: separate processes' state, the same Redis.
    const env = { REDIS_URL: requiredEngineUrl('REDIS_URL') };
    a = await createHarness({ sites: { [site]: '' }, env });
    b = await createHarness({ sites: { [site]: '' }, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const progressOn = async (h: Harness) => {
    const response = await h.fetch(`/api/v1/sites/${site}/graph/load`);
    return response.status === 200 ? await response.json() : { status: response.status };
  };

  it('a load sent to one replica is told by the other while its body arrives, and once it is done', async () => {
    const first = lines(0, 100);
    const rest = lines(100, 900);
    // The body is sent in two parts, the second only once the other replica has seen the first.
    const upload = request(`${a.url}/api/v1/sites/${site}/graph`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.adminKey}`, 'content-type': 'application/n-triples' },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      upload.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      upload.on('error', reject);
    });
    // Awaited below; a failure before then (the test's) must not be left unhandled.
    answered.catch(() => undefined);
    upload.write(first);
    await expect
      .poll(() => progressOn(b), { timeout: 5_000, interval: 50 })
      .toMatchObject({ site, state: 'receiving', replace: true, bytesReceived: first.length });
    upload.end(rest);
    const { status, body } = await answered;
    expect([status, JSON.parse(body).triples]).toEqual([200, 1000]);
    // Told by the time the load answers: no waiting for the next write.
    expect(await progressOn(b)).toMatchObject({
      site,
      state: 'done',
      replace: true,
      triples: 1000,
      bytesReceived: first.length + rest.length,
      message: null,
    });
    expect(await progressOn(a)).toMatchObject({ state: 'done', triples: 1000 });
  });
});

describeNeeding(['redis-server'], 'a graph load while Redis is gone', () => {
  let redis: RedisServer;
  let h: Harness;
  beforeAll(async () => {
    // A Redis of the test's own, to kill.
    redis = await startRedisServer();
    h = await createHarness({ sites: { alone: '' }, env: { REDIS_URL: redis.url } });
  });
  afterAll(async () => {
    await h?.close();
    await redis?.stop();
  });

  it('loads as ever, and the replica that took it tells its progress', async () => {
    await redis.stop();
    const body = lines(0, 50);
    const response = await h.fetch('/api/v1/sites/alone/graph', {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples' },
      body,
    });
    expect([response.status, (await response.json()).triples]).toEqual([200, 50]);
    const progress = await h.fetch('/api/v1/sites/alone/graph/load');
    expect([progress.status, await progress.json()]).toEqual([
      200,
      expect.objectContaining({ state: 'done', triples: 50, bytesReceived: body.length }),
    ]);
  });
});
