import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { TransactionDatabase, type Connection } from './transaction-database.ts';
import type { Database } from './database.ts';
import { applyMigrations, readMigrations } from './migrate.ts';
import { databaseUnavailable, hasSqlState } from './sql-errors.ts';

// PGlite throws errors without a SQLSTATE only when the engine itself failed (closed, aborted,
// file system): those make the database unavailable; SQL errors pass through for the stores.
const translate = (error: unknown): unknown => (hasSqlState(error) ? error : databaseUnavailable(error));

const connectionOf = (target: PGlite | Transaction): Connection => ({
  async query<T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await target.query<T>(sql, [...params])).rows;
    } catch (error) {
      throw translate(error);
    }
  },
  async exec(sql: string): Promise<void> {
    try {
      await target.exec(sql);
    } catch (error) {
      throw translate(error);
    }
  },
});

/** PGlite (PostgreSQL in WASM) persisted in a directory: one connection, statements serialised. */
class PgliteDatabase implements Database {
  readonly kind = 'pglite';
  private readonly connection: Connection;

  constructor(private readonly pglite: PGlite) {
    this.connection = connectionOf(pglite);
  }

  query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.connection.query<T>(sql, params);
  }

  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    return this.withTransaction((connection) => {
      const tx = new TransactionDatabase(this.kind, connection);
      return work(tx).finally(() => tx.end());
    });
  }

  /** Runs `work` on a transaction; PGlite holds other statements back until it ends. */
  async withTransaction<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
    let workFailed = false;
    try {
      return await this.pglite.transaction(async (tx) => {
        try {
          return await work(connectionOf(tx));
        } catch (error) {
          workFailed = true;
          throw error;
        }
      });
    } catch (error) {
      // The work's own errors pass as they are; BEGIN and COMMIT failures are translated here.
      throw workFailed ? error : translate(error);
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

/** Opens (creating if needed) the PGlite database in `<dataDir>/records` and migrates it. */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  const directory = join(dataDir, 'records');
  let pglite: PGlite;
  try {
    await mkdir(directory, { recursive: true });
    pglite = await PGlite.create(directory, {
      // PostgreSQL's 128 MB of shared buffers are touched as it starts, and a WASM engine's memory
      // is the process's own: 32 MB keeps ~90 MB of it and a fifth of a second of each start.
      // Reads past them come from the operating system's page cache, through the file system.
      startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
    });
  } catch (error) {
    throw databaseUnavailable(error);
  }
  const database = new PgliteDatabase(pglite);
  try {
    const migrations = await readMigrations();
    await database.withTransaction((connection) =>
      applyMigrations(connection, migrations, { lockName: 'bkg-migrations' }),
    );
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}
