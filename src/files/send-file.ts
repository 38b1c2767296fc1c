import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { BlobStore, ByteRange } from '../blobs/blob-store.ts';
import { AppError, badUserInput } from '../errors/app-error.ts';
import { attachmentDisposition } from './content-disposition.ts';
import type { StoredFile } from './site-file.ts';

/** How downloads are served. */
export interface DownloadOptions {
  /** Answer 302 to a presigned URL unless `?redirect=0` (stores that can presign only). */
  readonly redirectByDefault: boolean;
  /** Lifetime of a presigned URL. */
  readonly urlSeconds: number;
}

const FLAGS: Readonly<Record<string, boolean>> = { '1': true, true: true, '0': false, false: false };

function wantsRedirect(req: Request, byDefault: boolean): boolean {
  const given = req.query.redirect;
  if (given === undefined) return byDefault;
  const flag = typeof given === 'string' ? FLAGS[given.toLowerCase()] : undefined;
  if (flag === undefined)
    throw badUserInput('Invalid request: redirect.', { fields: { redirect: ['Must be 0 or 1.'] } });
  return flag;
}

/** Whether a list-valued precondition header (`If-None-Match`) names the ETag; weak tags compare weakly. */
function matchesEtag(header: string, etag: string): boolean {
  return header.trim() === '*' || header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The byte range to send: undefined for the whole file (no Range, a stale If-Range, a malformed
 * header, or several ranges, which RFC 9110 lets a server answer in full).
 */
function rangeOf(req: Request, res: Response, size: number, etag: string): ByteRange | undefined {
  if (!req.get('range') || size === 0) return undefined;
  const ifRange = req.get('if-range');
  if (ifRange !== undefined && ifRange.trim() !== etag) return undefined;
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) {
    res.setHeader('Content-Range', `bytes */${size}`);
    throw new AppError('RANGE_NOT_SATISFIABLE', `The range is outside the file's ${size} bytes.`);
  }
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

/**
 * Sends a stored file as an attachment: a 302 to a presigned URL when asked for and the store can
 * make one, else the bytes with Content-Type, Content-Length, Content-Disposition and a strong ETag
 * (the SHA-256), 304 for a matching If-None-Match and 206 for a single Range.
 */
export async function sendFile(
  req: Request,
  res: Response,
  blobs: BlobStore,
  file: StoredFile,
  options: DownloadOptions,
): Promise<void> {
  const disposition = attachmentDisposition(file.name);
  if (wantsRedirect(req, options.redirectByDefault)) {
    const url = await blobs.presignedUrl(file.blob_key, {
      expiresSeconds: options.urlSeconds,
      contentType: file.content_type,
      contentDisposition: disposition,
    });
    if (url) {
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, url);
      return;
    }
  }
  const etag = `"${file.sha256}"`;
  const ifNoneMatch = req.get('if-none-match');
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) {
    res.setHeader('ETag', etag);
    res.status(304).end();
    return;
  }
  const range = rangeOf(req, res, file.size_bytes, etag);
  // Opened before the headers are set, so a failing store still answers with a plain error.
  const body = req.method === 'HEAD' ? undefined : await blobs.get(file.blob_key, range);
  res.status(range ? 206 : 200);
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('Last-Modified', new Date(file.updated_at).toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  // setHeader, not res.type(): the recorded type is sent as it is, without an added charset.
  res.setHeader('Content-Type', file.content_type);
  res.setHeader('Content-Disposition', disposition);
  res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : file.size_bytes));
  if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size_bytes}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (!body) {
    res.end();
    return;
  }
  // A client that goes away, or a store failing mid-stream, ends the response; nothing more can be said.
  await pipeline(body, res).catch(() => undefined);
}
