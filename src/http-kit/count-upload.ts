import type { Response } from 'express';

/** What an upload handler received, for `bkg_upload_bytes_total`. */
export type UploadKind = 'graph' | 'file';

/** An accepted upload as a route noted it. */
export interface CountedUpload {
  readonly kind: UploadKind;
  readonly bytes: number;
}

/** Notes the bytes of an accepted upload; the app's request metrics count them when the response ends. */
export function countUpload(res: Response, kind: UploadKind, bytes: number): void {
  res.locals.upload = { kind, bytes } satisfies CountedUpload;
}

/** The upload a route noted on this response, if any. */
export function countedUpload(res: Response): CountedUpload | undefined {
  return res.locals.upload as CountedUpload | undefined;
}
