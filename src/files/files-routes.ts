import { json, Router, type Request, type RequestHandler, type Response } from 'express';
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
 * `/api/files/` (docs/files-and-models.md, "Files"): list, upload (multipart), read, update (multipart or JSON;
 * the file part optional), delete and download site files.
 */
export function filesRoutes(sites: SiteStore, files: SiteFiles, options: FilesRoutesOptions): Router {
  const router = Router();

  /** The file, if the client may read its site; otherwise 404, as for a file that does not exist. */
  const readableFile = async (client: Client, id: string): Promise<StoredFile> => {
    const file = UUID.test(id) ? await files.get(id.toLowerCase()) : undefined;
    if (!file || !canRead(client, file.site)) throw notFound(`File "${id.slice(0, 100)}" not found.`);
    return file;
  };

  /** 400 unless `id` names an IFC file of the site (the source of a fragment file). */
  const checkSourceIfc = async (site: string, id: string | null | undefined, self?: string): Promise<void> => {
    if (!id) return;
    const source = await files.get(id);
    if (!source || source.site !== site || source.format !== 'ifc' || id === self) {
      throw fieldError('source_ifc', 'No IFC file with this id on this site.');
    }
  };

  const quota = options.siteQuotaBytes;
  const upload = receiveUpload(files, {
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

  /** Runs the handler; if it fails, bytes the request stored are removed. */
  const withUpload =
    (handler: (req: Request, res: Response, upload: ReceivedFile | undefined) => Promise<void>): RequestHandler =>
    async (req, res) => {
      const received = receivedFile(req);
      try {
        await handler(req, res, received);
        if (received) countUpload(res, 'file', received.size);
      } catch (error) {
        if (received) await files.discard(received.key);
        throw error;
      }
    };

  router.get('/', async (req, res) => {
    requireCredentials(req.client);
    const query = validateBody(listFilesQuery, req.query);
    const site = query.site_id === undefined ? undefined : (await readableSite(sites, req.client, query.site_id)).id;
    const filter = { sites: readableSites(req.client), site, category: query.category, entityUri: query.entity_uri };
    if (query.limit === undefined) {
      res.json((await files.list(filter)).map(fileRecord));
      return;
    }
    const offset = query.offset ?? 0;
    const count = await files.count(filter);
    const results = await files.list(filter, { limit: query.limit, offset });
    res.json({ count, ...pageLinks(req, count, query.limit, offset), results: results.map(fileRecord) });
  });

  router.post(
    '/',
    (req, _res, next) => {
      requireCredentials(req.client);
      if (!req.is('multipart/form-data')) throw unsupportedMediaType('Send the file as multipart/form-data.');
      next();
    },
    upload,
    withUpload(async (req, res, received) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      // A request for a site the client may not write to fails as such, whatever else is wrong with it.
      if (typeof body.site_id === 'string' && SITE_ID.test(body.site_id))
        await writableSite(sites, req.client, body.site_id);
      const fields = validateBody(createFileFields, body);
      if (!received) throw fieldError(FILE_FIELD, 'No file was submitted.');
      const site = await writableSite(sites, req.client, fields.site_id);
      await checkSourceIfc(site.id, fields.source_ifc);
      const name = fields.name ?? withoutBidiControls(received.filename).trim();
      // A name taken from the file part's filename is checked as the `name` field is.
      const problem = fields.name === undefined ? plainTextProblem(name) : undefined;
      if (problem) throw fieldError(FILE_FIELD, `The file's name: ${problem}`);
      if (name.length > 255) throw fieldError('name', 'Ensure this field has no more than 255 characters.');
      const file = await files.create(
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
        quota,
      );
      res.status(201).location(`${req.baseUrl}/${file.id}/`).json(fileRecord(file));
    }),
  );

  router.get('/:fileId', async (req, res) => {
    requireCredentials(req.client);
    res.json(fileRecord(await readableFile(req.client, req.params.fileId)));
  });

  router.put(
    '/:fileId',
    async (req, res, next) => {
      requireCredentials(req.client);
      const file = await readableFile(req.client, String(req.params.fileId));
      await writableSite(sites, req.client, file.site);
      res.locals.file = file;
      next();
    },
    json({ limit: '64kb' }),
    (req, res, next) => {
      if (req.is('multipart/form-data')) return upload(req, res, next);
      if (req.is('application/json')) return next();
      throw unsupportedMediaType('Send multipart/form-data (or JSON when the bytes stay).');
    },
    withUpload(async (req, res, received) => {
      const file = res.locals.file as StoredFile;
      const fields = validateBody(updateFileFields, req.body ?? {});
      if (fields.site_id !== undefined && fields.site_id !== file.site)
        throw fieldError('site_id', 'A file cannot move to another site.');
      await checkSourceIfc(file.site, fields.source_ifc, file.id);
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
      const updated = await files.update(file.id, changes, received, quota);
      if (!updated) throw notFound(`File "${file.id}" not found.`);
      res.json(fileRecord(updated));
    }),
  );

  router.delete('/:fileId', async (req, res) => {
    requireCredentials(req.client);
    const file = await readableFile(req.client, req.params.fileId);
    await writableSite(sites, req.client, file.site);
    if (!(await files.delete(file.id))) throw notFound(`File "${file.id}" not found.`);
    res.status(204).end();
  });

  router.get('/:fileId/download', async (req, res) => {
    requireCredentials(req.client);
    await sendFile(req, res, files.blobs, await readableFile(req.client, req.params.fileId), options.download);
  });

  return router;
}
