// What uploads in flight leave on disk when the service is killed (SIGKILL: nothing of the process
// runs) is gone at the next start, logged with its count and bytes; uploads then work as before.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRecords } from '../../support/harness.ts';
import { spawnService, type ServiceProcess } from '../../support/spawn-service.ts';

const ADMIN_KEY = 'sweep-admin-key-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };

/** A request body that sends `head`, then a chunk every 50 ms, and never ends. */
function endless(head: string, chunk: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start: (controller) => controller.enqueue(encoder.encode(head)),
    pull: async (controller) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/** The files under `dir` (at any depth) with their sizes; none when it does not exist. */
async function filesUnder(dir: string): Promise<Array<{ path: string; bytes: number }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (path) => ({ path, bytes: (await stat(path)).size })));
}

describe('temporary files after a crash', () => {
  let dir: string;
  let dataDir: string;
  const running: ServiceProcess[] = [];
  const start = async () => {
    const service = spawnService({
      BKG_DATA_DIR: dataDir,
      BKG_ADMIN_KEY: ADMIN_KEY,
      BKG_DEMO_FIXTURE: '',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    running.push(service);
    const { port } = await service.waitForLog('listening', 120_000);
    return { service, url: `http://127.0.0.1:${port as number}` };
  };
  const spools = () => [join(dataDir, 'tmp'), join(dataDir, 'blobs', '.tmp')];
  const leftOver = async () => (await Promise.all(spools().map(filesUnder))).flat();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-sweep-'));
    dataDir = join(dir, 'data');
    await seedRecords(dataDir);
  });

  afterAll(async () => {
    for (const service of running) await service.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('removes what killed uploads left at the next start, and uploads work again', async () => {
    const first = await start();
    const created = await fetch(`${first.url}/api/v1/sites`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'hq', name: 'HQ' }),
    });
    expect(created.status).toBe(201);
    // A graph upload and a file upload, each killed half-way.
    const boundary = 'sweep-boundary';
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="site_id"\r\n\r\nhq\r\n--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const uploads = [
      fetch(`${first.url}/api/v1/sites/hq/graph`, {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'text/turtle' },
        body: endless('', '<urn:x:a> <urn:x:b> "c" .\n'.repeat(2_000)),
        duplex: 'half',
      } as RequestInit),
      fetch(`${first.url}/api/files/`, {
        method: 'POST',
        headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: endless(form, 'x'.repeat(64 * 1024)),
        duplex: 'half',
      } as RequestInit),
    ].map((request) => request.catch(() => undefined));
    const spooled = async () =>
      (await Promise.all(spools().map(filesUnder))).map((files) => files.reduce((sum, file) => sum + file.bytes, 0));
    for (let i = 0; i < 200 && (await spooled()).some((bytes) => bytes < 256 * 1024); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await first.service.kill();
    await Promise.all(uploads);
    // What the other spools (the S3 spool, IFC jobs, loads into a SPARQL store) would leave.
    for (const [folder, name] of [
      ['s3-spool', 'f0e1'],
      ['ifc/job-1', 'model.ifc'],
      ['sparql-load/bkg-load-1', 'data.nt'],
    ] as const) {
      await mkdir(join(dataDir, 'tmp', folder), { recursive: true });
      await writeFile(join(dataDir, 'tmp', folder, name), 'left by a crash');
    }
    const left = await leftOver();
    expect(left.some((file) => file.path.includes(join('tmp', 'upload-')))).toBe(true);
    expect(left.some((file) => file.path.includes(join('blobs', '.tmp')))).toBe(true);

    const second = await start();
    expect(await leftOver()).toEqual([]);
    const swept = await second.service.waitForLog('temporary files swept');
    expect(swept).toMatchObject({ files: left.length, bytes: left.reduce((sum, file) => sum + file.bytes, 0) });

    const graph = await fetch(`${second.url}/api/v1/sites/hq/graph`, {
      method: 'PUT',
      headers: { ...admin, 'content-type': 'text/turtle' },
      body: '<urn:x:a> <urn:x:b> "c" .\n',
    });
    expect(graph.status).toBe(200);
    const upload = new FormData();
    upload.append('site_id', 'hq');
    upload.append('category', 'other');
    upload.append('file', new File(['notes'], 'notes.txt', { type: 'text/plain' }));
    const stored = await fetch(`${second.url}/api/files/`, { method: 'POST', headers: admin, body: upload });
    expect(stored.status).toBe(201);
    const { id } = (await stored.json()) as { id: string };
    expect(await (await fetch(`${second.url}/api/files/${id}/download/`, { headers: admin })).text()).toBe('notes');
    expect(await leftOver()).toEqual([]);
  }, 240_000);
});
