import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connection } from '../../../src/db/transaction-database.ts';
import { applyMigrations, readMigrations, type Migration } from '../../../src/db/migrate.ts';

describe('readMigrations', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const folder = async (files: Record<string, string>): Promise<URL> => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-migrations-'));
    for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
    return pathToFileURL(`${dir}/`);
  };

  it('reads the shipped migrations numbered from 1 without gaps', async () => {
    const migrations = await readMigrations();
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.map((m) => m.version)).toEqual(migrations.map((_, i) => i + 1));
  });

  it('orders files by number and names them after the file', async () => {
    const migrations = await readMigrations(
      await folder({ '002-second.sql': 'B', '001-first.sql': 'A', 'notes.txt': '' }),
    );
    expect(migrations).toEqual([
      { version: 1, name: 'first', sql: 'A' },
      { version: 2, name: 'second', sql: 'B' },
    ]);
  });

  it('refuses a gap in the numbers', async () => {
    await expect(readMigrations(await folder({ '001-a.sql': '', '003-c.sql': '' }))).rejects.toThrow(
      /003-c\.sql.*number 2/,
    );
  });

  it('refuses a badly named file', async () => {
    await expect(readMigrations(await folder({ '1_init.sql': '' }))).rejects.toThrow(/NNN-some-name\.sql/);
  });
});

describe('applyMigrations', () => {
  const recording = (applied: number[]) => {
    const statements: string[] = [];
    const connection: Connection = {
      async query<T extends Record<string, unknown>>(sql: string): Promise<T[]> {
        statements.push(sql);
        return (sql.startsWith('SELECT version') ? applied.map((version) => ({ version })) : []) as unknown as T[];
      },
      async exec(sql: string) {
        statements.push(sql);
      },
    };
    return { connection, statements };
  };
  const migrations: Migration[] = [
    { version: 1, name: 'one', sql: 'CREATE TABLE one ()' },
    { version: 2, name: 'two', sql: 'CREATE TABLE two ()' },
  ];

  it('takes the lock before anything else and applies only what is missing', async () => {
    const { connection, statements } = recording([1]);
    expect(await applyMigrations(connection, migrations, { lockName: 'l' })).toEqual([2]);
    expect(statements[0]).toMatch(/pg_advisory_xact_lock/);
    expect(statements).toContain('CREATE TABLE two ()');
    expect(statements).not.toContain('CREATE TABLE one ()');
  });

  it('creates the schema after taking the lock', async () => {
    const { connection, statements } = recording([]);
    await applyMigrations(connection, migrations, { lockName: 'l', schema: 'tenant_1' });
    expect(statements.slice(0, 2)).toEqual([
      'SELECT pg_advisory_xact_lock(hashtext($1))',
      'CREATE SCHEMA IF NOT EXISTS tenant_1',
    ]);
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    const { connection } = recording([]);
    await expect(
      applyMigrations(connection, migrations, { lockName: 'l', schema: 'x; DROP TABLE sites' }),
    ).rejects.toThrow(TypeError);
  });
});
