import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { curl } from '../../support/curl.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeVariants } from '../../support/needs.ts';
import { SITE_TTL, storeVariants } from './files-support.ts';

const SIZE = 200 * 1024 * 1024;
const MAX_GROWTH = 64 * 1024 * 1024;

/** Writes `size` pseudo-random bytes to `path` a chunk at a time, answering their SHA-256. */
async function writeBigFile(path: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(path);
  const chunk = Buffer.alloc(1024 * 1024);
  for (let written = 0, n = 0; written < size; written += chunk.length, n++) {
    for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((n * 2654435761 + i * 40503) >>> 0, i);
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return hash.digest('hex');
}

// The garbage collector, called before a measurement: suite files share this process (vitest.config.ts,
// `isolate: false`), and the garbage an earlier file left is collected whenever the heap next grows,
// which could be in the middle of the measurement (a full run once saw 92 MB; alone the file grows 30-45 MB).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Runs `work` while sampling this process's RSS; answers the peak growth over the RSS at the start. */
async function rssGrowth(work: () => Promise<void>): Promise<number> {
  collectGarbage();
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

// The service and (for the local disk) the store share this process, so its RSS bounds what the
// service holds: a 200 MB file must pass through without the process growing by 64 MB. The upload
// is sent by curl from a child process (test/support/curl.ts says why).
describeVariants('a 200 MB upload and download on $name', storeVariants(), (variant) => {
  let h: Harness;
  let dir: string;
  let path: string;
  let sha256: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-big-'));
    path = join(dir, 'big.glb');
    sha256 = await writeBigFile(path, SIZE);
    h = await createHarness({ sites: { hq: SITE_TTL }, env: variant.env(join(dir, 'data')) });
    // Warm the code paths (multer, the store, fetch) so the measurement sees the bytes, not the code.
    const warm = new FormData();
    warm.append('site_id', 'hq');
    warm.append('category', 'other');
    warm.append('file', new Blob(['warm-up']), 'warm.txt');
    expect((await h.fetch('/api/files/', { method: 'POST', body: warm })).status).toBe(201);
  });

  afterAll(async () => {
    await h?.close();
    await variant.teardown();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams the upload to the store without memory growing with the file', async () => {
    let record: any;
    const growth = await rssGrowth(async () => {
      const form = [
        '-F',
        'site_id=hq',
        '-F',
        'category=model-3d',
        '-F',
        `file=@${path};type=model/gltf-binary;filename=big.glb`,
      ];
      const answer = await curl(['-H', `authorization: Bearer ${h.adminKey}`, ...form, `${h.url}/api/files/`]);
      expect(answer.status, answer.body).toBe(201);
      record = JSON.parse(answer.body);
    });
    expect(record).toMatchObject({ size_bytes: SIZE, format: 'glb' });
    expect(growth, `RSS grew by ${mb(growth)}`).toBeLessThan(MAX_GROWTH);

    let downloaded = '';
    const downloadGrowth = await rssGrowth(async () => {
      const response = await h.fetch(`/api/files/${record.id}/download/`);
      expect(response.headers.get('content-length')).toBe(String(SIZE));
      const hash = createHash('sha256');
      for await (const chunk of response.body!) hash.update(chunk);
      downloaded = hash.digest('hex');
    });
    expect(downloaded).toBe(sha256);
    expect(downloadGrowth, `RSS grew by ${mb(downloadGrowth)}`).toBeLessThan(MAX_GROWTH);
  }, 300_000);
});
