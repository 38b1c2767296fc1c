import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KeyStore } from '../../../src/auth/key-store.ts';
import type { Database } from '../../../src/db/database.ts';
import { openDatabase, type DatabaseOptions } from '../../../src/db/open-database.ts';
import { readMigrations } from '../../../src/db/migrate.ts';
import { AppError } from '../../../src/errors/app-error.ts';
import { SiteStore, type NewSite } from '../../../src/tenants/site-store.ts';
import { describeVariants, requiredEngineUrl, type Variant } from '../../support/needs.ts';

/** One engine under test: where its database lives, and how to clean up after it. */
interface Engine extends Variant {
  readonly kind: Database['kind'];
  setup(): Promise<DatabaseOptions>;
  teardown(): Promise<void>;
}

const randomSchema = () => `records_test_${randomBytes(6).toString('hex')}`;

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

function pgliteEngine(): Engine {
  let dataDir: string | undefined;
  return {
    name: 'PGlite',
    kind: 'pglite',
    async setup() {
      dataDir = await mkdtemp(join(tmpdir(), 'bkg-records-'));
      return { dataDir };
    },
    async teardown() {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL at DATABASE_URL (CI sets postgres://postgres@127.0.0.1:5432/test), in a schema of its own. */
function postgresEngine(): Engine {
  const schema = randomSchema();
  return {
    name: 'PostgreSQL',
    kind: 'postgres',
    needs: ['DATABASE_URL'],
    async setup() {
      return { databaseUrl: requiredEngineUrl('DATABASE_URL'), dataDir: tmpdir(), schema };
    },
    teardown: () => dropSchema(requiredEngineUrl('DATABASE_URL'), schema),
  };
}

const engines: Engine[] = [pgliteEngine(), postgresEngine()];

const site = (id: string, overrides: Partial<NewSite> = {}): NewSite => ({
  id,
  name: `Site ${id}`,
  organization: 'ACME',
  address: '1 Main Street',
  city: 'Berlin',
  country: 'Germany',
  country_code: 'DE',
  latitude: 52.52,
  longitude: 13.405,
  timezone: 'Europe/Berlin',
  ...overrides,
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const HOSTILE = [
  "x'); DROP TABLE sites; --",
  "' OR '1'='1",
  'Robert"; DELETE FROM api_keys; --',
  '$1 $2 ::text',
  'back\\slash \\x00 \\\\',
  '{"a":[1,2]} {a,b} ARRAY[1]',
  'line\nbreak\ttab',
  'ünïcødé 🏢 ‮',
  '%_*?',
];

async function expectAppError(promise: Promise<unknown>, code: AppError['code'], status: number): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code, status });
  return error as AppError;
}

describeVariants('record store on $name', engines, (engine) => {
  let options: DatabaseOptions;
  let db: Database;
  let sites: SiteStore;
  let keys: KeyStore;

  const useDatabase = (database: Database) => {
    db = database;
    sites = new SiteStore(db);
    keys = new KeyStore(db);
  };

  beforeAll(async () => {
    options = await engine.setup();
    useDatabase(await openDatabase(options));
  });

  afterAll(async () => {
    await db?.close();
    await engine.teardown();
  });

  beforeEach(async () => {
    await db.query('DELETE FROM api_keys');
    await db.query('DELETE FROM sites');
  });

  describe('opening', () => {
    it(`is a ${engine.kind} database that answers pings`, async () => {
      expect(db.kind).toBe(engine.kind);
      await expect(db.ping()).resolves.toBeUndefined();
    });

    it('records every migration once', async () => {
      const expected = (await readMigrations()).map((m) => ({ version: m.version, name: m.name }));
      const applied = await db.query('SELECT version, name FROM schema_migrations ORDER BY version');
      expect(applied).toEqual(expected);
    });

    it('opens again without re-applying migrations, keeping the records', async () => {
      await sites.create(site('kept'));
      const before = await db.query('SELECT version, applied_at FROM schema_migrations ORDER BY version');
      const old = db;
      await old.close();
      useDatabase(await openDatabase(options));
      expect(await db.query('SELECT version, applied_at FROM schema_migrations ORDER BY version')).toEqual(before);
      expect((await sites.get('kept'))?.name).toBe('Site kept');
      await expectAppError(old.ping(), 'SERVICE_UNAVAILABLE', 503);
    });

    it.runIf(engine.kind === 'postgres')(
      'migrates once when several processes open a new schema at the same time (only on PostgreSQL)',
      async () => {
        const schema = randomSchema();
        const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ ...options, schema })));
        try {
          expect(opened.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
          const first = (opened[0] as PromiseFulfilledResult<Database>).value;
          const migrations = await readMigrations();
          const applied = await first.query<{ version: number }>(
            'SELECT version FROM schema_migrations ORDER BY version',
          );
          expect(applied.map((row) => row.version)).toEqual(migrations.map((m) => m.version));
          // The new schema is separate from the suite's own.
          await new SiteStore(first).create(site('elsewhere'));
          expect(await sites.has('elsewhere')).toBe(false);
        } finally {
          await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)));
          await dropSchema(options.databaseUrl!, schema);
        }
      },
    );
  });

  describe('sites', () => {
    it('creates a site and reads it back with ISO-8601 UTC timestamps', async () => {
      const created = await sites.create(site('hq'));
      expect(created).toMatchObject(site('hq'));
      expect(created.created_at).toMatch(ISO_UTC);
      expect(created.updated_at).toMatch(ISO_UTC);
      expect(await sites.get('hq')).toEqual(created);
      expect(await sites.has('hq')).toBe(true);
      expect(await sites.has('nowhere')).toBe(false);
      expect(await sites.get('nowhere')).toBeUndefined();
    });

    it('keeps optional fields empty', async () => {
      const bare: NewSite = {
        id: 'bare',
        name: 'Bare',
        organization: null,
        address: null,
        city: null,
        country: null,
        country_code: null,
        latitude: null,
        longitude: null,
        timezone: 'UTC',
      };
      expect(await sites.create(bare)).toMatchObject(bare);
    });

    it('lists all sites, or only those asked for, ordered by id', async () => {
      for (const id of ['c', 'a', 'b']) await sites.create(site(id));
      expect((await sites.list()).map((s) => s.id)).toEqual(['a', 'b', 'c']);
      expect((await sites.list('*')).map((s) => s.id)).toEqual(['a', 'b', 'c']);
      expect((await sites.list(['c', 'a', 'unknown'])).map((s) => s.id)).toEqual(['a', 'c']);
      expect(await sites.list([])).toEqual([]);
    });

    it('refuses a second site with the same id with CONFLICT and keeps the first', async () => {
      const first = await sites.create(site('dup'));
      const error = await expectAppError(sites.create(site('dup', { name: 'Other' })), 'CONFLICT', 409);
      expect(error.message).toContain('dup');
      expect(await sites.get('dup')).toEqual(first);
    });

    it('ensure creates a missing site and returns an existing one unchanged', async () => {
      const created = await sites.ensure(site('boot'));
      expect(created).toMatchObject(site('boot'));
      const again = await sites.ensure(site('boot', { name: 'Renamed', city: 'Paris' }));
      expect(again).toEqual(created);
      expect(await sites.list()).toEqual([created]);
    });

    it('deletes a site once', async () => {
      await sites.create(site('gone'));
      expect(await sites.delete('gone')).toBe(true);
      expect(await sites.has('gone')).toBe(false);
      expect(await sites.delete('gone')).toBe(false);
    });

    it('trusts a site it found for existenceTtlMs: its own delete is seen at once, another replica’s after that', async () => {
      const replica = new SiteStore(db, 300);
      await sites.create(site('cached'));
      await sites.create(site('elsewhere-gone'));
      expect(await replica.has('cached')).toBe(true);
      expect(await replica.has('elsewhere-gone')).toBe(true);
      // Deleted through the replica: gone for it at once.
      expect(await replica.delete('cached')).toBe(true);
      expect(await replica.has('cached')).toBe(false);
      // Deleted through another instance (another replica): seen once the replica's trust lapses.
      expect(await sites.delete('elsewhere-gone')).toBe(true);
      expect(await replica.has('elsewhere-gone')).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await replica.has('elsewhere-gone')).toBe(false);
      // A site is never trusted not to exist: one created elsewhere is found at once.
      expect(await replica.has('late')).toBe(false);
      await sites.create(site('late'));
      expect(await replica.has('late')).toBe(true);
    });
  });

  describe('API keys', () => {
    it('creates a key whose secret verifies to its record', async () => {
      const { record, secret } = await keys.create({ name: 'reader', sites: ['a', 'b'], write: false, admin: false });
      expect(secret).toMatch(/^bkg_[A-Za-z0-9_-]{43}$/);
      expect(record).toMatchObject({
        name: 'reader',
        sites: ['a', 'b'],
        write: false,
        admin: false,
        last_used_at: null,
        revoked_at: null,
      });
      expect(record.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(record.created_at).toMatch(ISO_UTC);
      const verified = await keys.verify(secret);
      expect(verified).toMatchObject({ id: record.id, name: 'reader', sites: ['a', 'b'], write: false, admin: false });
      expect(verified?.last_used_at).toMatch(ISO_UTC);
    });

    it('gives all-site keys the sites "*"', async () => {
      const { secret } = await keys.create({ name: 'admin', sites: '*', write: true, admin: true });
      expect(await keys.verify(secret)).toMatchObject({ sites: '*', write: true, admin: true });
    });

    it('never stores the secret: only its sha256', async () => {
      const { record, secret } = await keys.create({ name: 'k', sites: '*', write: true, admin: false });
      const [row] = await db.query('SELECT * FROM api_keys WHERE id = $1', [record.id]);
      const values = Object.values(row!).map((value) =>
        value instanceof Date ? value.toISOString() : JSON.stringify(value),
      );
      expect(values.some((value) => value.includes(secret))).toBe(false);
      expect(row!.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
      expect(JSON.stringify(await keys.list())).not.toContain(secret);
    });

    it('lists keys oldest first, revoked ones with revoked_at', async () => {
      const one = await keys.create({ name: 'one', sites: ['a'], write: false, admin: false });
      const two = await keys.create({ name: 'two', sites: '*', write: true, admin: false });
      expect(await keys.revoke(one.record.id)).toBe(true);
      const listed = await keys.list();
      expect(listed.map((k) => k.name)).toEqual(['one', 'two']);
      expect(listed[0]!.revoked_at).toMatch(ISO_UTC);
      expect(listed[1]).toEqual(two.record);
    });

    it('lists keys made at the same time in the order they were made', async () => {
      // PGlite's clock counts milliseconds, so keys made back to back can share created_at; in one
      // transaction they always do (now() is the transaction's start).
      const names = Array.from({ length: 12 }, (_, i) => `key ${i}`);
      await db.transaction(async (tx) => {
        for (const name of names) await new KeyStore(tx).create({ name, sites: '*', write: false, admin: false });
      });
      const listed = await keys.list();
      expect(new Set(listed.map((k) => k.created_at)).size).toBe(1);
      expect(listed.map((k) => k.name)).toEqual(names);
    });

    it('refuses a revoked key at once', async () => {
      const { record, secret } = await keys.create({ name: 'k', sites: '*', write: false, admin: false });
      expect(await keys.verify(secret)).toBeDefined();
      expect(await keys.revoke(record.id)).toBe(true);
      expect(await keys.verify(secret)).toBeUndefined();
      expect(await keys.revoke(record.id)).toBe(true);
    });

    it('asks the database once for a key verified again within its verified time', async () => {
      let queries = 0;
      const counted = new Proxy(db, {
        get: (target, name, receiver) =>
          name === 'query'
            ? (...args: Parameters<Database['query']>) => (queries++, target.query(...args))
            : Reflect.get(target, name, receiver),
      });
      const verifying = new KeyStore(counted);
      const { secret } = await keys.create({ name: 'k', sites: '*', write: false, admin: false });
      expect(await verifying.verify(secret)).toMatchObject({ name: 'k' });
      // The key is read, and its first use written.
      expect(queries).toBe(2);
      for (let i = 0; i < 10; i++) expect(await verifying.verify(secret)).toMatchObject({ name: 'k' });
      expect(queries).toBe(2);
      // An unknown secret is asked for every time.
      const unknown = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
      for (let i = 0; i < 3; i++) expect(await verifying.verify(unknown)).toBeUndefined();
      expect(queries).toBe(5);
    });

    it('keeps nothing of a verification that read the key before a revocation', async () => {
      const { record, secret } = await keys.create({ name: 'k', sites: '*', write: false, admin: false });
      // The read of the key waits until the revocation is done.
      let revoked!: () => void;
      const revocation = new Promise<void>((resolve) => (revoked = resolve));
      const slowRead = new Proxy(db, {
        get: (target, name, receiver) =>
          name === 'query'
            ? async (...args: Parameters<Database['query']>) => {
                const rows = await target.query(...args);
                if (args[0].startsWith('SELECT')) await revocation;
                return rows;
              }
            : Reflect.get(target, name, receiver),
      });
      const racing = new KeyStore(slowRead);
      const verifying = racing.verify(secret);
      // Through the same store, as the keys routes and the authentication share one.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await racing.revoke(record.id)).toBe(true);
      revoked();
      // Read before the revocation: answered as read, but not kept.
      expect(await verifying).toBeDefined();
      expect(await racing.verify(secret)).toBeUndefined();
    });

    it('a key revoked through another process is refused once its verified time has passed', async () => {
      const other = new KeyStore(db, { verifiedKeySeconds: 1 });
      const { record, secret } = await keys.create({ name: 'k', sites: '*', write: false, admin: false });
      expect(await other.verify(secret)).toBeDefined();
      expect(await keys.revoke(record.id)).toBe(true);
      // Through this store, at once; through the other, once it asks the database again.
      expect(await keys.verify(secret)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(await other.verify(secret)).toBeUndefined();
    });

    it('revoking an unknown key answers false', async () => {
      expect(await keys.revoke('00000000-0000-4000-8000-000000000000')).toBe(false);
      expect(await keys.revoke('not-a-uuid')).toBe(false);
    });

    it('refuses unknown secrets, including one sharing a real key’s prefix', async () => {
      const { secret } = await keys.create({ name: 'k', sites: '*', write: false, admin: false });
      const samePrefix = secret.slice(0, 12) + (secret[12] === 'A' ? 'B' : 'A') + secret.slice(13);
      for (const attempt of [
        samePrefix,
        `bkg_${randomBytes(32).toString('base64url')}`,
        '',
        'bkg_',
        secret + 'x',
        secret.slice(0, -1),
      ]) {
        expect(await keys.verify(attempt)).toBeUndefined();
      }
    });

    it('writes last_used_at at most once a minute', async () => {
      const { record, secret } = await keys.create({ name: 'k', sites: '*', write: false, admin: false });
      const first = (await keys.verify(secret))!.last_used_at;
      expect(first).toMatch(ISO_UTC);
      expect((await keys.verify(secret))!.last_used_at).toBe(first);
      await db.query("UPDATE api_keys SET last_used_at = last_used_at - interval '2 minutes' WHERE id = $1", [
        record.id,
      ]);
      const later = (await keys.verify(secret))!.last_used_at!;
      expect(Date.parse(later)).toBeGreaterThanOrEqual(Date.parse(first!));
    });

    it('removeSite drops the site from keys that list it, never widening a key', async () => {
      const both = await keys.create({ name: 'both', sites: ['a', 'b'], write: false, admin: false });
      const onlyA = await keys.create({ name: 'only-a', sites: ['a'], write: false, admin: false });
      const all = await keys.create({ name: 'all', sites: '*', write: false, admin: false });
      // Verified before: what was verified is not taken as read after the change.
      for (const key of [both, onlyA, all]) expect(await keys.verify(key.secret)).toBeDefined();
      await keys.removeSite('a');
      expect(await keys.verify(both.secret)).toMatchObject({ sites: ['b'] });
      expect(await keys.verify(onlyA.secret)).toMatchObject({ sites: [] });
      expect(await keys.verify(all.secret)).toMatchObject({ sites: '*' });
    });
  });

  describe('transactions', () => {
    it('commits when the work resolves', async () => {
      const result = await db.transaction(async (tx) => {
        await new SiteStore(tx).create(site('committed'));
        return 42;
      });
      expect(result).toBe(42);
      expect(await sites.has('committed')).toBe(true);
    });

    it('rolls back everything when the work throws, and rethrows its error', async () => {
      const failure = new Error('boom');
      await expect(
        db.transaction(async (tx) => {
          await new SiteStore(tx).create(site('rolled-back'));
          await new KeyStore(tx).create({ name: 'k', sites: '*', write: false, admin: false });
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await sites.has('rolled-back')).toBe(false);
      expect(await keys.list()).toEqual([]);
    });

    it('rolls back a failed nested transaction alone', async () => {
      await db.transaction(async (tx) => {
        await new SiteStore(tx).create(site('outer'));
        await expect(
          tx.transaction(async (inner) => {
            await new SiteStore(inner).create(site('inner'));
            await new SiteStore(inner).create(site('outer'));
          }),
        ).rejects.toMatchObject({ code: 'CONFLICT' });
      });
      expect((await sites.list()).map((s) => s.id)).toEqual(['outer']);
    });

    it('deletes a site and its key grants together', async () => {
      await sites.create(site('a'));
      const key = await keys.create({ name: 'k', sites: ['a', 'b'], write: false, admin: false });
      await db.transaction(async (tx) => {
        await new SiteStore(tx).delete('a');
        await new KeyStore(tx).removeSite('a');
      });
      expect(await sites.has('a')).toBe(false);
      expect(await keys.verify(key.secret)).toMatchObject({ sites: ['b'] });
    });

    it('refuses a transaction handle used after the transaction ended', async () => {
      let leaked: Database | undefined;
      await db.transaction(async (tx) => {
        leaked = tx;
      });
      await expect(leaked!.query('SELECT 1')).rejects.toThrow(/ended/);
    });
  });

  describe('hostile values', () => {
    it('stores and finds hostile strings as plain data', async () => {
      for (const [i, text] of HOSTILE.entries()) {
        const id = `${text}-${i}`;
        const created = await sites.create(site(id, { name: text, city: text, timezone: text }));
        expect(created).toMatchObject({ id, name: text, city: text, timezone: text });
        expect(await sites.has(id)).toBe(true);
        expect(await sites.get(id)).toEqual(created);
      }
      const ids = HOSTILE.map((text, i) => `${text}-${i}`);
      expect(await sites.list(ids)).toHaveLength(HOSTILE.length);
      expect(await sites.list(["' OR '1'='1"])).toEqual([]);
      expect(await sites.has("' OR '1'='1")).toBe(false);
      expect(await sites.delete("' OR '1'='1")).toBe(false);
      expect(await sites.list()).toHaveLength(HOSTILE.length);
    });

    it('keeps hostile key names and site ids as data', async () => {
      const hostileSites = [...HOSTILE];
      const { secret } = await keys.create({ name: HOSTILE[0]!, sites: hostileSites, write: false, admin: false });
      expect(await keys.verify(secret)).toMatchObject({ name: HOSTILE[0], sites: hostileSites });
      await keys.removeSite("' OR '1'='1");
      expect(await keys.verify(secret)).toMatchObject({ sites: hostileSites.filter((s) => s !== "' OR '1'='1") });
      for (const text of HOSTILE) expect(await keys.verify(text)).toBeUndefined();
      expect(await keys.revoke(HOSTILE[1]!)).toBe(false);
      expect(await keys.list()).toHaveLength(1);
    });
  });
});

describe('an unreachable PostgreSQL', () => {
  it('fails to open with SERVICE_UNAVAILABLE', async () => {
    const error = await expectAppError(
      openDatabase({ databaseUrl: 'postgres://x@127.0.0.1:1/none', dataDir: tmpdir() }),
      'SERVICE_UNAVAILABLE',
      503,
    );
    expect(error.message).toBe('The record database is unavailable');
  });

  it('never shows the URL or its password', async () => {
    const url = 'postgres://someone:hunter2-secret@127.0.0.1:1/none';
    const error = await expectAppError(
      openDatabase({ databaseUrl: url, dataDir: tmpdir() }),
      'SERVICE_UNAVAILABLE',
      503,
    );
    expect(error.message).not.toContain('hunter2');
    expect(error.message).not.toContain('127.0.0.1');
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });
});
