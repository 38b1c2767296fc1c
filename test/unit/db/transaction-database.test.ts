import { describe, expect, it } from 'vitest';
import { TransactionDatabase, type Connection } from '../../../src/db/transaction-database.ts';

const recording = (failOn?: string) => {
  const statements: string[] = [];
  const connection: Connection = {
    async query<T extends Record<string, unknown>>(sql: string): Promise<T[]> {
      statements.push(sql);
      if (failOn && sql.includes(failOn)) throw new Error(`failed: ${sql}`);
      return [];
    },
    async exec(sql: string) {
      statements.push(sql);
    },
  };
  return { connection, statements };
};

describe('TransactionDatabase', () => {
  it('runs a nested transaction as a savepoint, released when it resolves', async () => {
    const { connection, statements } = recording();
    const tx = new TransactionDatabase('postgres', connection);
    expect(await tx.transaction(async (inner) => (await inner.query('SELECT 1'), 'done'))).toBe('done');
    expect(statements).toEqual(['SAVEPOINT bkg_savepoint_1', 'SELECT 1', 'RELEASE SAVEPOINT bkg_savepoint_1']);
  });

  it('rolls back to the savepoint and rethrows the work’s error', async () => {
    const { connection, statements } = recording();
    const tx = new TransactionDatabase('pglite', connection);
    const failure = new Error('boom');
    await expect(tx.transaction(async () => Promise.reject(failure))).rejects.toBe(failure);
    expect(statements).toEqual(['SAVEPOINT bkg_savepoint_1', 'ROLLBACK TO SAVEPOINT bkg_savepoint_1']);
  });

  it('keeps the work’s error when the rollback fails too', async () => {
    const { connection } = recording('ROLLBACK');
    const failure = new Error('boom');
    await expect(
      new TransactionDatabase('postgres', connection).transaction(async () => Promise.reject(failure)),
    ).rejects.toBe(failure);
  });

  it('refuses use once ended, and cannot close the database', async () => {
    const tx = new TransactionDatabase('postgres', recording().connection);
    await expect(tx.close()).rejects.toThrow(TypeError);
    tx.end();
    await expect(tx.query('SELECT 1')).rejects.toThrow(/ended/);
    await expect(tx.ping()).rejects.toThrow(/ended/);
  });
});
