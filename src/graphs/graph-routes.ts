import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, badUserInput, notFound, unsupportedMediaType } from '../errors/app-error.ts';
import { mediaType } from '../http-kit/media-type.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { receiveBody, type ReceivedBody } from '../http-kit/receive-body.ts';
import { countUpload } from '../http-kit/count-upload.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import { NestingTooDeep } from '../rdf/nesting-scanner.ts';
import { PrefixDeclarations } from '../rdf/prefix-declarations.ts';
import { ONTOLOGY_GRAPH, siteGraph } from '../rdf/vocabulary.ts';
import { parseRdfPatch, RdfPatchError, type GraphPatch } from '../rdf/rdf-patch.ts';
import { confineUpdate } from '../sparql-endpoint/confine-update.ts';
import { changeRequest, versionTag, type GraphHistory } from '../history/graph-history.ts';
import { versionNumber } from '../history/version-number.ts';
import { graphAt } from '../history/graph-at.ts';
import { touchedEntities } from '../history/patch-summary.ts';
import { patchSteps, runUpdate, undo } from './run-update.ts';
import { RdfSyntaxError, type GraphStore, type RdfFormat } from '../store/graph-store.ts';
import { rdfNestingScanner } from '../store/rdf-nesting.ts';
import type { ModelValidation } from '../validation/model-validation.ts';
import type { ModelSource } from '../validation/model-validator.ts';
import { reportTurtle } from '../validation/report-turtle.ts';
import type { ValidationReport } from '../validation/validation-report.ts';
import { readableSite, requireCredentials, writableSite } from '../tenants/site-access.ts';
import { loadStatus, type GraphLoads } from './graph-loads.ts';
import { exportPrefixes, turtleWithPrefixes } from './graph-turtle.ts';
import type { SiteStore } from '../tenants/site-store.ts';

/** Past this many triples an export is the graph's N-Triples as the store's files hold it (valid Turtle too, without prefixes: never parsed again here). */
const STREAMED_FROM = 1_000_000;

const FORMATS: Readonly<Record<string, RdfFormat>> = {
  'text/turtle': 'text/turtle',
  'application/x-turtle': 'text/turtle',
  'application/n-triples': 'application/n-triples',
  'application/n-quads': 'application/n-quads',
  'application/ld+json': 'application/ld+json',
};

function formatOf(req: Request): RdfFormat {
  const format = FORMATS[mediaType(req)];
  if (!format) {
    throw unsupportedMediaType(`Content-Type must be one of ${Object.keys(FORMATS).join(', ')}.`, Object.keys(FORMATS));
  }
  return format;
}

export interface GraphRoutesOptions {
  readonly tmpDir: string;
  readonly maxUploadBytes: number;
  readonly validation: ModelValidation;
  /** The latest load of each site, for `GET …/graph/load` (shared by the replicas through Redis, when there is one). */
  readonly loads: GraphLoads;
  /** What is known of each site (its ontology as it reads it, its profile): a load's reading is made against it. */
  readonly query: QueryLayer;
  /** Where each change of a site's graph is recorded as a version. */
  readonly history: GraphHistory;
}

/** An RDF Patch body, or 400 naming the row that is wrong. */
function readPatch(text: string): GraphPatch {
  try {
    return parseRdfPatch(text);
  } catch (error) {
    if (error instanceof RdfPatchError)
      throw badUserInput(`The RDF Patch body is not valid: ${error.message}`, { line: error.line });
    throw error;
  }
}

const flag = (name: string) => z.enum(['0', '1'], { error: `${name} is 0 or 1.` }).optional();

/** The query of `PUT|POST /sites/{id}/graph`: validate the model (`validate=1`), refuse it on violations (`strict=1`). */
const message = z
  .string()
  .max(1000, { error: 'message is at most 1,000 characters.' })
  .optional()
  .meta({ description: 'Why the graph changed: kept with the version the change makes.' });

export const graphLoadQuery = z.object({
  validate: flag('validate').meta({
    description: 'Answer a validation report with the load (`validation`); warnings never stop a load.',
  }),
  strict: flag('strict').meta({
    description: 'Validate, and refuse a model with violations (400 with the report), leaving the graph as it was.',
  }),
  reading: flag('reading').meta({
    description:
      'Answer the model reading with the load (`reading`), once the site profile is read after it (seconds on a large site). Without it the load answers as soon as the graph is stored, and `GET …/graph/reading` gives the reading.',
  }),
  message,
});

/** The query of `PATCH /sites/{id}/graph`. */
export const graphPatchQuery = z.object({
  strict: flag('strict').meta({
    description:
      'Validate the entities the change touches, as they would be after it, and refuse the change on violations (400 MODEL_INVALID with the report): nothing changes.',
  }),
  message,
});

