import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { file, postForm, SITE_TTL } from './files-support.ts';
import { listKeys, s3Config, s3Env, startS3rver, type S3rverProcess } from './s3-support.ts';

const BUCKET = 'bkg-failure';

/** Writes `size` bytes to `path`. */
async function writeFile(path: string, size: number): Promise<void> {
  const out = createWriteStream(path);
  const chunk = Buffer.alloc(1024 * 1024, 7);
  for (let written = 0; written < size; written += chunk.length) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Resolves once s3rver has started writing an object into the bucket (a non-empty object file). */
async function objectBeingWritten(bucketDir: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    for (const name of await readdir(join(bucketDir, 'files')).catch(() => [] as string[])) {
      if (
        name.endsWith('._S3rver_object') &&
        ((await stat(join(bucketDir, 'files', name)).catch(() => undefined))?.size ?? 0) > 0
      )
        return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

// s3rver runs here in a child process of the test's own, so the test can kill it (SIGKILL, as a
// crash) and start it again on the same port and data; this needs no S3_ENDPOINT.
describe('a failing S3 store', () => {
  let dir: string;
  let s3: S3rverProcess;
  let h: Harness;
  const config = () => s3Config(BUCKET, s3.endpoint);
  const spoolDir = () => join(dir, 'data', 'tmp', 's3-spool');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-s3-failure-'));
    s3 = await startS3rver(join(dir, 's3'));
    h = await createHarness({ sites: { hq: SITE_TTL }, env: { BKG_DATA_DIR: join(dir, 'data'), ...s3Env(config()) } });
  });

  afterAll(async () => {
    await h?.close();
    await s3?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 503 when S3 dies mid-upload, leaving neither record nor bytes', async () => {
    const path = join(dir, 'upload.ifc');
    await writeFile(path, 128 * 1024 * 1024);
    const done = new AbortController();
    const killer = objectBeingWritten(join(dir, 's3', BUCKET), done.signal).then(async () => {
      if (!done.signal.aborted) await s3.kill();
    });
    const form = new FormData();
    form.append('site_id', 'hq');
    form.append('category', 'bim-source');
    form.append('file', await openAsBlob(path), 'upload.ifc');
    const response = await h.fetch('/api/files/', { method: 'POST', body: form });
    done.abort();
    await killer;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      detail: 'The file store (S3) is unavailable.',
    });
    expect(await (await h.fetch('/api/files/')).json()).toEqual([]);
    expect(await readdir(spoolDir())).toEqual([]);
    await s3.restart();
    // Real S3 never shows an object whose PUT did not finish; s3rver does show its half-written
    // file. No record points to it, and the sweep (hourly in service, here at once) removes it.
    const halfWritten = await listKeys(config());
    expect(halfWritten.length).toBeLessThanOrEqual(1);
    expect(await h.services.files.sweep(new Date(Date.now() + 60_000))).toBe(halfWritten.length);
    expect(await listKeys(config())).toEqual([]);
  }, 180_000);

  it('keeps every record and its bytes while S3 is down, and serves them again when it is back', async () => {
    const created = await postForm(h, '/api/files/', {
      site_id: 'hq',
      category: 'spec-sheet',
      file: file('original bytes', 'sheet.txt', 'text/plain'),
    });
    expect(created.status).toBe(201);
    const record = await created.json();
    await s3.kill();

    expect((await h.fetch(`/api/files/${record.id}/`)).status).toBe(200);
    const download = await h.fetch(`/api/files/${record.id}/download/`);
    expect(download.status).toBe(503);
    expect(download.headers.get('content-disposition')).toBeNull();
    expect((await h.fetch(`/api/files/${record.id}/download/?redirect=1`, { redirect: 'manual' })).status).toBe(302);
    const replaced = await postForm(
      h,
      `/api/files/${record.id}/`,
      { name: 'changed.txt', file: file('new bytes', 'new.txt') },
      { method: 'PUT' },
    );
    expect(replaced.status).toBe(503);
    expect((await h.fetch(`/api/files/${record.id}/`, { method: 'DELETE' })).status).toBe(503);
    const another = await postForm(h, '/api/files/', { site_id: 'hq', category: 'other', file: file('x', 'x.txt') });
    expect(another.status).toBe(503);
    const ready = await h.fetch('/readyz');
    expect(ready.status).toBe(503);
    expect((await ready.json()).engines).toMatchObject({ files: 'unavailable' });
    expect(await (await h.fetch('/api/files/')).json()).toEqual([record]);
    expect(await readdir(spoolDir())).toEqual([]);

    await s3.restart();
    expect((await h.fetch('/readyz')).status).toBe(200);
    expect(await (await h.fetch(`/api/files/${record.id}/download/`)).text()).toBe('original bytes');
    expect((await h.fetch(`/api/files/${record.id}/`, { method: 'DELETE' })).status).toBe(204);
    expect(await listKeys(config())).toEqual([]);
  }, 120_000);
});
