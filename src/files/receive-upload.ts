import { PassThrough } from 'node:stream';
import type { Request, RequestHandler } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { tooLarge } from '../blobs/measure-stream.ts';
import { AppError, badUserInput } from '../errors/app-error.ts';
import type { SiteFiles, StoredUpload } from './site-files.ts';

/** An upload stored in the BlobStore, with what the client said about it. */
export interface ReceivedFile extends StoredUpload {
  /** The part's filename (a basename), as the browser sent it. */
  readonly filename: string;
  /** The part's Content-Type. */
  readonly mimetype: string;
}

/** The multipart file field. */
export const FILE_FIELD = 'file';

/** Room for the form fields and part headers beside the file, when judging a declared Content-Length. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/** Less room than `maxBytes` for one upload (what is left of its site's quota), and the error past it. */
export interface UploadRoom {
  readonly bytes: number;
  readonly exceeded: () => AppError;
}

export interface ReceiveUploadOptions {
  readonly maxBytes: number;
  /**
   * Runs before the file's bytes are stored, with the fields sent before the file part in
   * `req.body`; may answer the room left for them, so that an upload past it is cut off at once
   * instead of being stored whole and refused afterwards.
   */
  readonly beforeStore?: (req: Request) => Promise<UploadRoom | undefined>;
}

const fieldError = (field: string, message: string) =>
  badUserInput(`Invalid request: ${field}.`, { fields: { [field]: [message] } });

/** Multer's and busboy's complaints as application errors (DRF-style field errors where a field is to blame). */
function translate(error: unknown, maxBytes: number): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return tooLarge(maxBytes);
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return fieldError(error.field ?? FILE_FIELD, `Send one file, in the field "${FILE_FIELD}".`);
      case 'LIMIT_FIELD_VALUE':
        return fieldError(error.field ?? 'non_field_errors', 'This value is too long.');
      default:
        return fieldError('non_field_errors', `Invalid multipart body: ${error.message}.`);
    }
  }
  return fieldError(
    'non_field_errors',
    `Invalid multipart body: ${error instanceof Error ? error.message : 'unreadable'}.`,
  );
}

/**
 * Multer storage that streams the file part straight into the BlobStore under a fresh key; the
 * part is never held in memory or written anywhere else by the gateway.
 */
function blobStorage(files: SiteFiles, options: ReceiveUploadOptions): StorageEngine {
  return {
    _handleFile(req, file, callback) {
      const store = async (): Promise<ReceivedFile> => {
        const given = await options.beforeStore?.(req);
        const room = given && given.bytes < options.maxBytes ? given : undefined;
        const key = files.newBlobKey();
        // The store destroys its source when it fails, and multer would report the source's error
        // before this callback's: past the room, the part reaches the store through a stream of its own.
        const body = room ? file.stream.pipe(new PassThrough()) : file.stream;
        try {
          const stored = await files.blobs.put(key, body, {
            contentType: file.mimetype,
            maxBytes: room ? Math.max(0, room.bytes) : options.maxBytes,
          });
          return { key, ...stored, filename: file.originalname, mimetype: file.mimetype };
        } catch (error) {
          // Past the room but within the upload limit: the room is what the file did not fit.
          throw room && error instanceof AppError && error.code === 'PAYLOAD_TOO_LARGE' ? room.exceeded() : error;
        }
      };
      store().then(
        (received) => callback(null, received as unknown as Partial<Express.Multer.File>),
        (error: unknown) => {
          file.stream.resume();
          callback(error);
        },
      );
    },
    _removeFile(_req, file, callback) {
      files.discard((file as unknown as ReceivedFile).key).then(() => callback(null), callback);
    },
  };
}

/**
 * Parses a multipart/form-data body: text fields into `req.body`, the one file part (field `file`)
 * streamed into the BlobStore and described by `receivedFile(req)`. When anything fails, bytes
 * already stored are removed. Over `maxBytes`: 413.
 */
export function receiveUpload(files: SiteFiles, options: ReceiveUploadOptions): RequestHandler {
  const parse = multer({
    storage: blobStorage(files, options),
    // Browsers send UTF-8 file names in the part headers.
    defParamCharset: 'utf8',
    limits: {
      fileSize: options.maxBytes,
      files: 1,
      fields: 30,
      parts: 31,
      fieldSize: 64 * 1024,
      fieldNameSize: 100,
      fieldNestingDepth: 0,
    },
  }).single(FILE_FIELD);
  return (req, res, next) => {
    const declared = Number(req.get('content-length'));
    if (Number.isFinite(declared) && declared > options.maxBytes + FORM_OVERHEAD_BYTES) {
      // Refused before reading: the connection is closed rather than drained of the whole body.
      res.setHeader('Connection', 'close');
      next(tooLarge(options.maxBytes));
      return;
    }
    parse(req, res, (error?: unknown) => next(error === undefined ? undefined : translate(error, options.maxBytes)));
  };
}

/** The file stored by `receiveUpload`, if the request had one. */
export function receivedFile(req: Request): ReceivedFile | undefined {
  return req.file as unknown as ReceivedFile | undefined;
}
