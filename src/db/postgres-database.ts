import pg from 'pg';
import { TransactionDatabase, type Connection } from './transaction-database.ts';
import type { Database } from './database.ts';
import { applyMigrations, readMigrations, SCHEMA_NAME } from './migrate.ts';
import { databaseUnavailable, isConnectionFailure } from './sql-errors.ts';

/** Connections per process: enough for concurrent requests, small beside PostgreSQL's default 100. */
const POOL_SIZE = 10;

/** COMMIT of a transaction in which a statement failed: PostgreSQL rolls back and says so only in the command tag. */
class TransactionRolledBackError extends Error {
  readonly code = '25P02';
  constructor() {
    super('Transaction was rolled back instead of committed');
    this.name = 'TransactionRolledBackError';
  }
}

const translate = (error: unknown): unknown => (isConnectionFailure(error) ? databaseUnavailable(error) : error);

/** One checked-out client as a Connection; remembers whether it broke so it is not pooled again. */
class ClientConnection implements Connection {
  broken = false;

  constructor(private readonly client: pg.PoolClient) {}

  async query<T extends Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.run<T>(sql, [...params])).rows;
  }

  async exec(sql: string): Promise<void> {
    await this.run(sql);
  }

  async run<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<pg.QueryResult<T>> {
    try {
      return await this.client.query<T>(sql, params);
    } catch (error) {
      if (isConnectionFailure(error)) this.broken = true;
      throw translate(error);
    }
  }

  release(): void {
    this.client.release(this.broken);
  }
}

/** PostgreSQL through a bounded pool of keep-alive connections. */
class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  private closed = false;

  constructor(private readonly pool: pg.Pool) {}

  async query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    const connection = await this.connect();
    try {
      return await connection.query<T>(sql, params);
    } finally {
      connection.release();
    }
  }

  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    return this.withTransaction((connection) => {
      const tx = new TransactionDatabase(this.kind, connection);
      return work(tx).finally(() => tx.end());
    });
  }

  /** Runs `work` on one client between BEGIN and COMMIT (ROLLBACK if it throws). */
  async withTransaction<T>(work: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = await this.connect();
    try {
      await connection.run('BEGIN');
      let result: T;
      try {
        result = await work(connection);
      } catch (error) {
        // A client that cannot even roll back is not fit for the pool.
        await connection.run('ROLLBACK').catch(() => (connection.broken = true));
        throw error;
      }
      const commit = await connection.run('COMMIT');
      if (commit.command === 'ROLLBACK') throw new TransactionRolledBackError();
      return result;
    } finally {
      connection.release();
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async connect(): Promise<ClientConnection> {
    try {
      return new ClientConnection(await this.pool.connect());
    } catch (error) {
      throw databaseUnavailable(error);
    }
  }
}

/**
 * Connects to PostgreSQL and migrates it. With `schema`, every connection works in that schema
 * (created if missing) through its search_path.
 */
export async function openPostgresDatabase(url: string, schema?: string): Promise<Database> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema))
    throw new TypeError('A schema name must be lower-case letters, digits and underscores');
  let pool: pg.Pool;
  try {
    pool = new pg.Pool({
      connectionString: url,
      max: POOL_SIZE,
      keepAlive: true,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      application_name: 'building-knowledge-graph',
      ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    });
  } catch {
    // A malformed URL: its parse error may quote the URL, password included, so it is not kept.
    throw databaseUnavailable(undefined);
  }
  // An idle client whose server went away emits 'error'; unhandled, that would end the process.
  // The next checkout opens a fresh connection or reports the failure to its caller.
  pool.on('error', () => undefined);
  const database = new PostgresDatabase(pool);
  try {
    const migrations = await readMigrations();
    await database.withTransaction((connection) =>
      applyMigrations(connection, migrations, { lockName: `bkg-migrations:${schema ?? ''}`, schema }),
    );
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}
