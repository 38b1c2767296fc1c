import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Client, S3Error } from 'minio';
import type { S3Config } from '../config/config.ts';
import { AppError, notFound, serviceUnavailable } from '../errors/app-error.ts';
import {
  assertBlobKey,
  type BlobStore,
  type ByteRange,
  type ListedBlob,
  type PresignOptions,
  type StoredBlob,
} from './blob-store.ts';
import { MeasureStream } from './measure-stream.ts';
import { pipeToFile } from './pipe-to-file.ts';

const MISSING = new Set(['NoSuchKey', 'NotFound']);

const unavailable = (cause: unknown) => serviceUnavailable('The file store (S3) is unavailable.', cause);

/** S3 answers and socket failures as application errors: a missing key is NOT_FOUND, anything else SERVICE_UNAVAILABLE. */
function translate(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof S3Error && MISSING.has(error.code ?? '')) return notFound('The file’s bytes were not found.');
  return unavailable(error);
}

/** A minio client for `endpoint` (`http(s)://host[:port]`). Retries are off: a failing store answers 503 at once. */
function clientFor(endpoint: string, config: S3Config): Client {
  const url = new URL(endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // Known up front, so no request is spent asking the bucket for its region.
    region: config.region,
    pathStyle: true,
    retryOptions: { disableRetry: true },
  });
}

/**
 * File bytes in an S3 bucket (MinIO, AWS S3, s3rver), created if missing.
 *
 * An S3 PUT needs the length before the first byte, and an upload's length is known only at its
 * end, so `put` spools the body to a temporary file (streaming, so memory stays flat), then sends it
 * in one PUT of known length with its SHA-256. One PUT rather than a multipart upload: it is atomic
 * on every S3 implementation (s3rver has no multipart upload at all), and it caps an object at 5 GiB.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';

  private constructor(
    private readonly client: Client,
    private readonly presigner: Client,
    private readonly config: S3Config,
    private readonly spoolDir: string,
  ) {}

  /** Connects, creating the bucket if it is missing; SERVICE_UNAVAILABLE when S3 cannot be reached. */
  static async open(config: S3Config, spoolDir: string): Promise<S3BlobStore> {
    const client = clientFor(config.endpoint, config);
    // Presigned URLs are signed for the host viewers reach, which may differ from ours.
    const presigner = config.publicEndpoint === config.endpoint ? client : clientFor(config.publicEndpoint, config);
    try {
      await mkdir(spoolDir, { recursive: true });
      if (!(await client.bucketExists(config.bucket))) {
        await client.makeBucket(config.bucket, config.region).catch(async (error: unknown) => {
          // Another replica may have created it meanwhile.
          if (!(await client.bucketExists(config.bucket))) throw error;
        });
      }
    } catch (error) {
      throw translate(error);
    }
    return new S3BlobStore(client, presigner, config, spoolDir);
  }

  async put(
    key: string,
    body: Readable,
    options: { readonly contentType: string; readonly maxBytes?: number },
  ): Promise<StoredBlob> {
    assertBlobKey(key);
    const spool = join(this.spoolDir, randomUUID());
    try {
      const blob = await this.spool(body, spool, options.maxBytes);
      try {
        const response = await this.client.makeRequestStreamAsync(
          {
            method: 'PUT',
            bucketName: this.config.bucket,
            objectName: key,
            headers: { 'Content-Length': String(blob.size), 'Content-Type': options.contentType },
          },
          createReadStream(spool),
          // Signed payloads over plain HTTP; over HTTPS the client signs UNSIGNED-PAYLOAD.
          this.client.enableSHA256 ? blob.sha256 : '',
          [200],
          this.config.region,
        );
        response.resume();
      } catch (error) {
        // A PUT is atomic, but S3 may have stored the object before the answer was lost: try to remove it.
        await this.client.removeObject(this.config.bucket, key).catch(() => undefined);
        throw translate(error);
      }
      return blob;
    } finally {
      await rm(spool, { force: true });
    }
  }

  /** Writes the body to `path`, measuring it. A failing or oversized body fails as it is; a failing disk makes the store unavailable. */
  private async spool(body: Readable, path: string, maxBytes: number | undefined): Promise<StoredBlob> {
    const measure = new MeasureStream(maxBytes);
    try {
      await pipeToFile(body, [measure], path, { flags: 'wx' });
    } catch (error) {
      throw (error as { syscall?: unknown })?.syscall && !(error instanceof AppError) ? unavailable(error) : error;
    }
    return measure.result();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertBlobKey(key);
    try {
      return range
        ? await this.client.getPartialObject(this.config.bucket, key, range.start, range.end - range.start + 1)
        : await this.client.getObject(this.config.bucket, key);
    } catch (error) {
      throw translate(error);
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    assertBlobKey(key);
    try {
      return { size: (await this.client.statObject(this.config.bucket, key)).size };
    } catch (error) {
      const translated = translate(error);
      if (translated instanceof AppError && translated.code === 'NOT_FOUND') return undefined;
      throw translated;
    }
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    try {
      await this.client.removeObject(this.config.bucket, key);
    } catch (error) {
      const translated = translate(error);
      if (!(translated instanceof AppError && translated.code === 'NOT_FOUND')) throw translated;
    }
  }

  async *list(prefix: string): AsyncIterable<ListedBlob> {
    try {
      for await (const item of this.client.listObjectsV2(this.config.bucket, prefix, true)) {
        if (item.name) yield { key: item.name, modified: item.lastModified };
      }
    } catch (error) {
      throw translate(error);
    }
  }

  async presignedUrl(key: string, options: PresignOptions): Promise<string> {
    assertBlobKey(key);
    try {
      return await this.presigner.presignedGetObject(this.config.bucket, key, options.expiresSeconds, {
        'response-content-type': options.contentType,
        'response-content-disposition': options.contentDisposition,
      });
    } catch (error) {
      throw translate(error);
    }
  }

  async ping(): Promise<void> {
    let exists: boolean;
    try {
      exists = await this.client.bucketExists(this.config.bucket);
    } catch (error) {
      throw translate(error);
    }
    if (!exists) throw unavailable(new Error(`Bucket ${this.config.bucket} is missing`));
  }
}
