/**
 * IFC files on upload: read in the background (storeys, elements), converted to a fragments file
 * that the models endpoint lists, elements looked up in the graph; failures recorded on the
 * record without touching the upload. Real web-ifc and @thatopen/fragments in child processes.
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { file, postForm } from '../files/files-support.ts';
import { GROUND, HQ_TTL, IDS, smallBuildingIfc } from './small-building.ts';

type Json = Record<string, any>;

describe('IFC models', () => {
  let h: Harness;
  let reader: string;
  const ifc4 = smallBuildingIfc('IFC4');
  const ifc2x3 = smallBuildingIfc('IFC2X3');
  // Two files at once: the machine's two cores, and the queue's concurrency, both used.
  let tower: Json;
  let broken: Json;

  const get = async (path: string, token?: string): Promise<Response> =>
    h.fetch(path, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const record = async (id: string): Promise<Json> => (await get(`/api/files/${id}/`)).json();
  const upload = async (fields: Record<string, string | Blob>): Promise<Json> => {
    const response = await postForm(h, '/api/files/', fields);
    expect(response.status, await response.clone().text()).toBe(201);
    return response.json();
  };

  beforeAll(async () => {
    h = await createHarness({
      sites: { hq: HQ_TTL },
      env: { BKG_IFC_WORKERS: '2', BKG_IFC_MAX_BYTES: String(64 * 1024) },
    });
    reader = (await h.services.keys.create({ name: 'reader', sites: ['hq'], write: false, admin: false })).secret;
    tower = await upload({
      site_id: 'hq',
      category: 'bim-source',
      storey: 'Whole building',
      sort_order: '3',
      file: file(ifc4, 'tower.ifc'),
    });
    broken = await upload({
      site_id: 'hq',
      category: 'model-3d',
      file: file('ISO-10303-21;\nHEADER;\nnot really;\n', 'broken.ifc'),
    });
    await h.services.ifc.idle();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('records a new IFC upload as pending, then ready with its schema, storeys and element count', async () => {
    expect(tower.ifc).toEqual({
      status: 'pending',
      error: null,
      schema: null,
      storeys: [],
      element_count: null,
      fragments_id: null,
    });
    const ready = await record(tower.id);
    expect(ready.ifc).toEqual({
      status: 'ready',
      error: null,
      schema: 'IFC4',
      storeys: [
        { global_id: IDS.ground, name: GROUND, elevation: 0 },
        { global_id: IDS.upper, name: 'Level 1', elevation: 3.5 },
      ],
      // site, building, 2 storeys, 1 space, 5 elements
      element_count: 10,
      fragments_id: expect.any(String),
    });
    expect(ready.updated_at).toBe(tower.updated_at);
  });

  it('lists the fragments file beside the IFC, with source_ifc and the same storey, and serves it', async () => {
    const fragmentsId = (await record(tower.id)).ifc.fragments_id;
    const models = (await (await get('/api/v1/sites/hq/models', reader)).json()) as Json[];
    const frag = models.find((m) => m.id === fragmentsId);
    expect(frag).toEqual(
      expect.objectContaining({
        name: 'tower.frag',
        format: 'frag',
        storey: 'Whole building',
        sort_order: 3,
        source_ifc: tower.id,
      }),
    );
    expect(models.filter((m) => m.format === 'frag')).toHaveLength(1);
    const bytes = Buffer.from(await (await get(frag!.download_url, reader)).arrayBuffer());
    expect(bytes.length).toBe(frag!.size_bytes);
    // A fragments file is a deflated flatbuffer that names every item by its GlobalId.
    const inflated = inflateSync(bytes).toString('latin1');
    for (const id of [IDS.vav, IDS.ahu, IDS.slab, IDS.duct]) expect(inflated).toContain(id);
    expect(await record(fragmentsId)).toMatchObject({ category: 'model-3d', source_ifc: tower.id, ifc: null });
  });

  it('tells an element’s class and storey, and the graph entity it maps to', async () => {
    const response = await get(`/api/v1/sites/hq/models/${tower.id}/elements?ifcId=${IDS.vav}`, reader);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ifc_id: IDS.vav,
      ifc_class: 'IfcAirTerminalBox',
      name: 'VAV-1',
      storey: GROUND,
      model: tower.id,
      mapped: true,
      entity: { kind: 'Equipment', id: 'VAV-1', uri: 'https://example.org/hq#VAV-1', name: 'VAV-1', type: 'VAV' },
    });
    const office = await (await get(`/api/v1/sites/hq/models/${tower.id}/elements?ifcId=${IDS.office}`, reader)).json();
    expect(office).toMatchObject({
      ifc_class: 'IfcSpace',
      storey: GROUND,
      mapped: true,
      entity: { kind: 'Location', name: 'Office 0.01', type: 'Room' },
    });
  });

  it('says plainly when the graph maps no entity to an element', async () => {
    const slab = await (await get(`/api/v1/sites/hq/models/${tower.id}/elements?ifcId=${IDS.slab}`, reader)).json();
    expect(slab).toEqual({
      ifc_id: IDS.slab,
      ifc_class: 'IfcSlab',
      name: 'Slab 0',
      storey: GROUND,
      model: tower.id,
      mapped: false,
      entity: null,
    });
  });

  it('answers for the fragments file as for its IFC file', async () => {
    const fragmentsId = (await record(tower.id)).ifc.fragments_id;
    const ahu = await (await get(`/api/v1/sites/hq/models/${fragmentsId}/elements?ifcId=${IDS.ahu}`, reader)).json();
    expect(ahu).toMatchObject({
      ifc_class: 'IfcUnitaryEquipment',
      storey: 'Level 1',
      model: tower.id,
      mapped: true,
      entity: { id: 'AHU-1', type: 'AHU' },
    });
  });

  it('lists the storeys with how many elements stand on each', async () => {
    const storeys = await (await get(`/api/v1/sites/hq/models/${tower.id}/storeys`, reader)).json();
    expect(storeys).toEqual([
      { global_id: IDS.ground, name: GROUND, elevation: 0, element_count: 5 },
      { global_id: IDS.upper, name: 'Level 1', elevation: 3.5, element_count: 3 },
    ]);
  });

  it('lists a storey’s elements a page at a time', async () => {
    const page = await (
      await get(`/api/v1/sites/hq/models/${tower.id}/elements?storey=${encodeURIComponent(GROUND)}&limit=3`, reader)
    ).json();
    expect(page).toMatchObject({ count: 5, previous: null });
    expect(page.results).toHaveLength(3);
    expect(page.next).toContain('offset=3');
    const rest = await (await fetch(page.next, { headers: { authorization: `Bearer ${reader}` } })).json();
    expect(rest).toMatchObject({ count: 5, next: null });
    const all = [...page.results, ...rest.results] as Json[];
    // The storey itself, its space and the three elements on it.
    expect(all.map((e) => e.ifc_id).sort()).toEqual([IDS.ground, IDS.office, IDS.vav, IDS.slab, IDS.duct].sort());
    expect(all.find((e) => e.ifc_id === IDS.duct)).toEqual({
      ifc_id: IDS.duct,
      ifc_class: 'IfcDuctSegment',
      name: 'Duct 0',
      storey: GROUND,
    });
  });

  it('answers 404 for GlobalIds not in the model and models without IFC elements, 400 for bad queries', async () => {
    const unknown = await get(`/api/v1/sites/hq/models/${tower.id}/elements?ifcId=0000000000000000000000`, reader);
    expect(unknown.status).toBe(404);
    const obj = await upload({ site_id: 'hq', category: 'model-3d', file: file('o 1', 'massing.obj') });
    expect((await get(`/api/v1/sites/hq/models/${obj.id}/elements?ifcId=${IDS.vav}`, reader)).status).toBe(404);
    expect((await get(`/api/v1/sites/hq/models/${tower.id}/elements?ifcId=${'x'.repeat(65)}`, reader)).status).toBe(
      400,
    );
    expect((await get(`/api/v1/sites/hq/models/${tower.id}/elements?limit=0`, reader)).status).toBe(400);
    expect((await fetch(`${h.url}/api/v1/sites/hq/models/${tower.id}/elements?ifcId=${IDS.vav}`)).status).toBe(401);
  });

  it('opens the viewer’s mount of the models routes to anonymous callers for the demo site only', async () => {
    expect((await fetch(`${h.url}/viewer/api/sites/hq/models`)).status).toBe(404);
    expect((await fetch(`${h.url}/viewer/api/sites/hq/models/${tower.id}/elements?ifcId=${IDS.vav}`)).status).toBe(404);
    const withKey = await fetch(`${h.url}/viewer/api/sites/hq/models`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    expect(withKey.status).toBe(200);
    expect((await withKey.json()).every((m: Json) => m.download_url.startsWith('/viewer/api/sites/hq/models/'))).toBe(
      true,
    );
  });

  it('records a file that cannot be read as failed, keeps the upload, and makes no fragments', async () => {
    const failed = await record(broken.id);
    expect(failed.ifc).toMatchObject({ status: 'failed', schema: null, element_count: null, fragments_id: null });
    expect(failed.ifc.error).toMatch(/^Reading the IFC file failed: /);
    expect(await (await get(`/api/files/${broken.id}/download/`)).text()).toContain('not really');
    const elements = await get(`/api/v1/sites/hq/models/${broken.id}/elements?ifcId=${IDS.vav}`, reader);
    expect(elements.status).toBe(409);
    expect((await elements.json()).detail).toContain('could not be read');
  });

  it('does not read files over BKG_IFC_MAX_BYTES, saying so', async () => {
    const big = await upload({
      site_id: 'hq',
      category: 'bim-source',
      file: file(ifc4.replace('DATA;', `DATA;\n/*${' '.repeat(70 * 1024)}*/`), 'big.ifc'),
    });
    await h.services.ifc.idle();
    expect((await record(big.id)).ifc).toMatchObject({
      status: 'failed',
      error: 'The file is larger than 65536 bytes (BKG_IFC_MAX_BYTES), so it was not read.',
    });
  });

  it('reads other files as they are: IFC files of other categories and other formats', async () => {
    const sheet = await upload({ site_id: 'hq', category: 'spec-sheet', file: file(ifc4, 'spec.ifc') });
    const frag = await upload({ site_id: 'hq', category: 'model-3d', file: file('frag', 'own.frag') });
    expect([sheet.ifc, frag.ifc]).toEqual([null, null]);
  });

  it('reads an IFC2X3 file in millimetres when the bytes are replaced, and replaces the fragments file', async () => {
    const before = await record(tower.id);
    const response = await postForm(
      h,
      `/api/files/${tower.id}/`,
      { file: file(ifc2x3, 'tower.ifc') },
      { method: 'PUT' },
    );
    expect(response.status).toBe(200);
    expect((await response.json()).ifc).toMatchObject({ status: 'pending', fragments_id: null });
    expect((await get(`/api/files/${before.ifc.fragments_id}/`)).status).toBe(404);
    await h.services.ifc.idle();
    const after = await record(tower.id);
    expect(after.ifc).toMatchObject({
      status: 'ready',
      schema: 'IFC2X3',
      storeys: [
        { global_id: IDS.ground, name: GROUND, elevation: 0 },
        { global_id: IDS.upper, name: 'Level 1', elevation: 3.5 },
      ],
      element_count: 10,
    });
    expect(after.ifc.fragments_id).not.toBe(before.ifc.fragments_id);
    const vav = await (await get(`/api/v1/sites/hq/models/${tower.id}/elements?ifcId=${IDS.vav}`, reader)).json();
    expect(vav).toMatchObject({
      ifc_class: 'IfcFlowController',
      storey: GROUND,
      mapped: true,
      entity: { id: 'VAV-1' },
    });
    const bytes = await (await get(`/api/v1/sites/hq/models/${after.ifc.fragments_id}/download`, reader)).arrayBuffer();
    expect(inflateSync(Buffer.from(bytes)).toString('latin1')).toContain(IDS.ahu);
  });

  it('deletes the fragments file and the elements with the IFC file', async () => {
    const { ifc } = await record(tower.id);
    expect((await h.fetch(`/api/files/${tower.id}/`, { method: 'DELETE' })).status).toBe(204);
    expect((await get(`/api/files/${ifc.fragments_id}/`)).status).toBe(404);
    const left = await h.services.database.query<{ n: unknown }>(
      'SELECT count(*) AS n FROM ifc_elements WHERE file_id = $1',
      [tower.id],
    );
    expect(Number(left[0]!.n)).toBe(0);
  });
});
