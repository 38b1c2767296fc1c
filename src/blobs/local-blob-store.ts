import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, constants, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { AppError, notFound, serviceUnavailable } from '../errors/app-error.ts';
import { assertBlobKey, type BlobStore, type ByteRange, type ListedBlob, type StoredBlob } from './blob-store.ts';
import { MeasureStream } from './measure-stream.ts';
import { pipeToFile } from './pipe-to-file.ts';
import { blobTempDir } from './temp-dir.ts';

const unavailable = (cause: unknown) => serviceUnavailable('The file store is unavailable.', cause);

// File-system failures (disk full, permissions) make the store unavailable; our own errors and a
// failing request body pass as they are.
const translate = (error: unknown): unknown =>
  error instanceof AppError || !(error as { syscall?: unknown })?.syscall ? error : unavailable(error);

/**
 * File bytes on the local disk under `root`: `files/<uuid>` is `<root>/files/<uuid>`. A put writes a
 * temporary file beside them (same file system), flushes it and renames it into place, so a key
 * holds complete bytes or nothing.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local';
  private readonly tempDir: string;

  private constructor(private readonly root: string) {
    this.tempDir = blobTempDir(root);
  }

  /** Opens (creating) the store in `root`; what a crash left in its temporary directory goes at start (temp-dir.ts). */
  static async open(root: string): Promise<LocalBlobStore> {
    const store = new LocalBlobStore(root);
    try {
      await mkdir(store.tempDir, { recursive: true });
    } catch (error) {
      throw unavailable(error);
    }
    return store;
  }

  async put(key: string, body: Readable, options: { readonly maxBytes?: number }): Promise<StoredBlob> {
    const target = this.pathOf(key);
    const temp = join(this.tempDir, randomUUID());
    const measure = new MeasureStream(options.maxBytes);
    try {
      await pipeToFile(body, [measure], temp, { flags: 'wx', flush: true });
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw translate(error);
    }
    return measure.result();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    if (!(await this.stat(key))) throw notFound('The file’s bytes were not found.');
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : undefined;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
      throw translate(error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await rm(this.pathOf(key), { force: true });
    } catch (error) {
      throw translate(error);
    }
  }

  async *list(prefix: string): AsyncIterable<ListedBlob> {
    const folder = prefix.replace(/\/$/, '');
    assertBlobKey(folder);
    let entries;
    try {
      entries = await readdir(join(this.root, ...folder.split('/')), { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return;
      throw translate(error);
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => undefined);
      if (info) yield { key: relative(this.root, path).split(sep).join('/'), modified: info.mtime };
    }
  }

  async presignedUrl(): Promise<undefined> {
    return undefined;
  }

  async ping(): Promise<void> {
    try {
      await access(this.tempDir, constants.W_OK);
    } catch (error) {
      throw unavailable(error);
    }
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return join(this.root, ...key.split('/'));
  }
}
