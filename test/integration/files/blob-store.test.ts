import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../../src/blobs/blob-store.ts';
import { LocalBlobStore } from '../../../src/blobs/local-blob-store.ts';
import { S3BlobStore } from '../../../src/blobs/s3-blob-store.ts';
import { AppError } from '../../../src/errors/app-error.ts';
import { describeVariants, type Variant } from '../../support/needs.ts';
import { dropBucket, listKeys, s3Config } from './s3-support.ts';

/** One BlobStore under test, and where it keeps temporary files (which must be empty after each put). */
interface StoreVariant extends Variant {
  open(dir: string): Promise<{ store: BlobStore; tempDir: string; keys(): Promise<string[]> }>;
  teardown(): Promise<void>;
}

const local: StoreVariant = {
  name: 'the local disk',
  async open(dir) {
    const root = join(dir, 'blobs');
    const store = await LocalBlobStore.open(root);
    const keys = async () =>
      (await readdir(join(root, 'files')).catch(() => [] as string[])).map((name) => `files/${name}`).sort();
    return { store, tempDir: join(root, '.tmp'), keys };
  },
  async teardown() {},
};

const s3Bucket = s3Config();
const s3: StoreVariant = {
  name: 'S3',
  needs: ['S3_ENDPOINT'],
  async open(dir) {
    const tempDir = join(dir, 'spool');
    return { store: await S3BlobStore.open(s3Bucket, tempDir), tempDir, keys: () => listKeys(s3Bucket) };
  },
  teardown: () => dropBucket(s3Bucket),
};

const variants = [local, s3];

const bytesOf = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A stream of `data` in chunks of `size` bytes, as a request body arrives. */
const chunked = (data: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
    })(),
  );

