import { join } from 'node:path';
import type { FilesConfig } from '../config/config.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { localBlobRoot, spoolDir } from './temp-dir.ts';

/**
 * Opens the BlobStore the configuration names: S3 when an endpoint is set, else `<dataDir>/blobs`.
 * The S3 client is imported only then (it takes a third of a second to load).
 */
export async function openBlobStore(files: Pick<FilesConfig, 's3'>, dataDir: string): Promise<BlobStore> {
  if (!files.s3) return LocalBlobStore.open(localBlobRoot(dataDir));
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  return S3BlobStore.open(files.s3, join(spoolDir(dataDir), 's3-spool'));
}