/** The query of `GET /sites/{id}/graph`. */
export const graphExportQuery = z.object({
  version: versionNumber('version').optional().meta({
    description: 'Export this version of the graph, as long as the changes since it are kept; the latest by default.',
  }),
});

/** The query of `DELETE /sites/{id}/graph`. */
export const graphDeleteQuery = z.object({ message });

/** The bodies PATCH takes: a SPARQL 1.1 Update, or an RDF Patch. */
export const PATCH_TYPES = ['application/sparql-update', 'application/rdf-patch'] as const;

/** Largest PATCH body: a change that large is a load. */
const MAX_PATCH_BYTES = 16 * 1024 * 1024;

/** Past this many entities touched, a strict PATCH validates the whole graph, not them alone. */
const VALIDATED_ENTITIES = 10_000;

/** A syntax error of the body, or nesting past the limit, as a 400 naming its line and column. */
function inputError(error: unknown, format: RdfFormat): unknown {
  if (error instanceof NestingTooDeep)
    return badUserInput(`The ${format} body is refused: ${error.message}.`, {
      limit: error.limit,
      line: error.line,
      column: error.column,
    });
  return error instanceof RdfSyntaxError
    ? badUserInput(`The ${format} body has a syntax error: ${error.message}`, {
        line: error.line,
        column: error.column,
      })
    : error;
}

/** The handlers of `/sites/{id}/graph…`, one per route. */
class GraphHandlers {
  constructor(
    private readonly sites: SiteStore,
    private readonly store: GraphStore,
    private readonly options: GraphRoutesOptions,
  ) {}

