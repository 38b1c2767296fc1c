// Probes: /healthz says the process is up; /readyz says each configured engine answers (503 when
// one does not). Neither needs credentials, and a bad token does not turn them into 401s.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAs } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, requiredEngineUrl } from '../../support/needs.ts';

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

describe('kept-alive connections', () => {
  it('stay open 65 s, longer than the usual proxy (60 s) and client idle timeouts', async () => {
    const res = await fetchAs(h, null)('/healthz');
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it('carry the next request even when the service stalls for 6 s in between', async () => {
    // The client is another process, so that it goes on while this one (the service) is busy: it
    // asks twice on one connection, and between the two the service's event loop is held for 6 s.
    const client = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `
      const url = ${JSON.stringify(`${h.url}/healthz`)};
      await (await fetch(url)).text();
      console.log('first');
      await new Promise((resolve) => setTimeout(resolve, 50));
      try { console.log((await fetch(url)).status); } catch (error) { console.log(error.cause?.code ?? error.message); }
    `,
    ]);
    const lines: string[] = [];
    client.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      lines.push(...chunk.trim().split('\n'));
      if (chunk.includes('first')) {
        const until = Date.now() + 6_000;
        while (Date.now() < until);
      }
    });
    await once(client, 'close');
    expect(lines).toEqual(['first', '200']);
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
    expect(await res.json()).toMatchObject({
      status: 'unavailable',
      engines: { graph: 'unavailable', database: 'unavailable' },
    });
  });
});

describeNeeding(['REDIS_URL'], '/readyz with Redis', () => {
  let withRedis: Harness;
  beforeAll(async () => {
    withRedis = await createHarness({ sites: {}, env: { REDIS_URL: requiredEngineUrl('REDIS_URL') } });
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
    expect(await res.json()).toMatchObject({
      status: 'unavailable',
      engines: { redis: 'unavailable', graph: 'ok', database: 'ok' },
    });
  });
});
