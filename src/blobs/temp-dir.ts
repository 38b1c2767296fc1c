import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Temporary files older than this were left by a crash. */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

/** Creates a directory for temporary upload files and removes the stale ones a crash left in it. */
export async function prepareTempDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(path, { force: true, recursive: true });
  }
}