  /** `PUT` (replace) or `POST` (merge) `…/graph`: loads the body, optionally validated first, and answers the load report. */
  load =
    (replace: boolean) =>
    async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
      requireCredentials(req.client);
      const site = await writableSite(this.sites, req.client, req.params.siteId);
      const query = validateBody(graphLoadQuery, req.query);
      const format = formatOf(req);
      const change = changeRequest(req, site.id, replace ? 'put' : 'post', query.message);
      const started = performance.now();
      const length = Number(req.get('content-length'));
      const progress = this.options.loads.start(
        site.id,
        replace,
        Number.isSafeInteger(length) && length >= 0 ? length : null,
      );
      let body: ReceivedBody;
      // The model's own prefixes, kept for its exports (only Turtle declares any).
      const prefixes = format === 'text/turtle' ? new PrefixDeclarations() : undefined;
      try {
        body = await this.receiveDocument(req, format, (bytes) => progress.receive(bytes), prefixes);
      } catch (error) {
        await progress.failed((error as Error).message);
        throw error;
      }
      progress.parse(0);
      try {
        if (replace && body.bytes === 0)
          throw badUserInput(
            `An empty body would empty the site's graph, which PUT does not do by mistake: DELETE /api/v1/sites/${site.id}/graph empties it.`,
          );
        const graph = siteGraph(site.id);
        const { version, result } = await this.options.history.write(change, async () => {
          let report: ValidationReport | undefined;
          let validating = 0;
          if (query.validate === '1' || query.strict === '1') {
            // The model the load makes: the document alone (PUT), or the graph with it (POST). Checked
            // first, so a refused model never touches the graph.
            const before = performance.now();
            const upload: ModelSource = { data: { path: body.path }, format };
            report = await this.options.validation.validate(
              replace ? [upload] : [await this.stored(graph), upload],
              graph,
              req.work?.signal,
            );
            validating = performance.now() - before;
            if (query.strict === '1' && report.summary.violations > 0) {
              const n = report.summary.violations;
              throw new AppError(
                'MODEL_INVALID',
                `The model has ${n} violation${n === 1 ? '' : 's'} of Brick's shapes and checks; the graph was not changed.`,
                { report },
              );
            }
          }
          const parsed = (bytes: number, triples?: number) => progress.parse(bytes, triples);
          // The version keeps what the load changed (history/load-diff.ts), up to a size.
          return this.options.history.load(
            this.store,
            graph,
            replace,
            async () => ({
              ...(replace
                ? await this.store.replaceGraph(graph, { path: body.path }, format, parsed)
                : await this.store.mergeGraph(graph, { path: body.path }, format, parsed)),
              report,
              validating,
            }),
            req.work?.signal,
          );
        });
        const { triples, report, validating } = result;
        await this.sites.keepPrefixes(site.id, Object.fromEntries(prefixes?.prefixes ?? []), replace);
        await progress.done(triples);
        // The load's own time: the validation has its own in the report.
        const seconds = (performance.now() - started - validating) / 1000;
        // What the service made of the model (the load report), when asked: counted by the store
        // after the load, it waits for the site profile (~2 s at 1M triples, ~15 s at 5M).
        const reading = query.reading === '1' ? await this.options.query.modelReading(graph, req.work) : undefined;
        countUpload(res, 'graph', body.bytes);
        res.set('ETag', versionTag(version.version));
        res.json({
          site: site.id,
          version: version.version,
          triples,
          bytes: body.bytes,
          seconds: Number(seconds.toFixed(3)),
          ...(reading ? { reading } : {}),
          ...(report ? { validation: report } : {}),
        });
      } catch (error) {
        const refused = inputError(error, format);
        await progress.failed((refused as Error).message);
        throw refused;
      } finally {
        await body.remove();
      }
    };

  /**
   * `PATCH …/graph`: a SPARQL 1.1 Update or an RDF Patch, confined to the site's graph, applied
   * all or nothing as one version; with `strict=1` the entities it touches are validated as they
   * would be after it, and on violations nothing changes.
   */
  patch = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await writableSite(this.sites, req.client, req.params.siteId);
    const query = validateBody(graphPatchQuery, req.query);
    const type = mediaType(req);
    if (!(PATCH_TYPES as readonly string[]).includes(type))
      throw unsupportedMediaType(`Content-Type must be one of ${PATCH_TYPES.join(', ')}.`, [...PATCH_TYPES]);
    const change = changeRequest(req, site.id, 'patch', query.message);
    const text = await this.receiveText(req);
    const graph = siteGraph(site.id);
    const steps =
      type === 'application/sparql-update' ? confineUpdate(text, [graph, ONTOLOGY_GRAPH]) : patchSteps(readPatch(text));
    const { version, result } = await this.options.history.write(change, async () => {
      const outcome = await runUpdate(this.store, graph, steps, req.work);
      // A change not listed (a clear past the size of a change) leaves nothing to validate.
      if (query.strict === '1' && outcome.patch) {
        const report = await this.validateTouched(graph, outcome.patch, req.work?.signal);
        if (report.summary.violations > 0) {
          await undo(this.store, graph, [outcome.patch]);
          const n = report.summary.violations;
          throw new AppError(
            'MODEL_INVALID',
            `The entities the change touches would have ${n} violation${n === 1 ? '' : 's'} of Brick's shapes and checks; the graph was not changed.`,
            { report },
          );
        }
      }
      return { ...outcome, result: outcome };
    });
    res.set('ETag', versionTag(version.version));
    res.json({
      site: site.id,
      version: version.version,
      triples: result.triples,
      added: version.added,
      removed: version.removed,
      entities: version.entities,
    });
  };

  /** `DELETE …/graph`: empties the site's graph, as a version (what an empty PUT is refused for). */
  clear = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await writableSite(this.sites, req.client, req.params.siteId);
    const query = validateBody(graphDeleteQuery, req.query);
    const change = changeRequest(req, site.id, 'delete', query.message);
    const graph = siteGraph(site.id);
    const { version } = await this.options.history.write(change, async () => {
      const outcome = await runUpdate(this.store, graph, [{ kind: 'clear' }], req.work);
      return { ...outcome, result: outcome };
    });
    res.set('ETag', versionTag(version.version));
    res.json({ site: site.id, version: version.version, triples: 0, removed: version.removed });
  };

  /** `POST …/graph/validate`: checks the body, or the stored graph, against Brick's shapes without loading it. */
  validate = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const type = req.accepts(['application/json', 'text/turtle']);
    if (!type) throw new AppError('NOT_ACCEPTABLE', 'Accept application/json or text/turtle (a sh:ValidationReport).');
    const graph = siteGraph(site.id);
    let report: ValidationReport;
    if (!req.get('content-type') && !(Number(req.get('content-length')) > 0)) {
      // No body: the site's graph as it is.
      report = await this.options.validation.validate([await this.stored(graph)], graph, req.work?.signal);
    } else {
      const format = formatOf(req);
      const body = await this.receiveDocument(req, format);
      try {
        report = await this.options.validation.validate(
          [{ data: { path: body.path }, format }],
          graph,
          req.work?.signal,
        );
      } catch (error) {
        throw inputError(error, format);
      } finally {
        await body.remove();
      }
    }
    if (type === 'text/turtle') res.type('text/turtle').send(await reportTurtle(report));
    else res.json(report);
  };

  /** `GET …/graph/load`: how the site's latest load goes. */
  loadProgress = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const latest = await this.options.loads.latest(site.id);
    if (!latest) throw notFound(`No load of the site's graph is known to this service in the last 10 minutes.`);
    res.json(loadStatus(latest));
  };

  /** `GET …/graph/reading`: what the service made of the site's graph. */
  reading = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    res.set('ETag', versionTag(await this.options.history.version(site.id)));
    res.json(await this.options.query.modelReading(siteGraph(site.id), req.work));
  };

  /** `GET …/graph`: the site's graph as Turtle (with the model's prefixes) or N-Triples. */
  export = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const format = req.accepts(['text/turtle', 'application/n-triples']);
    if (!format) throw new AppError('NOT_ACCEPTABLE', 'Accept text/turtle or application/n-triples.');
    const { version } = validateBody(graphExportQuery, req.query);
    const graph = siteGraph(site.id);
    // Read before the graph: a write meanwhile makes the tag older than the export, never newer (an If-Match with it is refused).
    const latest = await this.options.history.version(site.id);
    res.set('ETag', versionTag(version ?? latest));
    // An older version is the graph now with the changes since undone (as long as they are kept).
    const older = version !== undefined && version !== latest;
    // A large graph goes as N-Triples straight from the store's files, never whole in memory (its
    // dump could be longer than a string may be), for Turtle too (N-Triples is Turtle). A smaller
    // one is dumped: one line per triple, where the files repeat a triple two documents both hold.
    const stream = older ? undefined : await this.store.exportStream?.(graph);
    if (stream && stream.triples > STREAMED_FROM) {
      res.type(format);
      await pipeline(Readable.from(stream.chunks), res);
      return;
    }
    const nTriples = older
      ? await graphAt(this.store, this.options.history, site.id, version)
      : await this.store.exportGraph(graph, 'application/n-triples');
    if (format === 'application/n-triples') {
      res.type(format).send(nTriples);
      return;
    }
    // Turtle with the prefixes the model had: its own declarations, the well-known ones, its entities' namespaces.
    const profile = await this.options.query.knowledge.profile(graph);
    const prefixes = await exportPrefixes(nTriples, await this.sites.prefixes(site.id), profile?.namespaces ?? []);
    res.type(format);
    await pipeline(turtleWithPrefixes(nTriples, prefixes), res);
  };

  /**
   * A validation of the entities a change touched, as they are now: their triples, with the
   * ontology; the whole graph past VALIDATED_ENTITIES of them.
   */
  private async validateTouched(graph: string, patch: GraphPatch, signal?: AbortSignal): Promise<ValidationReport> {
    const entities = [...touchedEntities(patch)];
    if (entities.length > VALIDATED_ENTITIES)
      return this.options.validation.validate([await this.stored(graph)], graph, signal);
    const nTriples = await this.options.query.describeEntities(graph, entities);
    return this.options.validation.validate([{ data: nTriples, format: 'application/n-triples' }], graph, signal);
  }

  /** A PATCH body as text (at most MAX_PATCH_BYTES). */
  private async receiveText(req: Request): Promise<string> {
    const body = await receiveBody(req, this.options.tmpDir, MAX_PATCH_BYTES, () => undefined);
    try {
      return await readFile(body.path, 'utf8');
    } finally {
      await body.remove();
    }
  }

  private async stored(graph: string): Promise<ModelSource> {
    return { data: await this.store.exportGraph(graph, 'application/n-triples'), format: 'application/n-triples' };
  }

  /**
   * Spools the body, checking its nesting as it arrives: no parser, the store's or the
   * validator's, ever reads a document that would make it trap.
   */
  private async receiveDocument(
    req: Request,
    format: RdfFormat,
    received?: (bytes: number) => void,
    prefixes?: PrefixDeclarations,
  ): Promise<ReceivedBody> {
    const scanner = rdfNestingScanner(format);
    try {
      return await receiveBody(req, this.options.tmpDir, this.options.maxUploadBytes, (chunk) => {
        scanner.push(chunk);
        prefixes?.push(chunk);
        received?.(chunk.length);
      });
    } catch (error) {
      throw inputError(error, format);
    }
  }
}

/**
 * `/sites/{id}/graph`: PUT replaces, POST merges, GET exports the site's graph; `?validate=1` and
 * `?strict=1` check the model a load makes against Brick's shapes; `POST …/graph/validate` checks a
 * model (the body, or the stored graph) without loading it.
 */
export function graphRoutes(sites: SiteStore, store: GraphStore, options: GraphRoutesOptions): Router {
  const handlers = new GraphHandlers(sites, store, options);
  const router = Router();
  router.post('/:siteId/graph/validate', handlers.validate);
  router.get('/:siteId/graph/load', handlers.loadProgress);
  router.get('/:siteId/graph/reading', handlers.reading);
  router.put('/:siteId/graph', handlers.load(true));
  router.post('/:siteId/graph', handlers.load(false));
  router.patch('/:siteId/graph', handlers.patch);
  router.delete('/:siteId/graph', handlers.clear);
  router.get('/:siteId/graph', handlers.export);
  return router;
}
