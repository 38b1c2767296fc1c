import { json, Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { canRead, type Client } from '../auth/client.ts';
import { badUserInput, notFound, unsupportedMediaType } from '../errors/app-error.ts';
import { pageLinks } from '../http-kit/page-links.ts';
import { plainTextProblem } from '../http-kit/plain-text.ts';
import { countUpload } from '../http-kit/count-upload.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { readableSite, requireCredentials, writableSite } from '../tenants/site-access.ts';
import { SITE_ID } from '../tenants/site-directory.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import { contentTypeOf, formatFromName } from './file-format.ts';
import { createFileFields, listFilesQuery, updateFileFields, UUID } from './file-fields.ts';
import { withoutBidiControls } from './file-name.ts';
import { FILE_FIELD, receivedFile, receiveUpload, type ReceivedFile } from './receive-upload.ts';
import { sendFile, type DownloadOptions } from './send-file.ts';
import { fileRecord, type StoredFile } from './site-file.ts';
import { storageQuotaExceeded, type FileFieldChanges, type SiteFiles } from './site-files.ts';

export interface FilesRoutesOptions {
  readonly maxUploadBytes: number;
  /** Most bytes one site's files may take together; undefined: no quota. */
  readonly siteQuotaBytes: number | undefined;
  readonly download: DownloadOptions;
}

const fieldError = (field: string, message: string) =>
  badUserInput(`Invalid request: ${field}.`, { fields: { [field]: [message] } });

/** The sites whose files a client may list. */
const readableSites = (client: Client): readonly string[] | '*' => (client.kind === 'anonymous' ? [] : client.sites);

/**
 * The handlers of `/api/files/`, one per route; the middleware an upload passes through (multipart
 * only, the file to replace looked up first) named beside them.
 */
class FileHandlers {
  /** Stores the file part of a multipart request (`receive-upload.ts`), within the site's quota. */
  readonly upload: RequestHandler;
  private readonly quota: number | undefined;

  constructor(
    private readonly sites: SiteStore,
    private readonly files: SiteFiles,
    private readonly options: FilesRoutesOptions,
  ) {
    const quota = (this.quota = options.siteQuotaBytes);
    this.upload = receiveUpload(files, {
      maxBytes: options.maxUploadBytes,
      // A site named before the file part is checked before any byte is stored, and its quota's
      // room bounds the bytes stored; `create` and `update` check the quota again as they record.
      beforeStore: async (req) => {
        const replacing = req.res?.locals.file as StoredFile | undefined;
        const siteId: unknown = replacing?.site ?? req.body?.site_id;
        if (typeof siteId !== 'string' || !SITE_ID.test(siteId)) return undefined;
        await writableSite(sites, req.client, siteId);
        if (quota === undefined) return undefined;
        const bytes = await files.roomLeft(siteId, quota, replacing);
        return { bytes, exceeded: () => storageQuotaExceeded(siteId, quota, quota - bytes) };
      },
    });
  }

  /** `GET /`: the files of the sites the client may read, filtered; paged when `limit` is given. */
  list = async (req: Request, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const query = validateBody(listFilesQuery, req.query);
    const site =
      query.site_id === undefined ? undefined : (await readableSite(this.sites, req.client, query.site_id)).id;
    const filter = { sites: readableSites(req.client), site, category: query.category, entityUri: query.entity_uri };
    if (query.limit === undefined) {
      res.json((await this.files.list(filter)).map(fileRecord));
      return;
    }
    const offset = query.offset ?? 0;
    const count = await this.files.count(filter);
    const results = await this.files.list(filter, { limit: query.limit, offset });
    res.json({ count, ...pageLinks(req, count, query.limit, offset), results: results.map(fileRecord) });
  };

  /** Before an upload is received: a client with credentials, sending multipart. */
  multipartOnly: RequestHandler = (req, _res, next) => {
    requireCredentials(req.client);
    if (!req.is('multipart/form-data')) throw unsupportedMediaType('Send the file as multipart/form-data.');
    next();
  };

  /** `POST /` (after `upload`): records the uploaded file with its fields. */
  create = this.withUpload(async (req, res, received) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    // A request for a site the client may not write to fails as such, whatever else is wrong with it.
    if (typeof body.site_id === 'string' && SITE_ID.test(body.site_id))
      await writableSite(this.sites, req.client, body.site_id);
    const fields = validateBody(createFileFields, body);
    if (!received) throw fieldError(FILE_FIELD, 'No file was submitted.');
    const site = await writableSite(this.sites, req.client, fields.site_id);
    await this.checkSourceIfc(site.id, fields.source_ifc);
    const name = fields.name ?? withoutBidiControls(received.filename).trim();
    // A name taken from the file part's filename is checked as the `name` field is.
    const problem = fields.name === undefined ? plainTextProblem(name) : undefined;
    if (problem) throw fieldError(FILE_FIELD, `The file's name: ${problem}`);
    if (name.length > 255) throw fieldError('name', 'Ensure this field has no more than 255 characters.');
    const file = await this.files.create(
      {
        site: site.id,
        category: fields.category,
        name: name || 'file',
        entity_uri: fields.entity_uri ?? '',
        content_type: contentTypeOf(received.filename, received.mimetype),
        format: fields.format ?? formatFromName(received.filename) ?? formatFromName(name),
        storey: fields.storey ?? '',
        sort_order: fields.sort_order ?? 0,
        source_ifc: fields.source_ifc ?? null,
      },
      received,
      undefined,
      this.quota,
    );
    res.status(201).location(`${req.baseUrl}/${file.id}/`).json(fileRecord(file));
  });

  /** `GET /:fileId`: one file's record. */
  get = async (req: Request<{ fileId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    res.json(fileRecord(await this.readableFile(req.client, req.params.fileId)));
  };

  /** Before an update is received: the file, which the client may write (kept in `res.locals.file`). */
  fileToUpdate = async (req: Request<{ fileId: string }>, res: Response, next: NextFunction): Promise<void> => {
    requireCredentials(req.client);
    const file = await this.readableFile(req.client, String(req.params.fileId));
    await writableSite(this.sites, req.client, file.site);
    res.locals.file = file;
    next();
  };

  /** An update's body: new bytes (multipart) or fields alone (JSON). */
  updateBody: RequestHandler = (req, res, next) => {
    if (req.is('multipart/form-data')) return this.upload(req, res, next);
    if (req.is('application/json')) return next();
    throw unsupportedMediaType('Send multipart/form-data (or JSON when the bytes stay).');
  };

  /** `PUT /:fileId` (after `fileToUpdate` and `updateBody`): changes the file's fields, and its bytes if sent. */
  update = this.withUpload(async (req, res, received) => {
    const file = res.locals.file as StoredFile;
    const fields = validateBody(updateFileFields, req.body ?? {});
    if (fields.site_id !== undefined && fields.site_id !== file.site)
      throw fieldError('site_id', 'A file cannot move to another site.');
    await this.checkSourceIfc(file.site, fields.source_ifc, file.id);
    const name = fields.name ?? file.name;
    const changes: FileFieldChanges = {
      category: fields.category,
      name: fields.name,
      entity_uri: fields.entity_uri,
      storey: fields.storey,
      sort_order: fields.sort_order,
      source_ifc: fields.source_ifc,
      // New bytes bring their own type and, unless one is given, their format.
      content_type: received && contentTypeOf(received.filename, received.mimetype),
      format: fields.format ?? (received ? (formatFromName(received.filename) ?? formatFromName(name)) : undefined),
    };
    const updated = await this.files.update(file.id, changes, received, this.quota);
    if (!updated) throw notFound(`File "${file.id}" not found.`);
    res.json(fileRecord(updated));
  });

  /** `DELETE /:fileId`. */
  delete = async (req: Request<{ fileId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const file = await this.readableFile(req.client, req.params.fileId);
    await writableSite(this.sites, req.client, file.site);
    if (!(await this.files.delete(file.id))) throw notFound(`File "${file.id}" not found.`);
    res.status(204).end();
  };

  /** `GET /:fileId/download`: the file's bytes (ranges, conditional requests: `send-file.ts`). */
  download = async (req: Request<{ fileId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const file = await this.readableFile(req.client, req.params.fileId);
    await sendFile(req, res, this.files.blobs, file, this.options.download);
  };

  /** The file, if the client may read its site; otherwise 404, as for a file that does not exist. */
  private async readableFile(client: Client, id: string): Promise<StoredFile> {
    const file = UUID.test(id) ? await this.files.get(id.toLowerCase()) : undefined;
    if (!file || !canRead(client, file.site)) throw notFound(`File "${id.slice(0, 100)}" not found.`);
    return file;
  }

  /** 400 unless `id` names an IFC file of the site (the source of a fragment file). */
  private async checkSourceIfc(site: string, id: string | null | undefined, self?: string): Promise<void> {
    if (!id) return;
    const source = await this.files.get(id);
    if (!source || source.site !== site || source.format !== 'ifc' || id === self) {
      throw fieldError('source_ifc', 'No IFC file with this id on this site.');
    }
  }

  /** Runs the handler; if it fails, bytes the request stored are removed. */
  private withUpload(
    handler: (req: Request, res: Response, upload: ReceivedFile | undefined) => Promise<void>,
  ): RequestHandler {
    return async (req, res) => {
      const received = receivedFile(req);
      try {
        await handler(req, res, received);
        if (received) countUpload(res, 'file', received.size);
      } catch (error) {
        if (received) await this.files.discard(received.key);
        throw error;
      }
    };
  }
}

/**
 * `/api/files/` (docs/files-and-models.md, "Files"): list, upload (multipart), read, update (multipart or JSON;
 * the file part optional), delete and download site files.
 */
export function filesRoutes(sites: SiteStore, files: SiteFiles, options: FilesRoutesOptions): Router {
  const handlers = new FileHandlers(sites, files, options);
  const router = Router();
  router.get('/', handlers.list);
  router.post('/', handlers.multipartOnly, handlers.upload, handlers.create);
  router.get('/:fileId', handlers.get);
  router.put('/:fileId', handlers.fileToUpdate, json({ limit: '64kb' }), handlers.updateBody, handlers.update);
  router.delete('/:fileId', handlers.delete);
  router.get('/:fileId/download', handlers.download);
  return router;
}
