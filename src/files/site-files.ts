import { randomUUID } from 'node:crypto';
import type { BlobStore } from '../blobs/blob-store.ts';
import type { Database } from '../db/database.ts';
import { AppError } from '../errors/app-error.ts';
import { IfcModelStore } from './ifc-model-store.ts';
import type { Logger } from '../log/logger.ts';
import {
  SiteFileStore,
  type FileChanges,
  type FileFilter,
  type ModelFilter,
  type NewStoredFile,
} from './site-file-store.ts';
import { readsAsIfc, type StoredFile } from './site-file.ts';

/** Bytes younger than this are never swept: their record may be on its way. */
const SWEEP_GRACE_MS = 60 * 60 * 1000;
const SWEEP_BATCH = 500;

/** QUOTA_EXCEEDED: a site's files would take more than its quota of bytes. */
export const storageQuotaExceeded = (site: string, quotaBytes: number, usedBytes: number) =>
  new AppError(
    'QUOTA_EXCEEDED',
    `The files of site "${site}" may take ${quotaBytes} bytes and take ${usedBytes}: this file does not fit. Delete files of the site to make room.`,
    { quota_bytes: quotaBytes, used_bytes: usedBytes },
  );

/** Fails with QUOTA_EXCEEDED unless `adding` bytes fit in the site's quota once `freeing` bytes are gone; the site's row stays locked until the transaction ends. */
async function requireRoom(
  store: SiteFileStore,
  site: string,
  quotaBytes: number,
  adding: number,
  freeing = 0,
): Promise<void> {
  const used = (await store.siteBytes(site, { lock: true })) - freeing;
  if (used + adding > quotaBytes) throw storageQuotaExceeded(site, quotaBytes, used);
}

/** Bytes already in the BlobStore, not yet recorded. */
export interface StoredUpload {
  readonly key: string;
  readonly size: number;
  readonly sha256: string;
}

/** A new file's record fields: everything but the id, the timestamps and what its bytes decide. */
export type NewFileFields = Omit<NewStoredFile, 'id' | 'size_bytes' | 'blob_key' | 'sha256' | 'generated_from'> & {
  readonly generated_from?: string | null;
};

/** The record fields an update may change (the bytes come as a StoredUpload). */
export type FileFieldChanges = Omit<FileChanges, 'size_bytes' | 'blob_key' | 'sha256'>;

/**
 * Site files: records in the database, bytes in the BlobStore, kept so that a record exists only
 * while its bytes do. Bytes are stored first under a fresh key and recorded after; a failed record
 * write removes them again. A crash between the two (or a store dying before it answers) can
 * leave unrecorded bytes, which `sweep` removes; never a record without bytes.
 */
export class SiteFiles {
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly ifcListeners: Array<(file: StoredFile) => void> = [];

  constructor(
    private readonly db: Database,
    readonly blobs: BlobStore,
    private readonly logger: Logger,
  ) {}

  /** A fresh key for new bytes: keys are never reused, so replacing bytes never touches the old ones. */
  newBlobKey(): string {
    return `files/${randomUUID()}`;
  }

  /** One file, or undefined. */
  get(id: string): Promise<StoredFile | undefined> {
    return this.store().get(id);
  }

  /** Files matching the filter, oldest first, optionally one page of them. */
  list(filter: FileFilter, page?: { limit: number; offset: number }): Promise<StoredFile[]> {
    return this.store().list(filter, page);
  }

  /** How many files match the filter. */
  count(filter: FileFilter): Promise<number> {
    return this.store().count(filter);
  }

  /** A site's model files in display order. */
  models(site: string, filter?: ModelFilter): Promise<StoredFile[]> {
    return this.store().models(site, filter);
  }

  /** Calls `listener` with every file that becomes an IFC file to read (status `pending`), after its record is written. */
  onIfcPending(listener: (file: StoredFile) => void): void {
    this.ifcListeners.push(listener);
  }

  /**
   * The bytes left in a site's quota (negative when it is over), `replacing` a file whose bytes
   * would go. A first answer, without a lock: `create` and `update` check again as they record.
   */
  async roomLeft(site: string, quotaBytes: number, replacing?: StoredFile): Promise<number> {
    return quotaBytes - (await this.store().siteBytes(site)) + (replacing?.size_bytes ?? 0);
  }

  /**
   * Records a file whose bytes are stored; if that fails, the bytes are removed. With
   * `quotaBytes`, QUOTA_EXCEEDED (and nothing recorded) when the site's files would take more.
   */
  async create(
    fields: NewFileFields,
    upload: StoredUpload,
    id: string = randomUUID(),
    quotaBytes?: number,
  ): Promise<StoredFile> {
    const row = {
      ...fields,
      generated_from: fields.generated_from ?? null,
      id,
      size_bytes: upload.size,
      blob_key: upload.key,
      sha256: upload.sha256,
    };
    let file: StoredFile;
    try {
      file =
        quotaBytes === undefined
          ? await this.store().insert(row)
          : await this.db.transaction(async (tx) => {
              const store = new SiteFileStore(tx);
              await requireRoom(store, fields.site, quotaBytes, upload.size);
              return store.insert(row);
            });
    } catch (error) {
      await this.discard(upload.key);
      throw error;
    }
    this.announce(file);
    return file;
  }

