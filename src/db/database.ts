/**
 * The record database: sites, API keys and (later) site files and readings. PGlite in the data
 * directory by default, PostgreSQL when a URL is given; both run the same migrations and queries.
 */
export interface Database {
  /** Runs one parameterised statement ($1, $2 …); user values only ever go in `params`. */
  query<T extends Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Runs `work` in one transaction (committed if it resolves, rolled back if it throws). Inside
   * `work`, use only `tx`: a nested `transaction` becomes a savepoint, and statements on `tx` run
   * one after another (do not start two at once on the same `tx`).
   */
  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T>;
  /** Answers when the database can serve queries; throws otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}
