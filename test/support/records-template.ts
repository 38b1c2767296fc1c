/**
 * vitest global setup: one migrated PGlite database, made once per run, that every harness copies
 * instead of creating its own. Creating a PGlite database (initdb in WASM) takes 4–40 s depending on
 * the machine's load; copying a made one and opening it takes a fraction of that.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPgliteDatabase } from '../../src/db/pglite-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite records directory to copy (test/support/harness.ts). */
    recordsTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'bkg-records-template-'));
  const database = await openPgliteDatabase(dir);
  await database.close();
  project.provide('recordsTemplate', join(dir, 'records'));
  return () => rm(dir, { recursive: true, force: true });
}
