import type { Database } from './database.ts';

/** What each engine offers inside one open transaction. */
export interface Connection {
  /** One parameterised statement. */
  query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Several statements without parameters (migration files). */
  exec(sql: string): Promise<void>;
}

/**
 * The Database handed to transaction work: statements go to the transaction's connection,
 * nested transactions become savepoints, and the handle refuses use once the transaction ended
 * (so a stray late statement can never land on a pooled connection someone else now holds).
 */
export class TransactionDatabase implements Database {
  private ended = false;
  private savepoints = 0;

  constructor(
    readonly kind: Database['kind'],
    private readonly connection: Connection,
  ) {}

  /** Marks the transaction as finished; later calls on this handle throw. */
  end(): void {
    this.ended = true;
  }

  async query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    this.assertOpen();
    return this.connection.query<T>(sql, params);
  }

  async transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    this.assertOpen();
    const savepoint = `bkg_savepoint_${++this.savepoints}`;
    await this.connection.query(`SAVEPOINT ${savepoint}`);
    const nested = new TransactionDatabase(this.kind, this.connection);
    try {
      const result = await work(nested);
      await this.connection.query(`RELEASE SAVEPOINT ${savepoint}`);
      return result;
    } catch (error) {
      // If even this fails the transaction is aborted, and its COMMIT will fail: the work's error wins.
      await this.connection.query(`ROLLBACK TO SAVEPOINT ${savepoint}`).catch(() => undefined);
      throw error;
    } finally {
      nested.end();
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    throw new TypeError('Close the database, not a transaction');
  }

  private assertOpen(): void {
    if (this.ended) throw new TypeError('This transaction has already ended');
  }
}
