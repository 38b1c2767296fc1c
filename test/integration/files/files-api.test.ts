import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SITE } from '../../../src/auth/client.ts';
import { readMigrations } from '../../../src/db/migrate.ts';
import { demoSiteRecord } from '../../../src/graphs/demo-site.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeVariants } from '../../support/needs.ts';
import { file, postForm, SITE_TTL, storeVariants } from './files-support.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const AHU = 'https://example.org/hq#AHU-1';

describeVariants('site files on $name', storeVariants(), (variant) => {
  let h: Harness;
  let dataDir: string;
  let writer: string;
  let reader: string;
  let stranger: string;
  const keys = () => variant.keys(dataDir);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bkg-files-'));
    h = await createHarness({ sites: { hq: SITE_TTL, other: SITE_TTL }, env: variant.env(dataDir) });
    await h.services.sites.ensure(demoSiteRecord);
    writer = (await h.services.keys.create({ name: 'writer', sites: ['hq'], write: true, admin: false })).secret;
    reader = (await h.services.keys.create({ name: 'reader', sites: ['hq'], write: false, admin: false })).secret;
    stranger = (await h.services.keys.create({ name: 'stranger', sites: ['other'], write: true, admin: false })).secret;
  });

  afterAll(async () => {
    await h?.close();
    await variant.teardown();
    await rm(dataDir, { recursive: true, force: true });
  });

  const upload = async (fields: Record<string, string | Blob>, token?: string) => {
    const response = await postForm(h, '/api/files/', fields, { token });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as Record<string, any>;
  };

  /** Runs `attempt`, expecting it to leave the stored blobs as they were. */
  const leavesBlobsAlone = async (attempt: () => Promise<void>) => {
    const before = await keys();
    await attempt();
    expect(await keys()).toEqual(before);
  };

  describe('POST /api/files/', () => {
    it('stores a browser upload and answers 201 with the record', async () => {
      const content = 'AHU-1 spec sheet\nfan 4.2 m3/s\n';
      const response = await postForm(
        h,
        '/api/files/',
        { site_id: 'hq', category: 'spec-sheet', entity_uri: AHU, file: file(content, 'ahu-1.txt', 'text/plain') },
        { token: writer },
      );
      expect(response.status).toBe(201);
      const record = await response.json();
      expect(record).toEqual({
        id: expect.stringMatching(UUID),
        site: 'hq',
        category: 'spec-sheet',
        name: 'ahu-1.txt',
        entity_uri: AHU,
        content_type: 'text/plain',
        size_bytes: Buffer.byteLength(content),
        format: null,
        storey: '',
        sort_order: 0,
        source_ifc: null,
        ifc: null,
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: expect.stringMatching(ISO_UTC),
      });
      expect(response.headers.get('location')).toBe(`/api/files/${record.id}/`);
      expect(await (await h.fetch(`/api/files/${record.id}/`)).json()).toEqual(record);
      expect((await keys()).length).toBeGreaterThan(0);
    });

    it('takes the name given, and recognises model files by extension or an explicit format', async () => {
      const ifc = await upload({ site_id: 'hq', category: 'bim-source', file: file('ISO-10303-21;', 'Tower.IFC') });
      expect(ifc).toMatchObject({ name: 'Tower.IFC', format: 'ifc', content_type: 'application/x-step' });
      const glb = await upload({
        site_id: 'hq',
        category: 'model-3d',
        name: 'Level 2 mesh',
        format: 'glb',
        storey: 'Level 2',
        sort_order: '3',
        file: file('glTF', 'export.bin'),
      });
      expect(glb).toMatchObject({ name: 'Level 2 mesh', format: 'glb', storey: 'Level 2', sort_order: 3 });
      const frag = await upload({
        site_id: 'hq',
        category: 'model-3d',
        source_ifc: ifc.id,
        file: file('frag', 'tower.frag'),
      });
      expect(frag).toMatchObject({ format: 'frag', source_ifc: ifc.id });
      const csv = await upload({ site_id: 'hq', category: 'kg-csv', file: file('a,b\n1,2\n', 'points.csv', '') });
      expect(csv).toMatchObject({ format: null, content_type: 'text/csv' });
    });

    it('keeps file names in any script', async () => {
      const record = await upload({
        site_id: 'hq',
        category: 'maintenance',
        file: file('log', 'Wartungsprotokoll Kälte – 2024 ✓.txt', 'text/plain'),
      });
      expect(record.name).toBe('Wartungsprotokoll Kälte – 2024 ✓.txt');
    });

    it('stores, lists and sends file names without bidirectional controls', async () => {
      const bidi = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
      const every = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C';
      /** The download's Content-Disposition, its UTF-8 name decoded. */
      const disposition = async (id: string) => {
        const header = (await h.fetch(`/api/files/${id}/download/`)).headers.get('content-disposition')!;
        return `${header} ${decodeURIComponent(header.split("UTF-8''")[1]!)}`;
      };
      // Drawn by a browser as "invoiceexe.txt".
      const spoofed = await upload({ site_id: 'hq', category: 'other', file: file('MZ', 'invoice\u202Etxt.exe') });
      expect(spoofed.name).toBe('invoicetxt.exe');
      const named = await upload({
        site_id: 'hq',
        category: 'other',
        name: `report${every}.pdf`,
        file: file('%PDF', 'a.pdf'),
      });
      expect(named.name).toBe('report.pdf');
      const model = await upload({
        site_id: 'hq',
        category: 'bim-source',
        file: file('ISO-10303-21;', `Tower\u2067 B\u2069.ifc`),
      });
      expect(model.name).toBe('Tower B.ifc');
      const listed = (await (await h.fetch('/api/files/?site_id=hq')).json()) as Array<{ name: string }>;
      const models = (await (await h.fetch('/api/v1/sites/hq/models')).json()) as Array<{ name: string }>;
      for (const { name } of [...listed, ...models]) expect(name).not.toMatch(bidi);
      for (const { id } of [spoofed, named, model]) expect(await disposition(id)).not.toMatch(bidi);
      // A name stored before names were cleaned on upload is sent without them too.
      await h.services.database.query('UPDATE site_files SET name = $1 WHERE id = $2', [
        `old\u202Etxt.exe`,
        spoofed.id,
      ]);
      expect(await disposition(spoofed.id)).toBe(
        `attachment; filename="oldtxt.exe"; filename*=UTF-8''oldtxt.exe oldtxt.exe`,
      );
      // The migration removes them from names stored before it; a name of nothing else becomes "file".
      await h.services.database.query('UPDATE site_files SET name = $1 WHERE id = $2', ['\u202E\u200F', named.id]);
      const migration = (await readMigrations()).find((m) => m.name === 'file-names-without-bidi-controls')!;
      await h.services.database.query(migration.sql);
      expect((await (await h.fetch(`/api/files/${spoofed.id}/`)).json()).name).toBe('oldtxt.exe');
      expect((await (await h.fetch(`/api/files/${named.id}/`)).json()).name).toBe('file');
    });

    it('answers DRF-style field errors and stores nothing', async () => {
      const cases: Array<[Record<string, string | Blob>, Record<string, string[]>]> = [
        [{ site_id: 'hq', category: 'spec-sheet' }, { file: ['No file was submitted.'] }],
        [{ site_id: 'hq', file: file('x', 'a.txt') }, { category: ['This field is required.'] }],
        [{ category: 'other', file: file('x', 'a.txt') }, { site_id: ['This field is required.'] }],
        [
          { site_id: 'hq', category: 'photos', file: file('x', 'a.txt') },
          { category: ['"photos" is not a valid choice.'] },
        ],
        [
          { site_id: 'hq', category: 'other', name: 'n'.repeat(256), file: file('x', 'a.txt') },
          { name: ['Ensure this field has no more than 255 characters.'] },
        ],
        [
          { site_id: 'hq', category: 'other', file: file('x', `${'n'.repeat(252)}.txt`) },
          { name: ['Ensure this field has no more than 255 characters.'] },
        ],
        [
          {
            site_id: 'hq',
            category: 'other',
            entity_uri: `https://example.org/${'e'.repeat(500)}`,
            file: file('x', 'a.txt'),
          },
          { entity_uri: ['Ensure this field has no more than 511 characters.'] },
        ],
        [
          { site_id: 'hq', category: 'other', entity_uri: 'not an iri', file: file('x', 'a.txt') },
          { entity_uri: ['Enter an absolute IRI (the graph entity the file documents).'] },
        ],
        [
          { site_id: 'hq', category: 'other', sort_order: 'first', file: file('x', 'a.obj') },
          { sort_order: ['A valid integer is required.'] },
        ],
        [
          { site_id: 'hq', category: 'other', sort_order: '-1', file: file('x', 'a.obj') },
          { sort_order: ['Ensure this value is greater than or equal to 0.'] },
        ],
        [
          { site_id: 'hq', category: 'other', sort_order: '99999999999999999999', file: file('x', 'a.obj') },
          { sort_order: ['Ensure this value is less than or equal to 2147483647.'] },
        ],
        [
          { site_id: 'hq', category: 'other', sort_order: '2.5', file: file('x', 'a.obj') },
          { sort_order: ['A valid integer is required.'] },
        ],
        [
          { site_id: 'hq', category: 'other', format: 'stl', file: file('x', 'a.stl') },
          { format: ['"stl" is not a valid choice.'] },
        ],
        [
          { site_id: 'hq', category: 'other', source_ifc: 'nope', file: file('x', 'a.frag') },
          { source_ifc: ['Must be a valid UUID.'] },
        ],
        [
          {
            site_id: 'hq',
            category: 'other',
            source_ifc: '00000000-0000-4000-8000-000000000000',
            file: file('x', 'a.frag'),
          },
          { source_ifc: ['No IFC file with this id on this site.'] },
        ],
      ];
      for (const [fields, errors] of cases) {
        await leavesBlobsAlone(async () => {
          const response = await postForm(h, '/api/files/', fields, { token: writer });
          expect(response.status, JSON.stringify(fields).slice(0, 200)).toBe(400);
          expect(await response.json()).toEqual(errors);
        });
      }
    });

    it('keeps nothing of an upload the client abandons half-way', async () => {
      await leavesBlobsAlone(async () => {
        const boundary = '----bkgAbandoned';
        const head = `--${boundary}\r\nContent-Disposition: form-data; name="site_id"\r\n\r\nhq\r\n--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
        const abort = new AbortController();
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(head));
          },
          async pull(controller) {
            if (sent >= 4 * 1024 * 1024) {
              abort.abort();
              return;
            }
            sent += 256 * 1024;
            controller.enqueue(randomBytes(256 * 1024));
            await new Promise((resolve) => setTimeout(resolve, 5));
          },
        });
        const request = h.fetch('/api/files/', {
          method: 'POST',
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
          body,
          signal: abort.signal,
          duplex: 'half',
        } as RequestInit);
        await expect(request).rejects.toThrow();
        // The service notices the closed connection and removes the partial bytes on its own time.
        const tempDir = variant.kind === 'local' ? join(dataDir, 'blobs', '.tmp') : join(dataDir, 'tmp', 's3-spool');
        for (let i = 0; i < 100 && (await readdir(tempDir)).length > 0; i++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(await readdir(tempDir)).toEqual([]);
      });
      expect(await (await h.fetch('/api/files/?site_id=hq')).json()).not.toContainEqual(
        expect.objectContaining({ name: 'big.bin' }),
      );
    });

    it('refuses a second file and anything but multipart', async () => {
      await leavesBlobsAlone(async () => {
        const form = new FormData();
        form.append('site_id', 'hq');
        form.append('category', 'other');
        form.append('file', file('one', 'one.txt'));
        form.append('file', file('two', 'two.txt'));
        const response = await h.fetch('/api/files/', { method: 'POST', body: form });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ file: ['Send one file, in the field "file".'] });
        const elsewhere = await postForm(h, '/api/files/', {
          site_id: 'hq',
          category: 'other',
          attachment: file('x', 'x.txt'),
        });
        expect(elsewhere.status).toBe(400);
        expect(await elsewhere.json()).toEqual({ attachment: ['Send one file, in the field "file".'] });
      });
      const json = await h.fetch('/api/files/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: 'hq', category: 'other' }),
      });
      expect(json.status).toBe(415);
    });

    it('answers 401 without credentials, 404 for a site the caller cannot see, 403 for read-only callers and the demo site', async () => {
      await leavesBlobsAlone(async () => {
        const fields = () => ({ site_id: 'hq', category: 'other', file: file('x', 'x.txt') });
        expect((await postForm(h, '/api/files/', fields(), { token: null })).status).toBe(401);
        expect((await postForm(h, '/api/files/', fields(), { token: stranger })).status).toBe(404);
        expect((await postForm(h, '/api/files/', { ...fields(), site_id: 'nowhere' })).status).toBe(404);
        expect((await postForm(h, '/api/files/', fields(), { token: reader })).status).toBe(403);
        const demo = await postForm(h, '/api/files/', { ...fields(), site_id: DEMO_SITE });
        expect(demo.status).toBe(403);
        expect(await demo.json()).toMatchObject({ code: 'FORBIDDEN' });
        // The site is checked first even when the file part comes before it.
        const form = new FormData();
        form.append('file', file('x', 'x.txt'));
        form.append('category', 'bogus');
        form.append('site_id', DEMO_SITE);
        expect((await h.fetch('/api/files/', { method: 'POST', body: form })).status).toBe(403);
      });
    });
  });

  describe('GET /api/files/{id}/ and download', () => {
    let record: Record<string, any>;
    const content = 'The quick brown fox jumps over the lazy dog';

    beforeAll(async () => {
      record = await upload({
        site_id: 'hq',
        category: 'spec-sheet',
        file: file(content, 'Datenblatt Lüftung "AHU".txt', 'text/plain'),
      });
    });

    it('serves the bytes as an attachment with type, length, ETag and an RFC 6266 file name', async () => {
      const response = await h.fetch(`/api/files/${record.id}/download/`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(content);
      expect(response.headers.get('content-type')).toBe('text/plain');
      expect(response.headers.get('content-length')).toBe(String(content.length));
      expect(response.headers.get('etag')).toBe(`"${sha256(content)}"`);
      expect(response.headers.get('accept-ranges')).toBe('bytes');
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename="Datenblatt L_ftung _AHU_.txt"; filename*=UTF-8''Datenblatt%20L%C3%BCftung%20%22AHU%22.txt`,
      );
    });

    it('answers 304 to a matching If-None-Match', async () => {
      const response = await h.fetch(`/api/files/${record.id}/download/`, {
        headers: { 'if-none-match': `"${sha256(content)}"` },
      });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe('');
    });

    it('serves byte ranges for viewers', async () => {
      const part = await h.fetch(`/api/files/${record.id}/download/`, { headers: { range: 'bytes=4-8' } });
      expect(part.status).toBe(206);
      expect(await part.text()).toBe('quick');
      expect(part.headers.get('content-range')).toBe(`bytes 4-8/${content.length}`);
      expect(part.headers.get('content-length')).toBe('5');
      const tail = await h.fetch(`/api/files/${record.id}/download/`, { headers: { range: 'bytes=-3' } });
      expect(await tail.text()).toBe('dog');
      const open = await h.fetch(`/api/files/${record.id}/download/`, { headers: { range: 'bytes=40-' } });
      expect(await open.text()).toBe('dog');
      const outside = await h.fetch(`/api/files/${record.id}/download/`, { headers: { range: 'bytes=500-600' } });
      expect(outside.status).toBe(416);
      expect(outside.headers.get('content-range')).toBe(`bytes */${content.length}`);
      const stale = await h.fetch(`/api/files/${record.id}/download/`, {
        headers: { range: 'bytes=0-2', 'if-range': '"stale"' },
      });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(content);
      const current = await h.fetch(`/api/files/${record.id}/download/`, {
        headers: { range: 'bytes=0-2', 'if-range': `"${sha256(content)}"` },
      });
      expect(await current.text()).toBe('The');
    });

    it('answers HEAD with the headers alone', async () => {
      const response = await h.fetch(`/api/files/${record.id}/download/`, { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(content.length));
      expect(await response.text()).toBe('');
    });

    it('answers 404 for unknown, malformed and foreign ids, 401 without credentials', async () => {
      for (const path of [
        '/api/files/00000000-0000-4000-8000-000000000000/',
        '/api/files/not-a-uuid/',
        '/api/files/00000000-0000-4000-8000-000000000000/download/',
      ]) {
        expect((await h.fetch(path)).status).toBe(404);
      }
      const asStranger = { headers: { authorization: `Bearer ${stranger}` } };
      expect((await h.fetch(`/api/files/${record.id}/`, asStranger)).status).toBe(404);
      expect((await h.fetch(`/api/files/${record.id}/download/`, asStranger)).status).toBe(404);
      expect((await fetch(`${h.url}/api/files/${record.id}/`)).status).toBe(401);
      expect((await fetch(`${h.url}/api/files/${record.id}/download/`)).status).toBe(401);
      expect(
        (await h.fetch(`/api/files/${record.id}/`, { headers: { authorization: `Bearer ${reader}` } })).status,
      ).toBe(200);
    });

    it('streams even when a redirect is asked for, if the store cannot presign', async () => {
      const response = await h.fetch(`/api/files/${record.id}/download/?redirect=1`, { redirect: 'manual' });
      if (variant.kind === 'local') {
        expect(response.status).toBe(200);
        expect(await response.text()).toBe(content);
      } else {
        expect(response.status).toBe(302);
      }
      expect((await h.fetch(`/api/files/${record.id}/download/?redirect=maybe`)).status).toBe(400);
    });
  });

  describe('GET /api/files/', () => {
    let site: string;
    const made: Record<string, any>[] = [];

    beforeAll(async () => {
      site = `list-${variant.kind}`;
      await h.services.sites.ensure({ ...demoSiteRecord, id: site, name: 'List site' });
      for (const [i, category] of ['spec-sheet', 'maintenance', 'spec-sheet', 'other', 'spec-sheet'].entries()) {
        made.push(
          await upload({
            site_id: site,
            category,
            entity_uri: i % 2 === 0 ? AHU : '',
            file: file(`file ${i}`, `f${i}.txt`),
          }),
        );
      }
    });

    it('answers the plain array of all matches without limit, oldest first', async () => {
      const all = await (await h.fetch(`/api/files/?site_id=${site}`)).json();
      expect(all.map((f: any) => f.id)).toEqual(made.map((f) => f.id));
      const specs = await (await h.fetch(`/api/files/?site_id=${site}&category=spec-sheet`)).json();
      expect(specs.map((f: any) => f.name)).toEqual(['f0.txt', 'f2.txt', 'f4.txt']);
      const documenting = await (
        await h.fetch(`/api/files/?site_id=${site}&entity_uri=${encodeURIComponent(AHU)}`)
      ).json();
      expect(documenting.map((f: any) => f.name)).toEqual(['f0.txt', 'f2.txt', 'f4.txt']);
    });

    it('pages with limit and offset as {count, next, previous, results}', async () => {
      const first = await (await h.fetch(`/api/files/?site_id=${site}&limit=2`)).json();
      expect(first.count).toBe(5);
      expect(first.results.map((f: any) => f.name)).toEqual(['f0.txt', 'f1.txt']);
      expect(first.previous).toBeNull();
      expect(first.next).toBe(`${h.url}/api/files/?site_id=${site}&limit=2&offset=2`);
      const second = await (await fetch(first.next, { headers: { authorization: `Bearer ${h.adminKey}` } })).json();
      expect(second.results.map((f: any) => f.name)).toEqual(['f2.txt', 'f3.txt']);
      expect(second.previous).toBe(`${h.url}/api/files/?site_id=${site}&limit=2`);
      const last = await (await fetch(second.next, { headers: { authorization: `Bearer ${h.adminKey}` } })).json();
      expect(last).toMatchObject({
        count: 5,
        next: null,
        previous: `${h.url}/api/files/?site_id=${site}&limit=2&offset=2`,
      });
      expect(last.results.map((f: any) => f.name)).toEqual(['f4.txt']);
      const beyond = await (await h.fetch(`/api/files/?site_id=${site}&limit=2&offset=10`)).json();
      expect(beyond).toMatchObject({ count: 5, next: null, results: [] });
    });

    it('lists only sites the caller may read', async () => {
      const mine = await (await h.fetch('/api/files/', { headers: { authorization: `Bearer ${stranger}` } })).json();
      expect(mine.every((f: any) => f.site === 'other')).toBe(true);
      const readerView = await (
        await h.fetch('/api/files/', { headers: { authorization: `Bearer ${reader}` } })
      ).json();
      expect(readerView.length).toBeGreaterThan(0);
      expect(readerView.every((f: any) => f.site === 'hq')).toBe(true);
      expect(
        (await h.fetch(`/api/files/?site_id=hq`, { headers: { authorization: `Bearer ${stranger}` } })).status,
      ).toBe(404);
      expect((await fetch(`${h.url}/api/files/`)).status).toBe(401);
    });

    it('answers 400 for invalid filters and paging', async () => {
      const bad = await h.fetch(`/api/files/?category=photos&limit=0&offset=x`);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({
        category: ['"photos" is not a valid choice.'],
        limit: ['Ensure this value is greater than 0.'],
        offset: ['A valid integer is required.'],
      });
    });
  });

  describe('PUT /api/files/{id}/', () => {
    it('changes fields without touching the bytes (multipart or JSON)', async () => {
      const record = await upload({
        site_id: 'hq',
        category: 'other',
        file: file('unchanged', 'keep.txt', 'text/plain'),
      });
      await leavesBlobsAlone(async () => {
        const response = await postForm(
          h,
          `/api/files/${record.id}/`,
          { category: 'maintenance', name: 'Renamed.txt', storey: 'L1' },
          { method: 'PUT', token: writer },
        );
        expect(response.status).toBe(200);
        const updated = await response.json();
        expect(updated).toMatchObject({
          id: record.id,
          category: 'maintenance',
          name: 'Renamed.txt',
          storey: 'L1',
          size_bytes: 9,
          created_at: record.created_at,
        });
        expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(record.updated_at));
        const json = await h.fetch(`/api/files/${record.id}/`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sort_order: 7, entity_uri: AHU }),
        });
        expect(json.status).toBe(200);
        expect(await json.json()).toMatchObject({ sort_order: 7, entity_uri: AHU, name: 'Renamed.txt' });
      });
      expect(await (await h.fetch(`/api/files/${record.id}/download/`)).text()).toBe('unchanged');
    });

    it('replaces the bytes all at once, removing the old ones', async () => {
      const record = await upload({ site_id: 'hq', category: 'model-3d', file: file('v1', 'tower.obj') });
      const before = await keys();
      const response = await postForm(
        h,
        `/api/files/${record.id}/`,
        { file: file('version two', 'tower-v2.glb', 'model/gltf-binary') },
        { method: 'PUT' },
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        id: record.id,
        name: 'tower.obj',
        size_bytes: 11,
        format: 'glb',
        content_type: 'model/gltf-binary',
      });
      const download = await h.fetch(`/api/files/${record.id}/download/`);
      expect(await download.text()).toBe('version two');
      expect(download.headers.get('etag')).toBe(`"${sha256('version two')}"`);
      const after = await keys();
      expect(after).toHaveLength(before.length);
      expect(after).not.toEqual(before);
    });

    it('refuses invalid changes as a whole: the old record and bytes stay, the new bytes are dropped', async () => {
      const record = await upload({ site_id: 'hq', category: 'other', file: file('original', 'o.txt') });
      await leavesBlobsAlone(async () => {
        const response = await postForm(
          h,
          `/api/files/${record.id}/`,
          { category: 'nonsense', file: file('replacement', 'r.txt') },
          { method: 'PUT' },
        );
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ category: ['"nonsense" is not a valid choice.'] });
        const moved = await postForm(h, `/api/files/${record.id}/`, { site_id: 'other' }, { method: 'PUT' });
        expect(moved.status).toBe(400);
        expect(await moved.json()).toEqual({ site_id: ['A file cannot move to another site.'] });
        const text = await h.fetch(`/api/files/${record.id}/`, {
          method: 'PUT',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        });
        expect(text.status).toBe(415);
      });
      expect(await (await h.fetch(`/api/files/${record.id}/`)).json()).toEqual(record);
      expect(await (await h.fetch(`/api/files/${record.id}/download/`)).text()).toBe('original');
    });

    it('answers 404 for foreign and unknown files, 403 for read-only callers', async () => {
      const record = await upload({ site_id: 'hq', category: 'other', file: file('x', 'x.txt') });
      await leavesBlobsAlone(async () => {
        expect(
          (
            await postForm(
              h,
              `/api/files/${record.id}/`,
              { name: 'y', file: file('y', 'y.txt') },
              { method: 'PUT', token: stranger },
            )
          ).status,
        ).toBe(404);
        expect(
          (
            await postForm(
              h,
              `/api/files/${record.id}/`,
              { name: 'y', file: file('y', 'y.txt') },
              { method: 'PUT', token: reader },
            )
          ).status,
        ).toBe(403);
        expect(
          (await postForm(h, '/api/files/00000000-0000-4000-8000-000000000000/', { name: 'y' }, { method: 'PUT' }))
            .status,
        ).toBe(404);
      });
    });
  });

  describe('DELETE /api/files/{id}/', () => {
    it('removes the record and its bytes', async () => {
      const before = await keys();
      const record = await upload({ site_id: 'hq', category: 'other', file: file('doomed', 'd.txt') });
      expect(
        (
          await h.fetch(`/api/files/${record.id}/`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${reader}` },
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await h.fetch(`/api/files/${record.id}/`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${stranger}` },
          })
        ).status,
      ).toBe(404);
      expect(
        (
          await h.fetch(`/api/files/${record.id}/`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${writer}` },
          })
        ).status,
      ).toBe(204);
      expect((await h.fetch(`/api/files/${record.id}/`)).status).toBe(404);
      expect((await h.fetch(`/api/files/${record.id}/download/`)).status).toBe(404);
      expect((await h.fetch(`/api/files/${record.id}/`, { method: 'DELETE' })).status).toBe(404);
      expect(await keys()).toEqual(before);
    });

    it('clears source_ifc on fragments of a deleted IFC', async () => {
      const ifc = await upload({ site_id: 'hq', category: 'bim-source', file: file('ifc', 'a.ifc') });
      const frag = await upload({
        site_id: 'hq',
        category: 'model-3d',
        source_ifc: ifc.id,
        file: file('frag', 'a.frag'),
      });
      expect((await h.fetch(`/api/files/${ifc.id}/`, { method: 'DELETE' })).status).toBe(204);
      expect(await (await h.fetch(`/api/files/${frag.id}/`)).json()).toMatchObject({ source_ifc: null });
    });
  });

  describe('the sweep of unrecorded bytes', () => {
    it('removes old bytes no record points to and keeps every recorded file', async () => {
      const record = await upload({ site_id: 'hq', category: 'other', file: file('kept', 'kept.txt') });
      const recorded = await keys();
      const orphan = h.services.files.newBlobKey();
      await h.services.blobs.put(orphan, Readable.from([Buffer.from('left behind')]), { contentType: 'text/plain' });
      expect(await h.services.files.sweep(new Date(Date.now() - 60_000))).toBe(0);
      expect(await keys()).toContain(orphan);
      expect(await h.services.files.sweep(new Date(Date.now() + 60_000))).toBe(1);
      expect(await keys()).toEqual(recorded);
      expect(await (await h.fetch(`/api/files/${record.id}/download/`)).text()).toBe('kept');
    });
  });

  describe('deleting a site', () => {
    it('removes its files, records and bytes', async () => {
      const created = await h.fetch('/api/v1/sites/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: `gone-${variant.kind}`, name: 'Gone' }),
      });
      expect(created.status).toBe(201);
      const before = await keys();
      const a = await upload({ site_id: `gone-${variant.kind}`, category: 'other', file: file('a', 'a.txt') });
      await upload({ site_id: `gone-${variant.kind}`, category: 'model-3d', file: file('b', 'b.glb') });
      expect((await keys()).length).toBe(before.length + 2);
      expect((await h.fetch(`/api/v1/sites/gone-${variant.kind}`, { method: 'DELETE' })).status).toBe(204);
      expect((await h.fetch(`/api/files/${a.id}/`)).status).toBe(404);
      expect(await keys()).toEqual(before);
      expect(await h.services.files.list({ sites: '*', site: `gone-${variant.kind}` })).toEqual([]);
    });
  });
});

describeVariants('the upload limit on $name', storeVariants(), (variant) => {
  let h: Harness;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bkg-files-'));
    h = await createHarness({
      sites: { hq: SITE_TTL },
      env: { ...variant.env(dataDir), BKG_MAX_FILE_UPLOAD_BYTES: '100000' },
    });
  });

  afterAll(async () => {
    await h?.close();
    await variant.teardown();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('accepts a file of exactly the limit', async () => {
    const response = await postForm(h, '/api/files/', {
      site_id: 'hq',
      category: 'other',
      file: file(randomBytes(100_000), 'max.bin'),
    });
    expect(response.status).toBe(201);
    expect((await response.json()).size_bytes).toBe(100_000);
  });

  it('answers 413 above it and keeps nothing', async () => {
    const before = await variant.keys(dataDir);
    const response = await postForm(h, '/api/files/', {
      site_id: 'hq',
      category: 'other',
      file: file(randomBytes(100_001), 'over.bin'),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: 100_000 });
    // A body declared far too large is refused before it is read.
    const huge = await postForm(h, '/api/files/', {
      site_id: 'hq',
      category: 'other',
      file: file(randomBytes(3 * 1024 * 1024), 'huge.bin'),
    });
    expect(huge.status).toBe(413);
    expect(await variant.keys(dataDir)).toEqual(before);
    expect(await (await h.fetch('/api/files/?site_id=hq')).json()).toHaveLength(1);
  });
});
