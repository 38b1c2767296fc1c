import type { Database } from './database.ts';
import { openPgliteDatabase } from './pglite-database.ts';
import { openPostgresDatabase } from './postgres-database.ts';

/** Where the records live. */
export interface DatabaseOptions {
  /** A `postgres://` URL; unset keeps the records in PGlite under `<dataDir>/records`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL only: a schema (created if missing) that holds every table; PGlite ignores it. */
  schema?: string | undefined;
}

/**
 * Opens the record database and brings its schema up to date. Fails with SERVICE_UNAVAILABLE
 * when the database cannot be reached (the message never includes the URL).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl
    ? openPostgresDatabase(options.databaseUrl, options.schema)
    : openPgliteDatabase(options.dataDir);
}
