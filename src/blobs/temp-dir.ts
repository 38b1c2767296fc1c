import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where requests and jobs keep temporary files in the data directory: graph uploads (`upload-*`),
 * the S3 spool (`s3-spool/`), IFC jobs (`ifc/`) and documents on their way to a SPARQL store
 * (`sparql-load/`).
 */
export const spoolDir = (dataDir: string): string => join(dataDir, 'tmp');

/** Where the local blob store keeps file bytes. */
export const localBlobRoot = (dataDir: string): string => join(dataDir, 'blobs');

/** Where the local blob store writes a file before renaming it into place: beside the bytes, on their file system. */
export const blobTempDir = (blobRoot: string): string => join(blobRoot, '.tmp');

/** What a sweep removed: its files (at any depth) and their bytes. */
export interface Swept {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Empties the data directory's temporary directories, at start only: then no request or job of this
 * process owns anything in them, and a data directory is one process's (docs/operations.md), so all
 * that is there was left by a process that ended without cleaning up (a kill, a crash). A rule by
 * age could not tell such a file from a live one, which may sit unwritten for minutes (an upload
 * being loaded, an IFC file being read), and would keep what a crash left through quick restarts.
 */
export async function sweepTemporaryFiles(dataDir: string): Promise<Swept> {
  let files = 0;
  let bytes = 0;
  for (const dir of [spoolDir(dataDir), blobTempDir(localBlobRoot(dataDir))]) {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const file of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!file.isFile()) continue;
      files += 1;
      bytes += (await stat(join(file.parentPath, file.name))).size;
    }
    // The entries, not the directory: it may be a mount point.
    for (const entry of entries) await rm(join(dir, entry.name), { recursive: true, force: true });
  }
  return { files, bytes };
}