async function expectAppError(promise: Promise<unknown>, code: AppError['code']): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describeVariants('BlobStore on $name', variants, (variant) => {
  let dir: string;
  let store: BlobStore;
  let tempDir: string;
  let keys: () => Promise<string[]>;
  let n = 0;
  const key = () => `files/test-${process.pid}-${++n}`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-blobs-'));
    ({ store, tempDir, keys } = await variant.open(dir));
  });

  afterAll(async () => {
    await variant.teardown();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers pings', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('stores a stream and gives back the same bytes, their size and SHA-256', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const k = key();
    const stored = await store.put(k, chunked(data), { contentType: 'application/octet-stream' });
    expect(stored).toEqual({ size: data.length, sha256: sha256(data) });
    expect(await store.stat(k)).toEqual({ size: data.length });
    expect((await bytesOf(await store.get(k))).equals(data)).toBe(true);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('stores an empty file', async () => {
    const k = key();
    expect(await store.put(k, Readable.from([]), { contentType: 'text/plain' })).toEqual({
      size: 0,
      sha256: sha256(Buffer.alloc(0)),
    });
    expect(await store.stat(k)).toEqual({ size: 0 });
    expect(await bytesOf(await store.get(k))).toHaveLength(0);
  });

  it('reads inclusive byte ranges', async () => {
    const k = key();
    await store.put(k, Readable.from([Buffer.from('0123456789')]), { contentType: 'text/plain' });
    expect(await text(await store.get(k, { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.get(k, { start: 9, end: 9 }))).toBe('9');
    expect(await text(await store.get(k, { start: 0, end: 9 }))).toBe('0123456789');
  });

  it('refuses more than maxBytes with PAYLOAD_TOO_LARGE and keeps nothing', async () => {
    const k = key();
    await expectAppError(
      store.put(k, chunked(randomBytes(200_000), 10_000), { contentType: 'text/plain', maxBytes: 100_000 }),
      'PAYLOAD_TOO_LARGE',
    );
    expect(await store.stat(k)).toBeUndefined();
    expect(await keys()).not.toContain(k);
    expect(await readdir(tempDir)).toEqual([]);
    // Exactly the limit is allowed.
    expect(
      (await store.put(k, chunked(randomBytes(100_000)), { contentType: 'text/plain', maxBytes: 100_000 })).size,
    ).toBe(100_000);
  });

  it('keeps nothing when the body fails half-way', async () => {
    const k = key();
    const failure = new Error('client went away');
    const body = Readable.from(
      (async function* () {
        yield randomBytes(256 * 1024);
        throw failure;
      })(),
    );
    await expect(store.put(k, body, { contentType: 'text/plain' })).rejects.toBe(failure);
    expect(await store.stat(k)).toBeUndefined();
    expect(await keys()).not.toContain(k);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it('deletes, and deleting a missing key succeeds', async () => {
    const k = key();
    await store.put(k, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    await store.delete(k);
    expect(await store.stat(k)).toBeUndefined();
    await expect(store.delete(k)).resolves.toBeUndefined();
  });

  it('lists the keys under a prefix with when they were written', async () => {
    const before = Date.now() - 5_000;
    const k = key();
    await store.put(k, Readable.from([Buffer.from('listed')]), { contentType: 'text/plain' });
    const listed: { key: string; modified: Date }[] = [];
    for await (const blob of store.list('files/')) listed.push(blob);
    const mine = listed.find((blob) => blob.key === k);
    expect(mine).toBeDefined();
    expect(mine!.modified.getTime()).toBeGreaterThan(before);
    expect(listed.map((blob) => blob.key).sort()).toEqual(await keys());
    const nothing: unknown[] = [];
    for await (const blob of store.list('elsewhere/')) nothing.push(blob);
    expect(nothing).toEqual([]);
  });

  it('answers NOT_FOUND for bytes that are not there', async () => {
    const k = key();
    expect(await store.stat(k)).toBeUndefined();
    await expectAppError(store.get(k), 'NOT_FOUND');
  });

  it('refuses malformed keys', async () => {
    for (const bad of ['../etc/passwd', 'files/../../x', '/abs', 'Files/X', '', 'files//x', 'files/x/']) {
      await expect(store.put(bad, Readable.from([]), { contentType: 'text/plain' })).rejects.toThrow(TypeError);
      await expect(store.stat(bad)).rejects.toThrow(TypeError);
    }
  });

  it.runIf(variant === s3)(
    'presigns a short-lived download URL with the given type and disposition (only on S3)',
    async () => {
      const k = key();
      await store.put(k, Readable.from([Buffer.from('presigned bytes')]), { contentType: 'text/plain' });
      const url = await store.presignedUrl(k, {
        expiresSeconds: 60,
        contentType: 'text/plain',
        contentDisposition: 'attachment; filename="a.txt"',
      });
      expect(url).toMatch(/X-Amz-Signature=/);
      expect(url).toMatch(/X-Amz-Expires=60/);
      const response = await fetch(url!);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="a.txt"');
      expect(await response.text()).toBe('presigned bytes');
      // s3rver checks only expiry (never the signature): an expired URL is refused.
      const expired = await store.presignedUrl(k, {
        expiresSeconds: 1,
        contentType: 'text/plain',
        contentDisposition: 'attachment',
      });
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect((await fetch(expired!)).status).toBe(403);
    },
  );

  it.runIf(variant === s3)(
    'signs presigned URLs for S3_PUBLIC_ENDPOINT, the host viewers reach (only on S3)',
    async () => {
      const publicStore = await S3BlobStore.open(
        { ...s3Bucket, publicEndpoint: 'https://files.example.com' },
        join(dir, 'spool-public'),
      );
      const url = new URL(
        (await publicStore.presignedUrl(key(), {
          expiresSeconds: 60,
          contentType: 'text/plain',
          contentDisposition: 'attachment',
        }))!,
      );
      expect(url.origin).toBe('https://files.example.com');
      expect(url.pathname).toMatch(new RegExp(`^/${s3Bucket.bucket}/files/`));
    },
  );

  it.runIf(variant === local)(
    'has no presigned URLs: the service streams the bytes itself (only on the local disk)',
    async () => {
      expect(
        await store.presignedUrl(key(), {
          expiresSeconds: 60,
          contentType: 'text/plain',
          contentDisposition: 'attachment',
        }),
      ).toBeUndefined();
    },
  );
});

describe('an unreachable S3', () => {
  it('fails to open with SERVICE_UNAVAILABLE', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bkg-blobs-'));
    try {
      await expectAppError(
        S3BlobStore.open(s3Config('bkg-unreachable', 'http://127.0.0.1:1'), join(dir, 'spool')),
        'SERVICE_UNAVAILABLE',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
