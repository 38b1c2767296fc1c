import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Request } from 'express';
import { pipeToFile } from '../blobs/pipe-to-file.ts';
import { AppError } from '../errors/app-error.ts';

/** A request body spooled to a temporary file; `remove()` deletes it. */
export interface ReceivedBody {
  readonly path: string;
  readonly bytes: number;
  remove(): Promise<void>;
}

const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The body is larger than the limit of ${limit} bytes.`, { limit });

/**
 * Streams the request body to a file under `directory`, refusing more than `limit` bytes (413).
 * `inspect` sees each chunk as it arrives; what it throws stops the upload, as the limit does.
 */
export async function receiveBody(
  req: Request,
  directory: string,
  limit: number,
  inspect?: (chunk: Buffer) => void,
): Promise<ReceivedBody> {
  const declared = Number(req.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  await mkdir(directory, { recursive: true });
  const path = join(directory, `upload-${randomUUID()}`);
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > limit) return callback(tooLarge(limit));
      try {
        inspect?.(chunk);
      } catch (error) {
        return callback(error as Error);
      }
      callback(null, chunk);
    },
  });
  const remove = () => rm(path, { force: true });
  try {
    await pipeToFile(req, [counter], path);
  } catch (error) {
    await remove();
    throw error;
  }
  return { path, bytes, remove };
}
