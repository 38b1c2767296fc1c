import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeVariants, requiredEngineUrl } from '../../support/needs.ts';
import { file, postForm, SITE_TTL, storeVariants } from './files-support.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

// Downloads redirect by default here (BKG_DOWNLOAD_REDIRECT=true): on S3 they answer 302 to a
// presigned URL, on the local disk they stream all the same.
describeVariants('models on $name', storeVariants(), (variant) => {
  let h: Harness;
  let dataDir: string;
  let stranger: string;
  const ids: Record<string, string> = {};

  const upload = async (fields: Record<string, string | Blob>) => {
    const response = await postForm(h, '/api/files/', fields);
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as Record<string, any>;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bkg-models-'));
    h = await createHarness({
      sites: { hq: SITE_TTL, other: SITE_TTL },
      env: { ...variant.env(dataDir), BKG_DOWNLOAD_REDIRECT: 'true', BKG_DOWNLOAD_URL_SECONDS: '120' },
    });
    stranger = (await h.services.keys.create({ name: 'stranger', sites: ['other'], write: true, admin: false })).secret;
    // Uploaded out of display order; one non-model file among them.
    ids.l2 = (
      await upload({
        site_id: 'hq',
        category: 'model-3d',
        storey: 'Level 2',
        sort_order: '2',
        file: file('glb level 2', 'level-2.glb'),
      })
    ).id;
    ids.ifc = (
      await upload({ site_id: 'hq', category: 'bim-source', file: file('ISO-10303-21; tower', 'tower.ifc') })
    ).id;
    ids.sheet = (
      await upload({ site_id: 'hq', category: 'spec-sheet', file: file('not a model', 'sheet.pdf', 'application/pdf') })
    ).id;
    ids.frag = (
      await upload({ site_id: 'hq', category: 'model-3d', source_ifc: ids.ifc!, file: file('fragments', 'tower.frag') })
    ).id;
    ids.l1 = (
      await upload({
        site_id: 'hq',
        category: 'model-3d',
        storey: 'Level 1',
        sort_order: '1',
        file: file('obj level 1', 'level-1.obj'),
      })
    ).id;
  });

  afterAll(async () => {
    await h?.close();
    await variant.teardown();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists model files as the REST API shows them, by sort_order then upload time', async () => {
    const response = await h.fetch('/api/v1/sites/hq/models');
    expect(response.status).toBe(200);
    const models = await response.json();
    expect(models.map((m: any) => m.id)).toEqual([ids.ifc, ids.frag, ids.l1, ids.l2]);
    expect(models[1]).toEqual({
      id: ids.frag,
      name: 'tower.frag',
      format: 'frag',
      storey: '',
      sort_order: 0,
      size_bytes: 9,
      download_url: `/api/v1/sites/hq/models/${ids.frag}/download`,
      created_at: expect.stringMatching(ISO_UTC),
      source_ifc: ids.ifc,
    });
    expect(models[2]).toMatchObject({ format: 'obj', storey: 'Level 1', sort_order: 1, source_ifc: null });
    expect(await (await h.fetch('/api/v1/sites/hq/models/')).json()).toEqual(models);
  });

  it('filters by file_format and storey', async () => {
    const ids_ = async (query: string) =>
      (await (await h.fetch(`/api/v1/sites/hq/models${query}`)).json()).map((m: any) => m.id);
    expect(await ids_('?file_format=glb')).toEqual([ids.l2]);
    expect(await ids_('/?file_format=ifc')).toEqual([ids.ifc]);
    expect(await ids_('?storey=Level%201')).toEqual([ids.l1]);
    expect(await ids_('?storey=level%201')).toEqual([]);
    expect(await ids_('?file_format=obj&storey=Level%202')).toEqual([]);
  });

  it('answers 400 naming the allowed formats for an invalid file_format', async () => {
    const response = await h.fetch('/api/v1/sites/hq/models?file_format=stl');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      file_format: ['"stl" is not a valid choice. Allowed values: ifc, frag, glb, obj.'],
    });
  });

  it('answers 401 without credentials and 404 for unknown or foreign sites and models', async () => {
    expect((await fetch(`${h.url}/api/v1/sites/hq/models`)).status).toBe(401);
    expect((await fetch(`${h.url}/api/v1/sites/hq/models/${ids.l1}/download`)).status).toBe(401);
    expect(
      (await fetch(`${h.url}/api/v1/sites/hq/models`, { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    const asStranger = { headers: { authorization: `Bearer ${stranger}` } };
    expect((await h.fetch('/api/v1/sites/hq/models', asStranger)).status).toBe(404);
    expect((await h.fetch(`/api/v1/sites/hq/models/${ids.l1}/download`, asStranger)).status).toBe(404);
    expect((await h.fetch('/api/v1/sites/nowhere/models')).status).toBe(404);
    expect(await (await h.fetch('/api/v1/sites/other/models')).json()).toEqual([]);
    // A model of another site, a file that is no model, an unknown id.
    expect((await h.fetch(`/api/v1/sites/other/models/${ids.l1}/download`)).status).toBe(404);
    expect((await h.fetch(`/api/v1/sites/hq/models/${ids.sheet}/download`)).status).toBe(404);
    expect((await h.fetch('/api/v1/sites/hq/models/00000000-0000-4000-8000-000000000000/download')).status).toBe(404);
    expect((await h.fetch('/api/v1/sites/hq/models/x/download')).status).toBe(404);
  });

  it('downloads a model from its download_url as an attachment (following the redirect on S3)', async () => {
    const [model] = (await (await h.fetch('/api/v1/sites/hq/models?file_format=obj')).json()) as any[];
    const response = await h.fetch(model.download_url);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('obj level 1');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="level-1.obj"; filename\*=UTF-8''level-1.obj$/,
    );
    expect(response.redirected).toBe(variant.kind === 's3');
    const unversioned = await h.fetch(`/api/sites/hq/models/${ids.l1}/download?redirect=0`);
    expect(await unversioned.text()).toBe('obj level 1');
  });

  it.runIf(variant.kind === 's3')(
    'answers 302 to a short-lived presigned URL that serves the same bytes without the gateway (only on S3)',
    async () => {
      const response = await h.fetch(`/api/v1/sites/hq/models/${ids.l2}/download`, { redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const location = new URL(response.headers.get('location')!);
      expect(location.origin).toBe(new URL(requiredEngineUrl('S3_ENDPOINT')).origin);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('120');
      expect(location.searchParams.get('response-content-disposition')).toMatch(/^attachment; filename="level-2.glb"/);
      // Fetched as a viewer would: no credentials of ours.
      const direct = await fetch(location);
      expect(direct.status).toBe(200);
      expect(await direct.text()).toBe('glb level 2');
      expect(direct.headers.get('content-disposition')).toMatch(/^attachment; filename="level-2.glb"/);
      // ?redirect=0 streams through the gateway instead, Range included.
      const streamed = await h.fetch(`/api/v1/sites/hq/models/${ids.l2}/download?redirect=0`, {
        headers: { range: 'bytes=4-8' },
      });
      expect(streamed.status).toBe(206);
      expect(await streamed.text()).toBe('level');
    },
  );
});
