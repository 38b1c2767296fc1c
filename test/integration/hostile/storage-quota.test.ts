// A site filling the service's storage: the files and models of one site may take
// BKG_SITE_QUOTA_BYTES together. An upload past it is 413 QUOTA_EXCEEDED with nothing half-written
// (no record, no bytes), whether it is cut off as it streams in, found too large once stored,
// raced by another upload, or replaces a file's bytes. Meanwhile another site's upload is stored.
// On PGlite, and on PostgreSQL when DATABASE_URL is set (where racing uploads really run at once).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeVariants } from '../../support/needs.ts';
import { file, postForm } from '../files/files-support.ts';
import { duringAttack, INNOCENT_TTL, recordEngines } from './hostile-support.ts';

const QUOTA = 100_000;
const bytes = (n: number, fill = 0x61) => new Uint8Array(n).fill(fill);

describeVariants('per-site storage quota on $name', recordEngines(), (engine) => {
  let h: Harness;
  const upload = (site: string, size: number, extra: Record<string, string> = {}) =>
    postForm(h, '/api/files/', { site_id: site, category: 'other', ...extra, file: file(bytes(size), 'data.bin') });
  const replace = (id: string, size: number) =>
    postForm(h, `/api/files/${id}/`, { file: file(bytes(size, 0x62), 'data.bin') }, { method: 'PUT' });
  const filesOf = async (site: string) =>
    (await (await h.fetch(`/api/files/?site_id=${site}`)).json()) as Array<{
      id: string;
      size_bytes: number;
      sha256: string;
    }>;
  /** Every stored blob key: each must belong to a record. */
  const blobKeys = async () => {
    const keys: string[] = [];
    for await (const blob of h.services.blobs.list('files/')) keys.push(blob.key);
    return keys.sort();
  };
  const recordedKeys = async () => (await h.services.files.list({ sites: '*' })).map((f) => f.blob_key).sort();
  const expectQuotaExceeded = async (res: Response, used: number) => {
    expect(res.status, await res.clone().text()).toBe(413);
    expect(await res.json()).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      quota_bytes: QUOTA,
      used_bytes: used,
      detail: expect.stringContaining('may take 100000 bytes'),
    });
  };

  beforeAll(async () => {
    h = await createHarness({
      sites: { full: INNOCENT_TTL, innocent: INNOCENT_TTL, race: INNOCENT_TTL },
      env: { BKG_SITE_QUOTA_BYTES: String(QUOTA), BKG_MAX_FILE_UPLOAD_BYTES: '1000000', ...(await engine.env()) },
    });
  });
  afterAll(async () => {
    await h?.close();
    await engine.teardown();
  });

  it('refuses the upload that would pass the quota, keeps nothing of it, and stores another site’s upload meanwhile', async () => {
    expect((await upload('full', 60_000)).status).toBe(201);
    const { attack, innocent } = await duringAttack(
      () => upload('full', 60_000),
      () => upload('innocent', 60_000),
    );
    await expectQuotaExceeded(attack, 60_000);
    expect(innocent.status).toBe(201);
    expect((await filesOf('full')).map((f) => f.size_bytes)).toEqual([60_000]);
    expect(await blobKeys()).toEqual(await recordedKeys());
  });

  it('cuts off an upload far past the room as it streams in (the site named before the file part)', async () => {
    await expectQuotaExceeded(await upload('full', 900_000), 60_000);
    expect(await filesOf('full')).toHaveLength(1);
    expect(await blobKeys()).toEqual(await recordedKeys());
  });

  it('refuses it once stored when the site comes after the file part, and removes its bytes', async () => {
    const form = new FormData();
    form.append('category', 'other');
    form.append('file', file(bytes(60_000), 'late.bin'));
    form.append('site_id', 'full');
    await expectQuotaExceeded(await h.fetch('/api/files/', { method: 'POST', body: form }), 60_000);
    expect(await filesOf('full')).toHaveLength(1);
    expect(await blobKeys()).toEqual(await recordedKeys());
  });

  it('lets only one of two racing uploads take the same room', async () => {
    const answers = await Promise.all([upload('race', 60_000), upload('race', 60_000)]);
    expect(answers.map((res) => res.status).sort()).toEqual([201, 413]);
    expect(await filesOf('race')).toHaveLength(1);
    expect(await blobKeys()).toEqual(await recordedKeys());
  });

  it('counts a file’s old bytes as free when new bytes replace them, and keeps the file as it was when they do not fit', async () => {
    const [before] = await filesOf('full');
    const fits = await replace(before!.id, 95_000);
    expect(fits.status, await fits.clone().text()).toBe(200);
    const [replaced] = await filesOf('full');
    expect(replaced!.size_bytes).toBe(95_000);
    await expectQuotaExceeded(await replace(before!.id, 100_001), 0);
    expect(await filesOf('full')).toEqual([replaced]);
    expect(await blobKeys()).toEqual(await recordedKeys());
  });

  it('has room again once files are deleted', async () => {
    const [stored] = await filesOf('full');
    expect((await h.fetch(`/api/files/${stored!.id}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await upload('full', QUOTA)).status).toBe(201);
    await expectQuotaExceeded(await upload('full', 1), QUOTA);
    expect(await blobKeys()).toEqual(await recordedKeys());
  });
});
