import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Pipes `source` through `transforms` into a new file at `path`. When the pipeline fails, it waits
 * for the file to be closed before rejecting: a source that fails at once leaves the file still
 * being opened, and a caller removing it then would run before the open creates it.
 */
export async function pipeToFile(
  source: Readable,
  transforms: readonly Transform[],
  path: string,
  options: { flags?: string; flush?: boolean } = {},
): Promise<void> {
  const file = createWriteStream(path, options);
  try {
    await pipeline([source, ...transforms, file]);
  } catch (error) {
    if (!file.closed) await once(file, 'close').catch(() => undefined);
    throw error;
  }
}
