import { readdir, readFile } from 'node:fs/promises';
import type { Connection } from './transaction-database.ts';

/** One numbered SQL file from `src/db/migrations/`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const MIGRATION_FILE = /^(\d{3})-([a-z0-9-]+)\.sql$/;

/** Reads the migration files in version order; versions must run 1, 2, 3 … without gaps. */
export async function readMigrations(dir: URL = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = MIGRATION_FILE.exec(file);
    if (!match) throw new Error(`Migration file "${file}" must be named NNN-some-name.sql`);
    const version = Number(match[1]);
    if (version !== migrations.length + 1)
      throw new Error(`Migration "${file}" should be number ${migrations.length + 1}`);
    migrations.push({ version, name: match[2]!, sql: await readFile(new URL(file, dir), 'utf8') });
  }
  return migrations;
}

/** How to apply migrations to one database. */
export interface MigrationTarget {
  /** Names the advisory lock: processes migrating the same tables must use the same name. */
  readonly lockName: string;
  /** PostgreSQL only: a schema to create first (already on the connection's search_path). */
  readonly schema?: string | undefined;
}

/** Schema names are put in SQL text (identifiers cannot be parameters), so only plain ones pass. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in order. Call inside one
 * transaction: the advisory lock (released at commit) makes a second process starting at the same
 * time wait, then find everything applied.
 */
export async function applyMigrations(
  connection: Connection,
  migrations: readonly Migration[],
  target: MigrationTarget,
): Promise<number[]> {
  await connection.query('SELECT pg_advisory_xact_lock(hashtext($1))', [target.lockName]);
  if (target.schema !== undefined) {
    if (!SCHEMA_NAME.test(target.schema))
      throw new TypeError('A schema name must be lower-case letters, digits and underscores');
    await connection.exec(`CREATE SCHEMA IF NOT EXISTS ${target.schema}`);
  }
  await connection.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const rows = await connection.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((row) => row.version));
  const newlyApplied: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await connection.exec(migration.sql);
    await connection.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
      migration.version,
      migration.name,
    ]);
    newlyApplied.push(migration.version);
  }
  return newlyApplied;
}
