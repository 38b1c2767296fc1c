import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { AppError } from '../errors/app-error.ts';
import type { StoredBlob } from './blob-store.ts';

/** PAYLOAD_TOO_LARGE for a body over `limit` bytes. */
export const tooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${limit} bytes.`, { limit });

/** A pass-through that counts and hashes the bytes, failing with PAYLOAD_TOO_LARGE past `maxBytes`. */
export class MeasureStream extends Transform {
  private size = 0;
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number = Number.POSITIVE_INFINITY) {
    super();
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(tooLarge(this.maxBytes));
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** Size and SHA-256 of everything that passed; call once the stream has finished. */
  result(): StoredBlob {
    return { size: this.size, sha256: this.hash.digest('hex') };
  }
}