  /**
   * Changes a file's record and, with `upload`, its bytes: the record switches to the new bytes in
   * one statement, then the old bytes are removed. On failure the file is as it was and the new
   * bytes are removed. Undefined when the file is gone. An IFC file whose bytes change (or that
   * becomes one) is read again: what was read from it, and the fragments file made from it, go.
   * With `quotaBytes`, new bytes that would take the site's files past it are QUOTA_EXCEEDED.
   */
  async update(
    id: string,
    changes: FileFieldChanges,
    upload?: StoredUpload,
    quotaBytes?: number,
  ): Promise<StoredFile | undefined> {
    let result: { before: StoredFile; after: StoredFile } | undefined;
    try {
      result = await this.db.transaction(async (tx) => {
        const store = new SiteFileStore(tx);
        const before = await store.get(id, { forUpdate: true });
        if (!before) return undefined;
        if (upload && quotaBytes !== undefined)
          await requireRoom(store, before.site, quotaBytes, upload.size, before.size_bytes);
        const bytes = upload && { blob_key: upload.key, size_bytes: upload.size, sha256: upload.sha256 };
        let after = await store.update(id, { ...changes, ...bytes });
        if (!after) return undefined;
        const reads = readsAsIfc(after);
        if (reads ? upload !== undefined || after.ifc === null : after.ifc !== null) {
          for (const generated of await new IfcModelStore(tx).reset(id, reads ? 'pending' : null))
            await this.blobs.delete(generated.blob_key);
          after = (await store.get(id))!;
        }
        return { before, after };
      });
    } catch (error) {
      if (upload) await this.discard(upload.key);
      throw error;
    }
    if (upload) await this.discard(result ? result.before.blob_key : upload.key);
    if (result) this.announce(result.after);
    return result?.after;
  }

  /**
   * Deletes a file: the record and its bytes together. The bytes are removed inside the record's
   * transaction, so when the BlobStore fails the record stays (and the delete can be retried).
   */
  delete(id: string): Promise<StoredFile | undefined> {
    return this.db.transaction(async (tx) => {
      const gone = await new SiteFileStore(tx).delete(id);
      if (!gone) return undefined;
      for (const file of [gone.file, ...gone.generated]) await this.blobs.delete(file.blob_key);
      return gone.file;
    });
  }

  /** Deletes every file of a site (records and bytes), all or nothing as `delete`. */
  async removeSite(site: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const file of await new SiteFileStore(tx).deleteSite(site)) await this.blobs.delete(file.blob_key);
    });
  }

  /**
   * Removes bytes under `files/` that no record points to and that were written before
   * `olderThan`: what a crash between storing and recording left, or an upload whose clean-up
   * failed because the store itself went down. Bytes are recorded within moments of being stored,
   * so a grace period of an hour never touches an upload in progress. Answers how many it removed.
   */
  async sweep(olderThan: Date): Promise<number> {
    let removed = 0;
    let batch: string[] = [];
    const flush = async () => {
      const rows = await this.db.query<{ blob_key: string }>(
        'SELECT blob_key FROM site_files WHERE blob_key = ANY($1::text[])',
        [batch],
      );
      const recorded = new Set(rows.map((row) => row.blob_key));
      for (const key of batch) {
        if (recorded.has(key)) continue;
        await this.blobs.delete(key);
        removed++;
      }
      batch = [];
    };
    for await (const blob of this.blobs.list('files/')) {
      if (blob.modified >= olderThan) continue;
      batch.push(blob.key);
      if (batch.length >= SWEEP_BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    if (removed > 0) this.logger.info({ removed }, 'removed unrecorded file bytes');
    return removed;
  }

  /** Sweeps now and then every `intervalMs`, leaving bytes younger than an hour alone; failures are logged. */
  scheduleSweep(intervalMs: number): void {
    const run = () => {
      this.sweep(new Date(Date.now() - SWEEP_GRACE_MS)).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'sweeping unrecorded file bytes failed'),
      );
    };
    this.sweepTimer = setInterval(run, intervalMs);
    this.sweepTimer.unref();
    setImmediate(run);
  }

  /** Stops the scheduled sweep. */
  stop(): void {
    clearInterval(this.sweepTimer);
  }

  /** Removes bytes no record points to; a failure only costs space, so it is logged, not thrown. */
  async discard(key: string): Promise<void> {
    await this.blobs
      .delete(key)
      .catch((error: unknown) => this.logger.warn({ err: error, key }, 'could not remove unrecorded file bytes'));
  }

  /** Tells the listeners about an IFC file waiting to be read. */
  private announce(file: StoredFile): void {
    if (file.ifc?.status !== 'pending') return;
    for (const listener of this.ifcListeners) listener(file);
  }

  private store(): SiteFileStore {
    return new SiteFileStore(this.db);
  }
}
