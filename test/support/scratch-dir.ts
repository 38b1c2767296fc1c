/**
 * Where the suite keeps its scratch directories (every harness's data directory, uploads,
 * generated sites): memory, when the machine has a tmpfs with room, else the system's temporary
 * directory. A harness writes a 39 MB records database and deletes it a few seconds later, some
 * hundred times a run; on a disk that is a tenth of the suite's time (docs/development.md,
 * "Running the tests"). `BKG_TEST_TMPDIR` names another place.
 */
import { mkdirSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

/** Free bytes below which the tmpfs is left alone (a container's /dev/shm is often 64 MB). */
const ROOM_NEEDED = 4 * 1024 ** 3;
const TMPFS = '/dev/shm';

/** The scratch directory for this run, or undefined to keep the system's. */
export function scratchDir(env: Record<string, string | undefined>): string | undefined {
  if (env.BKG_TEST_TMPDIR) return env.BKG_TEST_TMPDIR;
  try {
    const stats = statfsSync(TMPFS);
    if (stats.bavail * stats.bsize < ROOM_NEEDED) return undefined;
    const dir = join(TMPFS, 'bkg-tests');
    mkdirSync(dir, { recursive: true });
    return dir;
  } catch {
    return undefined;
  }
}
