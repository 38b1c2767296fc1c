import type { Readable } from 'node:stream';

/** What `put` learned about the bytes it stored. */
export interface StoredBlob {
  readonly size: number;
  /** SHA-256 of the bytes, lower-case hex. */
  readonly sha256: string;
}

/** A key found by `list`. */
export interface ListedBlob {
  readonly key: string;
  readonly modified: Date;
}

/** An inclusive byte range, as HTTP Range gives it. */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** How a presigned download should present itself to the browser. */
export interface PresignOptions {
  readonly expiresSeconds: number;
  readonly contentType: string;
  readonly contentDisposition: string;
}

/**
 * Where file bytes live: the local disk (default) or S3-compatible storage. Every implementation
 * passes the same conformance suite (test/integration/files/blob-store.test.ts).
 *
 * Failures of the store itself are SERVICE_UNAVAILABLE; a missing key is NOT_FOUND.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /**
   * Stores the stream's bytes under `key`, all or nothing: when it rejects (the stream failed, it
   * was longer than `maxBytes`: PAYLOAD_TOO_LARGE, the store failed), nothing is left under `key`.
   * Keys are written once: callers store new bytes under a new key.
   */
  put(
    key: string,
    body: Readable,
    options: { readonly contentType: string; readonly maxBytes?: number },
  ): Promise<StoredBlob>;
  /** The bytes under `key` (or the inclusive `range` of them), as a stream. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The size of the bytes under `key`, or undefined when there are none. */
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Removes the bytes under `key`; removing a missing key succeeds. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix` (a folder such as `files/`), with when its bytes were written. */
  list(prefix: string): AsyncIterable<ListedBlob>;
  /** A short-lived URL that serves the bytes without the service, or undefined when the store has none (local disk). */
  presignedUrl(key: string, options: PresignOptions): Promise<string | undefined>;
  /** Answers when the store can serve; throws SERVICE_UNAVAILABLE otherwise. */
  ping(): Promise<void>;
}

// Keys are made by the service (`files/<uuid>`), never by users; checked anyway, since the local
// store turns them into paths.
const BLOB_KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9.-]*)*$/;

/** Throws unless `key` is a well-formed blob key: lowercase segments separated by `/` (so never `..`). */
export function assertBlobKey(key: string): void {
  if (!BLOB_KEY.test(key) || key.length > 512)
    throw new TypeError(`Invalid blob key: ${JSON.stringify(key).slice(0, 100)}`);
}
