import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { BlobStore } from '../../../src/blobs/blob-store.ts';
import { LocalBlobStore } from '../../../src/blobs/local-blob-store.ts';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase, type DatabaseOptions } from '../../../src/db/open-database.ts';
import { serviceUnavailable } from '../../../src/errors/app-error.ts';
import { createLogger } from '../../../src/log/logger.ts';
import type { StoredFile } from '../../../src/files/site-file.ts';
import { SiteFiles, type NewFileFields } from '../../../src/files/site-files.ts';
import { SiteStore } from '../../../src/tenants/site-store.ts';
import { describeVariants, requiredEngineUrl, type Variant } from '../../support/needs.ts';

/** A record engine under test: its database options, and how to clean up after it. */
interface Engine extends Variant {
  options(dir: string): DatabaseOptions;
  teardown(): Promise<void>;
}

const schema = `files_test_${randomBytes(6).toString('hex')}`;
// Like the record-store suite: PGlite, and PostgreSQL at DATABASE_URL in a schema of its own.
const engines: Engine[] = [
  { name: 'PGlite', options: (dir) => ({ dataDir: dir }), teardown: async () => {} },
  {
    name: 'PostgreSQL',
    needs: ['DATABASE_URL'],
    options: (dir) => ({ databaseUrl: requiredEngineUrl('DATABASE_URL'), dataDir: dir, schema }),
    async teardown() {
      const client = new pg.Client({ connectionString: requiredEngineUrl('DATABASE_URL') });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  },
];

const fields = (overrides: Partial<NewFileFields> = {}): NewFileFields => ({
  site: 'hq',
  category: 'other',
  name: 'a.txt',
  entity_uri: '',
  content_type: 'text/plain',
  format: null,
  storey: '',
  sort_order: 0,
  source_ifc: null,
  ...overrides,
});

/** A BlobStore whose deletes can be made to fail, as a store going down would. */
class FlakyBlobs {
  failDeletes = false;
  constructor(readonly inner: BlobStore) {}
  store(): BlobStore {
    return new Proxy(this.inner, {
      get: (target, property, receiver) => {
        if (property === 'delete' && this.failDeletes)
          return async () => Promise.reject(serviceUnavailable('The file store is unavailable.'));
        const value = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

describeVariants('site files on $name', engines, (engine) => {
  let dir: string;
  let db: Database;
  let blobs: FlakyBlobs;
  let files: SiteFiles;

  const put = async (content: string) => {
    const key = files.newBlobKey();
    return {
      key,
      ...(await blobs.inner.put(key, Readable.from([Buffer.from(content)]), { contentType: 'text/plain' })),
    };
  };
  const create = async (content: string, overrides: Partial<NewFileFields> = {}) =>
    files.create(fields(overrides), await put(content));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-site-files-'));
    db = await openDatabase(engine.options(dir));
    blobs = new FlakyBlobs(await LocalBlobStore.open(join(dir, 'blobs')));
    files = new SiteFiles(db, blobs.store(), createLogger({ logLevel: 'silent' }));
    const sites = new SiteStore(db);
    for (const id of ['hq', 'other'])
      await sites.ensure({
        id,
        name: id,
        organization: null,
        address: null,
        city: null,
        country: null,
        country_code: null,
        latitude: null,
        longitude: null,
        timezone: 'UTC',
      });
  });

  afterAll(async () => {
    await db?.close();
    await engine.teardown();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    blobs.failDeletes = false;
    for (const file of await files.list({ sites: '*' })) await files.delete(file.id);
  });

  it('records stored bytes and reads them back', async () => {
    const file = await create('hello', { name: 'Grüße.txt', entity_uri: 'https://example.org/hq#AHU-1' });
    expect(file).toMatchObject({
      site: 'hq',
      name: 'Grüße.txt',
      size_bytes: 5,
      format: null,
      storey: '',
      sort_order: 0,
      source_ifc: null,
    });
    expect(await files.get(file.id)).toEqual(file);
    expect(await text(await blobs.inner.get(file.blob_key))).toBe('hello');
  });

  it('keeps sizes beyond 32 bits exact', async () => {
    const upload = { key: files.newBlobKey(), size: 5_000_000_000, sha256: 'a'.repeat(64) };
    const file = await files.create(fields(), upload);
    expect(file.size_bytes).toBe(5_000_000_000);
    expect((await files.get(file.id))!.size_bytes).toBe(5_000_000_000);
  });

  it('lists by site, category and entity, oldest first, and pages', async () => {
    const made: StoredFile[] = [];
    for (const [i, category] of (['spec-sheet', 'maintenance', 'spec-sheet'] as const).entries())
      made.push(await create(`${i}`, { category, entity_uri: i === 2 ? 'urn:x' : '' }));
    await create('elsewhere', { site: 'other' });
    expect((await files.list({ sites: ['hq'] })).map((f) => f.id)).toEqual(made.map((f) => f.id));
    expect((await files.list({ sites: '*', site: 'hq', category: 'spec-sheet' })).map((f) => f.id)).toEqual([
      made[0]!.id,
      made[2]!.id,
    ]);
    expect((await files.list({ sites: '*', entityUri: 'urn:x' })).map((f) => f.id)).toEqual([made[2]!.id]);
    expect(await files.count({ sites: ['hq', 'other'] })).toBe(4);
    expect(await files.count({ sites: [] })).toBe(0);
    expect(await files.list({ sites: [] })).toEqual([]);
    expect((await files.list({ sites: ['hq'] }, { limit: 2, offset: 1 })).map((f) => f.id)).toEqual([
      made[1]!.id,
      made[2]!.id,
    ]);
  });

  it('lists a site’s models by sort_order, then upload time, filtered by format and storey', async () => {
    const b = await create('b', { format: 'glb', sort_order: 2, storey: 'L2' });
    const a = await create('a', { format: 'ifc', sort_order: 1 });
    const c = await create('c', { format: 'obj', sort_order: 2, storey: 'L2' });
    await create('not a model');
    expect((await files.models('hq')).map((f) => f.id)).toEqual([a.id, b.id, c.id]);
    expect((await files.models('hq', { format: 'glb' })).map((f) => f.id)).toEqual([b.id]);
    expect((await files.models('hq', { storey: 'L2' })).map((f) => f.id)).toEqual([b.id, c.id]);
    expect(await files.models('other')).toEqual([]);
  });

  it('replaces bytes: the record moves to the new key, the old bytes go', async () => {
    const file = await create('v1');
    const upload = await put('version 2');
    const updated = await files.update(file.id, { name: 'b.txt' }, upload);
    expect(updated).toMatchObject({
      name: 'b.txt',
      blob_key: upload.key,
      size_bytes: 9,
      sha256: upload.sha256,
      created_at: file.created_at,
    });
    expect(await blobs.inner.stat(file.blob_key)).toBeUndefined();
    expect(await text(await blobs.inner.get(upload.key))).toBe('version 2');
  });

  it('drops the new bytes when the record cannot change, and keeps the old', async () => {
    const file = await create('v1');
    const upload = await put('v2');
    await expect(files.update(file.id, { category: 'nonsense' as never }, upload)).rejects.toThrow();
    expect(await files.get(file.id)).toEqual(file);
    expect(await blobs.inner.stat(upload.key)).toBeUndefined();
    expect(await blobs.inner.stat(file.blob_key)).toEqual({ size: 2 });
    const gone = await put('v3');
    expect(await files.update('00000000-0000-4000-8000-000000000000', {}, gone)).toBeUndefined();
    expect(await blobs.inner.stat(gone.key)).toBeUndefined();
  });

  it('drops the bytes when the record cannot be written', async () => {
    const upload = await put('orphan?');
    await expect(files.create(fields({ site: 'no-such-site' }), upload)).rejects.toThrow();
    expect(await blobs.inner.stat(upload.key)).toBeUndefined();
  });

  it('deletes record and bytes together; when the store fails, neither goes', async () => {
    const file = await create('doomed');
    blobs.failDeletes = true;
    await expect(files.delete(file.id)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await files.get(file.id)).toEqual(file);
    expect(await blobs.inner.stat(file.blob_key)).toEqual({ size: 6 });
    blobs.failDeletes = false;
    expect(await files.delete(file.id)).toEqual(file);
    expect(await files.get(file.id)).toBeUndefined();
    expect(await blobs.inner.stat(file.blob_key)).toBeUndefined();
    expect(await files.delete(file.id)).toBeUndefined();
  });

  it('removes a site’s files, all or nothing', async () => {
    const a = await create('a');
    const b = await create('b', { format: 'ifc' });
    await create('c', { format: 'frag', source_ifc: b.id });
    const kept = await create('kept', { site: 'other' });
    blobs.failDeletes = true;
    await expect(files.removeSite('hq')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await files.count({ sites: ['hq'] })).toBe(3);
    blobs.failDeletes = false;
    await files.removeSite('hq');
    expect(await files.count({ sites: ['hq'] })).toBe(0);
    expect(await blobs.inner.stat(a.blob_key)).toBeUndefined();
    expect(await files.get(kept.id)).toEqual(kept);
  });

  it('stores hostile strings as plain data', async () => {
    const hostile = "x'); DROP TABLE site_files; -- $1 \\ \u202e 🏢";
    const file = await create('h', { name: hostile, storey: hostile, entity_uri: hostile });
    expect(await files.get(file.id)).toMatchObject({ name: hostile, storey: hostile, entity_uri: hostile });
    expect((await files.list({ sites: '*', entityUri: hostile })).map((f) => f.id)).toEqual([file.id]);
    expect(await files.models('hq', { storey: hostile })).toEqual([]);
  });
});
