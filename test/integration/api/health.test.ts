// Probes: /healthz says the process is up; /readyz says each configured engine answers (503 when
// one does not). Neither needs credentials, and a bad token does not turn them into 401s.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAs } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sites: { alpha: fixture('tenant-a') } });
});
afterAll(async () => {
  await h?.close();
});

const callers: Array<[string, string | null]> = [
  ['no credentials', null],
  ['a bad token', 'not-a-valid-token'],
  ['the admin key', 'test-admin-key-0123456789'],
];

describe('/healthz', () => {
  it.each(callers)('answers 200 {status: ok} with %s', async (_name, token) => {
    const res = await fetchAs(h, token)('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', engines: { graph: 'ok' } });
    expect(res.headers.get('www-authenticate')).toBeNull();
  });
});

describe('/readyz', () => {
  it.each(callers)('answers 200 with every engine ok, with %s', async (_name, token) => {
    const res = await fetchAs(h, token)('/readyz');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe('ready');
    expect(body.engines).toMatchObject({ graph: 'ok', database: 'ok' });
    expect(Object.values(body.engines).every((state) => state === 'ok')).toBe(true);
  });

  it('answers 503 naming the triplestore once it is closed, while /healthz still answers 200', async () => {
    await h.services.store.close();
    const res = await fetchAs(h, null)('/readyz');
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'unavailable', engines: { graph: 'unavailable', database: 'ok' } });
    expect((await fetchAs(h, null)('/healthz')).status).toBe(200);
  });

  it('names the record database too once it is closed', async () => {
    await h.services.database.close();
    const res = await fetchAs(h, null)('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', engines: { graph: 'unavailable', database: 'unavailable' } });
  });
});

describe.skipIf(!process.env.REDIS_URL)('/readyz with Redis (needs REDIS_URL; CI sets redis://127.0.0.1:6379)', () => {
  let withRedis: Harness;
  beforeAll(async () => {
    withRedis = await createHarness({ sites: {}, env: { REDIS_URL: process.env.REDIS_URL! } });
  });
  afterAll(async () => {
    await withRedis?.close();
  });

  it('reports Redis ok, then unavailable once its connection is closed', async () => {
    const ready = await fetchAs(withRedis, null)('/readyz');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ engines: { redis: 'ok' } });
    await withRedis.services.redis!.close();
    const res = await fetchAs(withRedis, null)('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', engines: { redis: 'unavailable', graph: 'ok', database: 'ok' } });
  });
});
