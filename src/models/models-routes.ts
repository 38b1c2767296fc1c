import { Router, type Request, type Response } from 'express';
import { AppError, notFound } from '../errors/app-error.ts';
import { UUID, listElementsQuery, listModelsQuery } from '../files/file-fields.ts';
import { sendFile, type DownloadOptions } from '../files/send-file.ts';
import type { ModelFormat, StoredFile } from '../files/site-file.ts';
import type { SiteFiles } from '../files/site-files.ts';
import { pageLinks } from '../http-kit/page-links.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import type { IfcElementRow, IfcModels } from '../ifc/ifc-models.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import { readableSite, requireCredentials } from '../tenants/site-access.ts';
import type { SiteRecord, SiteStore } from '../tenants/site-store.ts';
import { entityForIfcId } from './element-entity.ts';
import { modelFile } from './model-file.ts';

/** What the elements endpoint needs beyond the files: the IFC elements and the graph. */
export interface ModelElementsDeps {
  readonly ifc: IfcModels;
  /** Where the graph entity of an element is found. */
  readonly query: QueryLayer;
}

export interface ModelsRoutesOptions {
  readonly download: DownloadOptions;
  /**
   * Lets anonymous callers read the demo site's models (the viewer's own mount, /viewer/api/sites):
   * the demo site is public. Under /api/v1 the models endpoints need credentials
   * (docs/files-and-models.md, "Files").
   */
  readonly anonymousDemo?: boolean;
}

const DEFAULT_ELEMENT_PAGE = 1000;

const elementJson = (row: IfcElementRow) => ({
  ifc_id: row.global_id,
  ifc_class: row.ifc_class,
  name: row.name,
  storey: row.storey,
});

/** The handlers of a site's model routes, one per route. */
class ModelHandlers {
  constructor(
    private readonly sites: SiteStore,
    private readonly files: SiteFiles,
    private readonly elements: ModelElementsDeps,
    private readonly options: ModelsRoutesOptions,
  ) {}

  /** `GET /:siteId/models`: the site's model files, with their download links. */
  list = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    const { id } = await this.site(req);
    const query = validateBody(listModelsQuery, req.query);
    const models = await this.files.models(id, { format: query.file_format, storey: query.storey });
    const base = `${req.baseUrl}/${id}/models`;
    res.json(
      models.map((file) => modelFile(file as typeof file & { format: ModelFormat }, `${base}/${file.id}/download`)),
    );
  };

  /** `GET /:siteId/models/:modelId/download`: the model's bytes. */
  download = async (req: Request<{ siteId: string; modelId: string }>, res: Response): Promise<void> => {
    const { id } = await this.site(req);
    await sendFile(req, res, this.files.blobs, await this.model(id, req.params.modelId), this.options.download);
  };

  /** `GET /:siteId/models/:modelId/storeys`: the IFC model's storeys, with their elements counted. */
  storeys = async (req: Request<{ siteId: string; modelId: string }>, res: Response): Promise<void> => {
    const { id: siteId } = await this.site(req);
    const ifc = await this.ifcOf(await this.model(siteId, req.params.modelId));
    const counts = await this.elements.ifc.storeyCounts(ifc.id);
    res.json(ifc.ifc!.storeys.map((storey) => ({ ...storey, element_count: counts.get(storey.name) ?? 0 })));
  };

  /** `GET /:siteId/models/:modelId/elements`: a page of the IFC model's elements, or one by `ifcId` with its entity. */
  elementList = async (req: Request<{ siteId: string; modelId: string }>, res: Response): Promise<void> => {
    const { id: siteId } = await this.site(req);
    const query = validateBody(listElementsQuery, req.query);
    const ifc = await this.ifcOf(await this.model(siteId, req.params.modelId));
    if (query.ifcId !== undefined) {
      const row = await this.elements.ifc.element(ifc.id, query.ifcId);
      if (!row) throw notFound(`No element with GlobalId "${query.ifcId}" in this model.`);
      const entity = await entityForIfcId(this.elements.query, siteId, row.global_id, req.work);
      res.json({ ...elementJson(row), model: ifc.id, mapped: entity !== null, entity });
      return;
    }
    const limit = query.limit ?? DEFAULT_ELEMENT_PAGE;
    const offset = query.offset ?? 0;
    const { count, rows } = await this.elements.ifc.elements(ifc.id, { storey: query.storey }, { limit, offset });
    res.json({ count, ...pageLinks(req, count, limit, offset), results: rows.map(elementJson) });
  };

  private site(req: Request<{ siteId: string }>): Promise<SiteRecord> {
    if (!this.options.anonymousDemo) requireCredentials(req.client);
    return readableSite(this.sites, req.client, String(req.params.siteId));
  }

  private async model(siteId: string, id: string): Promise<StoredFile> {
    const file = UUID.test(id) ? await this.files.get(id.toLowerCase()) : undefined;
    if (!file || file.site !== siteId || file.format === null) throw notFound(`Model "${id.slice(0, 100)}" not found.`);
    return file;
  }

  /** The IFC file whose elements a model shows: itself, or the IFC a fragments file was made from; its elements must be read. */
  private async ifcOf(file: StoredFile): Promise<StoredFile> {
    const source = file.ifc ? file : file.source_ifc ? await this.files.get(file.source_ifc) : undefined;
    if (!source?.ifc)
      throw notFound(
        `Model "${file.id}" has no IFC elements: it is neither an IFC file the service reads nor made from one.`,
      );
    if (source.ifc.element_count === null) {
      const why =
        source.ifc.status === 'failed'
          ? `could not be read: ${source.ifc.error}`
          : `is still being read (status ${source.ifc.status}); try again shortly`;
      throw new AppError('CONFLICT', `The IFC file "${source.name}" ${why}`, { status: source.ifc.status });
    }
    return source;
  }
}

/**
 * `/sites/{siteId}/models` (docs/files-and-models.md): a site's model files (site files whose format is ifc, frag,
 * glb or obj) for 3D viewers, their bytes, and the storeys and elements of IFC models (and of
 * fragments files made from one) with the graph entity each maps to. Mounted beside the site routes.
 */
export function modelsRoutes(
  sites: SiteStore,
  files: SiteFiles,
  elements: ModelElementsDeps,
  options: ModelsRoutesOptions,
): Router {
  const handlers = new ModelHandlers(sites, files, elements, options);
  const router = Router();
  router.get('/:siteId/models', handlers.list);
  router.get('/:siteId/models/:modelId/download', handlers.download);
  router.get('/:siteId/models/:modelId/storeys', handlers.storeys);
  router.get('/:siteId/models/:modelId/elements', handlers.elementList);
  return router;
}
