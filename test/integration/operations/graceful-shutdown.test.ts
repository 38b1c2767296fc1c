// SIGTERM during a slow upload: the service stops accepting connections, lets the upload finish,
// ends live subscriptions at once, closes its engines, exits 0, and what the upload stored is
// there after a restart. Once on the embedded engines, once with Redis and MQTT connections too.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeVariants, requiredEngineUrl, type Variant } from '../../support/needs.ts';
import { seedRecords } from '../../support/harness.ts';
import { spawnService, type ServiceProcess } from '../../support/spawn-service.ts';

const ADMIN_KEY = 'shutdown-admin-key-0123456789';
const CHUNKS = 8;
const CHUNK_MS = 250;

/** Turtle in chunks: a header, then one batch of equipment per chunk. */
const chunk = (i: number) =>
  (i === 0
    ? '@prefix brick: <https://brickschema.org/schema/Brick#> .\n@prefix : <https://example.org/slow#> .\n'
    : '') + Array.from({ length: 50 }, (_, j) => `:VAV-${i}-${j} a brick:VAV .\n`).join('');

/** The engines the service runs with, as the environment that selects them. */
interface Engines extends Variant {
  env(): Record<string, string>;
}

const engines: Engines[] = [
  { name: 'the embedded engines', env: () => ({}) },
  // Their connections are closed too, and must not hold the exit up.
  {
    name: 'Redis and MQTT',
    needs: ['REDIS_URL', 'BKG_MQTT_URL'],
    env: () => ({
      REDIS_URL: requiredEngineUrl('REDIS_URL'),
      BKG_MQTT_URL: requiredEngineUrl('BKG_MQTT_URL'),
      BKG_MQTT_TOPIC_PREFIX: `bkg-stop-${randomBytes(4).toString('hex')}`,
    }),
  },
];

describeVariants('graceful shutdown (SIGTERM) with $name', engines, (variant) => {
  let dir: string;
  let env: Record<string, string>;
  const running: ServiceProcess[] = [];
  const start = async () => {
    const service = spawnService({
      BKG_DATA_DIR: join(dir, 'data'),
      BKG_DEMO_FIXTURE: '',
      BKG_ADMIN_KEY: ADMIN_KEY,
      HOST: '127.0.0.1',
      PORT: '0',
      BKG_SHUTDOWN_GRACE_SECONDS: '20',
      ...env,
    });
    running.push(service);
    const { port } = await service.waitForLog('listening');
    return { service, url: `http://127.0.0.1:${port as number}` };
  };
  const admin = { authorization: `Bearer ${ADMIN_KEY}` };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-shutdown-'));
    env = variant.env();
    await seedRecords(join(dir, 'data'));
  });
  afterAll(async () => {
    for (const service of running) await service.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('finishes the upload in flight, refuses new connections, exits 0; the graph is there after a restart', async () => {
    const { service, url } = await start();
    const created = await fetch(`${url}/api/v1/sites/`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'slow', name: 'Slow' }),
    });
    expect(created.status).toBe(201);
    const live = await fetch(`${url}/api/v1/sites/`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'live', name: 'Live' }),
    });
    expect(live.status).toBe(201);
    const point =
      '@prefix brick: <https://brickschema.org/schema/Brick#> .\n@prefix ref: <https://brickschema.org/schema/Brick/ref#> .\n' +
      '<urn:p> a brick:Temperature_Sensor ; ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "t1" ] .\n';
    expect(
      (
        await fetch(`${url}/api/v1/sites/live/graph`, {
          method: 'PUT',
          headers: { ...admin, 'content-type': 'text/turtle' },
          body: point,
        })
      ).status,
    ).toBe(200);

    // A live subscription (server-sent events): it never ends by itself.
    const subscription = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { pointValues(siteId: "live") { pointId } }' }),
    });
    expect(subscription.headers.get('content-type')).toContain('text/event-stream');
    const subscriptionEnded = subscription.text().then(() => Date.now());

    // A PUT whose body trickles in over ~2 s.
    const upload = request(`${url}/api/v1/sites/slow/graph`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'text/turtle' },
    });
    const answer = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      upload.once('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
      });
      upload.once('error', reject);
    });
    upload.write(chunk(0));
    await new Promise((resolve) => setTimeout(resolve, CHUNK_MS));

    const signalled = Date.now();
    service.child.kill('SIGTERM');
    await service.waitForLog('shutting down: refusing new connections, finishing requests in flight', 10_000);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    // The subscription ends at once, while the upload still runs.
    expect((await subscriptionEnded) - signalled).toBeLessThan(5_000);

    for (let i = 1; i < CHUNKS; i++) {
      upload.write(chunk(i));
      await new Promise((resolve) => setTimeout(resolve, CHUNK_MS));
    }
    upload.end();
    const { status, body, connection } = await answer;
    expect(status, body).toBe(200);
    expect(JSON.parse(body)).toMatchObject({ site: 'slow', triples: CHUNKS * 50 });
    expect(connection).toBe('close');

    expect(await service.exited).toBe(0);
    expect(service.logs.map((line) => line.msg)).toContain('stopped');
    expect(service.stderr).toEqual([]);

    // A new process on the same data directory has the site and its graph.
    const again = await start();
    // Graphs come back in the background after a restart ("Restarts and restores" in docs/operations.md).
    await again.service.waitForLog('graphs restored');
    const graph = await fetch(`${again.url}/api/v1/sites/slow/graph`, {
      headers: { ...admin, accept: 'application/n-triples' },
    });
    expect(graph.status).toBe(200);
    expect((await graph.text()).trim().split('\n')).toHaveLength(CHUNKS * 50);
    again.service.child.kill('SIGTERM');
    expect(await again.service.exited).toBe(0);
  });
});
