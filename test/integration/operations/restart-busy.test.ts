// A restart over a site whose journal holds its upload as received, on a busy machine: a document
// kept as uploaded is read back in one load, which holds a store thread throughout. The service
// still listens while it is read, answers the demo site, says SITE_LOADING with Retry-After for the
// big site, then answers it in full. Once for N-Triples put, once for Turtle merged, each stopped
// (SIGTERM) while it loaded. The journal leaves Turtle under 16 MiB as uploaded; the N-Triples
// holds a triple term, which its rewrite cannot carry: as a stop before the rewrite leaves it.
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import N3 from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/config/config.ts';
import { seedRecords } from '../../support/harness.ts';
import { spawnService, type ServiceProcess } from '../../support/spawn-service.ts';

const ADMIN_KEY = 'restart-busy-admin-key-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
// Enough that reading it back in one load takes seconds (longer than the start-up), and under the
// size from which a Turtle upload is rewritten as it loads (16 MiB): it stays as uploaded.
const TRIPLES = '400k';
const BIG = 'urn:bkg:site:big';

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: { data?: Record<string, number> | null; errors?: Array<{ extensions?: { code?: string } }> };
}

async function counts(url: string, site: string): Promise<Answer> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'query($site: String!) { equipmentCount(siteId: $site) pointCount(siteId: $site) }',
      variables: { site },
    }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Answer['body'],
  };
}

/** A process spinning on one core for `ms`: the machine is busy while the service starts. */
function spin(ms: number) {
  return spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end);`], {
    stdio: 'ignore',
  });
}

const uploads = [
  { name: 'N-Triples put, stopped while it loaded', file: 'big.nt', method: 'PUT', type: 'application/n-triples' },
  { name: 'Turtle merged, stopped while it loaded', file: 'big.ttl', method: 'POST', type: 'text/turtle' },
] as const;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bkg-restart-busy-'));
  const turtle = join(dir, 'big.ttl');
  execFileSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/generate-portfolio.ts', '--triples', TRIPLES, '--out', turtle],
    { cwd: projectRoot, stdio: 'ignore' },
  );
  const parser = new N3.StreamParser({ format: 'text/turtle' });
  await pipeline(
    createReadStream(turtle),
    parser,
    new N3.StreamWriter({ format: 'N-Triples' }),
    createWriteStream(join(dir, 'big.nt')),
  );
  await appendFile(join(dir, 'big.nt'), '<urn:x:statement> <urn:x:says> <<( <urn:x:a> <urn:x:b> <urn:x:c> )>> .\n');
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.each(uploads)('a restart on a busy machine over a big site: $name', (upload) => {
  const running: ServiceProcess[] = [];
  const data = () => join(dir, `data-${upload.file}`);
  const start = async () => {
    const started = performance.now();
    const service = spawnService({
      BKG_DATA_DIR: data(),
      BKG_ADMIN_KEY: ADMIN_KEY,
      HOST: '127.0.0.1',
      PORT: '0',
      BKG_DEMO_RESET_SECONDS: '0',
      // The demo's readings are not what these check: its simulator's 7-day backfill would compete with the loads.
      BKG_DEMO_SIMULATOR: '0',
      BKG_SHUTDOWN_GRACE_SECONDS: '120',
    });
    running.push(service);
    const { port } = await service.waitForLog('listening', 120_000);
    return { service, url: `http://127.0.0.1:${port as number}`, listeningMs: performance.now() - started };
  };
  let before: Answer;
  let demo: Answer;
  let readingsBefore: Record<string, number>;
  /** The readings of the big site kept beside the journal (src/store/kept-readings.ts), with their times. */
  const keptReadings = async () => {
    const folder = join(data(), 'graphs', 'readings', encodeURIComponent(BIG));
    const files = await readdir(folder).catch(() => [] as string[]);
    return Object.fromEntries(
      await Promise.all(files.map(async (file) => [file, (await stat(join(folder, file))).mtimeMs] as const)),
    );
  };

  beforeAll(async () => {
    await seedRecords(data());
    const { service, url } = await start();
    const created = await fetch(`${url}/api/v1/sites`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'big', name: 'Big' }),
    });
    expect(created.status).toBe(201);
    const body = await readFile(join(dir, upload.file));
    const load = async () =>
      // With its reading, so the answer waits for the site's profile, which is then kept.
      (
        await fetch(`${url}/api/v1/sites/big/graph?reading=1`, {
          method: upload.method,
          headers: { ...admin, 'content-type': upload.type },
          body,
        })
      ).status;
    expect(await load()).toBe(200);
    before = await counts(url, 'big');
    demo = await counts(url, 'demo');
    // Once more (the same entities), stopped while it loads: the load finishes first.
    const again = load();
    const loadState = async () =>
      ((await (await fetch(`${url}/api/v1/sites/big/graph/load`, { headers: admin })).json()) as { state: string })
        .state;
    while ((await loadState()) !== 'parsing') await new Promise((resolve) => setTimeout(resolve, 100));
    service.child.kill('SIGTERM');
    expect(await again).toBe(200);
    expect(await service.exited).toBe(0);
    const manifest = JSON.parse(
      await readFile(join(data(), 'graphs', `${encodeURIComponent(BIG)}.graph.json`), 'utf8'),
    ) as { segments: Array<{ triples?: number }> };
    expect(manifest.segments.at(-1)).not.toHaveProperty('triples');
    readingsBefore = await keptReadings();
    // The load's answer read the site's profile and classes (ids are read alone only while a profile is late).
    expect(Object.keys(readingsBefore)).toEqual(expect.arrayContaining(['classes.json', 'profile.json']));
  }, 180_000);

  afterAll(async () => {
    for (const service of running) await service.kill();
  });

  it('listens while the site is read back, serves the demo, says SITE_LOADING with Retry-After, then answers in full', async () => {
    expect(before.body.data!.pointCount).toBeGreaterThan(20_000);
    const busy = spin(60_000);
    try {
      const { service, url, listeningMs } = await start();
      // Listening came before the big site was back, and soon.
      expect(service.logs.some((line) => line.msg === 'graph restored' && line.graph === BIG)).toBe(false);
      expect(listeningMs).toBeLessThan(30_000);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      const loading = await counts(url, 'big');
      expect(loading.status).toBe(503);
      expect(loading.body.errors![0]!.extensions!.code).toBe('SITE_LOADING');
      expect(Number(loading.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(await counts(url, 'demo')).toMatchObject({ status: 200, body: { data: demo.body.data } });
      // The rest needs no busy machine: the core it held goes back to the suite's other files.
      busy.kill();

      await expect.poll(async () => (await counts(url, 'big')).status, { timeout: 60_000, interval: 500 }).toBe(200);
      expect(await counts(url, 'big')).toMatchObject({ status: 200, body: { data: before.body.data } });
      // Its first answers took what was read of it before the stop, not a dozen scans of it again
      // (a reading made anew is kept anew, so its file would be newer).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await keptReadings()).toEqual(readingsBefore);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      busy.kill();
    }
  }, 180_000);
});
