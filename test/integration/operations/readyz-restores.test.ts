// /readyz while a site's graph could not be read back at start: anyone learns that one site failed,
// only the admin key which (a site's id is its tenant's; REST and GraphQL answer 404 to the others).
// A restore still in progress is checked the same way in restart.test.ts.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiChecker } from '../../support/openapi-check.ts';
import { seedRecords } from '../../support/harness.ts';
import { spawnService, type ServiceProcess } from '../../support/spawn-service.ts';

const ADMIN_KEY = 'readyz-admin-key-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
const SITE = 'acme-secret-plant';

describe('/readyz with a site that failed to be restored', () => {
  let dir: string;
  let service: ServiceProcess;
  let url: string;
  let reader: string;
  const { check } = openApiChecker();
  const readiness = async (headers: Record<string, string>) => {
    const response = await fetch(`${url}/readyz`, { headers });
    expect(response.status).toBe(200);
    return (await check('GET', '/readyz', response)) as Record<string, unknown>;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-readyz-'));
    // A journal whose only segment is damaged on disk.
    const graphs = join(dir, 'data', 'graphs');
    await mkdir(graphs, { recursive: true });
    const graph = `urn:bkg:site:${SITE}`;
    await writeFile(join(graphs, 'damaged.seg'), '<urn:x:a> <urn:x:b> "never closed\n');
    await writeFile(
      join(graphs, `${encodeURIComponent(graph)}.graph.json`),
      JSON.stringify({ graph, segments: [{ file: 'damaged.seg', format: 'application/n-triples' }] }),
    );
    await seedRecords(join(dir, 'data'));
    service = spawnService({
      BKG_DATA_DIR: join(dir, 'data'),
      BKG_ADMIN_KEY: ADMIN_KEY,
      BKG_DEMO_FIXTURE: '',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    const { port } = await service.waitForLog('listening', 120_000);
    url = `http://127.0.0.1:${port as number}`;
    await service.waitForLog('graphs restored', 60_000);
    const created = await fetch(`${url}/api/v1/keys/`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'reader', sites: '*' }),
    });
    reader = ((await created.json()) as { key: string }).key;
  }, 180_000);

  afterAll(async () => {
    await service?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('tells anyone, a key of no admin and a bad token only how many sites failed', async () => {
    const callers: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${reader}` },
      { authorization: 'Bearer not-a-token' },
    ];
    for (const headers of callers) {
      const body = await readiness(headers);
      expect(body).toEqual({ status: 'ready', engines: expect.any(Object), failed: { sites: 1 } });
      expect(JSON.stringify(body)).not.toContain(SITE);
    }
  });

  it('names the site and its file to the admin key', async () => {
    expect(await readiness(admin)).toMatchObject({
      failed: { sites: 1 },
      sites: [{ site: SITE, state: 'failed', file: 'damaged.seg' }],
    });
  });
});
