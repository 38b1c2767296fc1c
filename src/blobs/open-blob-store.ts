import { join } from 'node:path';
import type { FilesConfig } from '../config/config.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';

/** Opens the BlobStore the configuration names: S3 when an endpoint is set, else `<dataDir>/blobs`. */
export function openBlobStore(files: Pick<FilesConfig, 's3'>, dataDir: string): Promise<BlobStore> {
  return files.s3 ? S3BlobStore.open(files.s3, join(dataDir, 'tmp', 's3-spool')) : LocalBlobStore.open(join(dataDir, 'blobs'));
}
