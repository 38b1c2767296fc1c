import { readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/config/config.ts';
import { SiteFileStore } from '../../../src/files/site-file-store.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { file, postForm } from './files-support.ts';

const fixtures = join(projectRoot, 'fixtures', 'demo-files');
const manifest = JSON.parse(await readFile(join(fixtures, 'manifest.json'), 'utf8')) as {
  files: Array<Record<string, any>>;
};
const [sheet, log, model, ifc] = manifest.files as [
  Record<string, any>,
  Record<string, any>,
  Record<string, any>,
  Record<string, any>,
];

describe('the demo site’s files', () => {
  let h: Harness;
  let dataDir: string;
  let demoReader: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bkg-demo-files-'));
    h = await createHarness({
      sites: {},
      env: {
        BKG_DATA_DIR: dataDir,
        BKG_DEMO_FIXTURE: join(projectRoot, 'fixtures', 'demo.ttl'),
        BKG_DEMO_SIMULATOR: '0',
      },
    });
    demoReader = (await h.services.keys.create({ name: 'demo reader', sites: ['demo'], write: true, admin: false }))
      .secret;
  });

  afterAll(async () => {
    await h?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const asReader = () => ({ headers: { authorization: `Bearer ${demoReader}` } });
  const demoFiles = async () =>
    (await (await h.fetch('/api/files/?site_id=demo', asReader())).json()) as Array<Record<string, any>>;

  it('are the fixture set from fixtures/demo-files/manifest.json', async () => {
    const files = await demoFiles();
    expect(files.map((f) => f.id).sort()).toEqual(manifest.files.map((f) => f.id).sort());
    expect(files.find((f) => f.id === sheet.id)).toMatchObject({
      site: 'demo',
      name: sheet.name,
      category: 'spec-sheet',
      entity_uri: sheet.entity_uri,
      format: null,
    });
    expect(files.find((f) => f.id === model.id)).toMatchObject({
      format: 'obj',
      storey: 'Floor 2',
      category: 'model-3d',
    });
    const download = await h.fetch(`/api/files/${sheet.id}/download/`, asReader());
    expect(download.headers.get('content-type')).toBe(sheet.content_type);
    expect(await download.text()).toBe(await readFile(join(fixtures, sheet.path), 'utf8'));
  });

  it('include a model a viewer can list and load', async () => {
    const models = await (await h.fetch('/api/v1/sites/demo/models', asReader())).json();
    expect(models).toEqual([
      expect.objectContaining({
        id: model.id,
        format: 'obj',
        storey: 'Floor 2',
        download_url: `/api/v1/sites/demo/models/${model.id}/download`,
      }),
      // The IFC model whose GlobalIds the demo graph carries (converted to fragments in the background: test/e2e/viewer.test.ts).
      expect.objectContaining({ id: ifc.id, name: 'Demo Tower.ifc', format: 'ifc', source_ifc: null }),
    ]);
    const bytes = await (await h.fetch(models[0].download_url, asReader())).text();
    expect(bytes).toBe(await readFile(join(fixtures, model.path), 'utf8'));
    expect((await fetch(`${h.url}/api/v1/sites/demo/models`)).status).toBe(401);
  });

  it('cannot be changed through the API, not even by the admin', async () => {
    expect(
      (await postForm(h, '/api/files/', { site_id: 'demo', category: 'other', file: file('x', 'x.txt') })).status,
    ).toBe(403);
    expect((await postForm(h, `/api/files/${sheet.id}/`, { name: 'defaced' }, { method: 'PUT' })).status).toBe(403);
    expect((await h.fetch(`/api/files/${sheet.id}/`, { method: 'DELETE' })).status).toBe(403);
    expect((await h.fetch(`/api/files/${sheet.id}/`, { method: 'DELETE', ...asReader() })).status).toBe(403);
  });

  it('return to the fixture state on reset, re-storing only what changed', async () => {
    const before = await demoFiles();
    const stored = new SiteFileStore(h.services.database);
    const logRow = (await stored.get(log.id))!;
    // Changed behind the API's back: a record renamed, another's bytes lost, an extra file added.
    await stored.update(sheet.id, { name: 'defaced.txt' });
    await h.services.blobs.delete(logRow.blob_key);
    const key = h.services.files.newBlobKey();
    const extra = await h.services.files.create(
      {
        site: 'demo',
        category: 'other',
        name: 'extra.txt',
        entity_uri: '',
        content_type: 'text/plain',
        format: null,
        storey: '',
        sort_order: 0,
        source_ifc: null,
      },
      {
        key,
        ...(await h.services.blobs.put(key, Readable.from([Buffer.from('extra')]), { contentType: 'text/plain' })),
      },
    );

    await h.services.demo!.reset();

    const after = await demoFiles();
    expect(after.map((f) => f.id).sort()).toEqual(before.map((f) => f.id).sort());
    expect(after.find((f) => f.id === sheet.id)!.name).toBe(sheet.name);
    expect(await (await h.fetch(`/api/files/${log.id}/download/`, asReader())).text()).toBe(
      await readFile(join(fixtures, log.path), 'utf8'),
    );
    expect((await h.fetch(`/api/files/${extra.id}/`)).status).toBe(404);
    expect(await h.services.blobs.stat(key)).toBeUndefined();
    // The untouched model kept its bytes: nothing is re-stored that did not change.
    expect((await stored.get(model.id))!.blob_key).toBe(
      (await new SiteFileStore(h.services.database).get(model.id))!.blob_key,
    );
  });
});
