import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '../errors/app-error.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { jsonBody } from '../http-kit/json-body.ts';
import { writeRdfPatch, type GraphPatch } from '../rdf/rdf-patch.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { readableSite, requireCredentials, writableSite } from '../tenants/site-access.ts';
import type { SiteStore } from '../tenants/site-store.ts';
import { changeRequest, versionTag, type GraphHistory } from './graph-history.ts';
import { versionNumber } from './version-number.ts';
import { summarizePatch } from './patch-summary.ts';
import type { FeedMessage, VersionFeed } from './version-feed.ts';
import { clientKey } from '../http-kit/client-key.ts';
import type { SubscriptionSlots } from '../limits/subscription-slots.ts';

/** The query of `GET …/graph/versions`. */
export const versionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50).meta({ description: 'Versions in one page (1–500).' }),
  before: versionNumber('before')
    .optional()
    .meta({ description: 'List the versions older than this one (the next page).' }),
});

/** The query of `GET …/graph/diff`. */
export const diffQuery = z.object({
  from: versionNumber('from').meta({ description: 'The version the change starts from.' }),
  to: versionNumber('to').optional().meta({ description: 'The version it ends at; the latest by default.' }),
  triples: z
    .enum(['0', '1'])
    .default('1')
    .meta({ description: 'With 0, the JSON answer has the summary and counts only.' }),
});

/** The body of `POST …/graph/rollback`. */
export const rollbackBody = z.object({
  to: versionNumber('to').meta({ description: 'The version the graph is to be again.' }),
  message: z.string().max(1000).optional().meta({ description: 'Why: kept with the version the rollback makes.' }),
});

/** The query of `GET …/graph/changes`. */
export const changesQuery = z.object({
  since: versionNumber('since')
    .optional()
    .meta({ description: 'The last version the follower saw: every later one is sent first (Last-Event-ID wins).' }),
});

/** How often an idle feed says it is still there (proxies close silent connections). */
const KEEP_ALIVE_MS = 15_000;

/** What a feed needs besides the history: the changes, and the slots its followers take. */
export interface FeedRouteOptions {
  readonly feed: Pick<VersionFeed, 'follow'>;
  readonly slots: SubscriptionSlots;
}

/** The handlers of `/sites/{id}/graph/versions|diff|rollback|changes`, one per route. */
class HistoryHandlers {
  constructor(
    private readonly sites: SiteStore,
    private readonly store: GraphStore,
    private readonly history: GraphHistory,
    private readonly feeds: FeedRouteOptions,
  ) {}

  /** `GET …/graph/versions`: newest first, a page at a time. */
  list = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const query = validateBody(versionsQuery, req.query);
    const latest = await this.history.version(site.id);
    const items = await this.history.list(site.id, query.limit, query.before);
    const last = items.at(-1);
    res.set('ETag', versionTag(latest));
    res.json({
      latest,
      items,
      nextBefore: items.length === query.limit && last && last.version > 1 ? last.version : null,
    });
  };

  /** `GET …/graph/versions/{version}`. */
  one = async (req: Request<{ siteId: string; version: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const version = validateBody(z.object({ version: versionNumber('version') }), req.params).version;
    res.json(await this.history.get(site.id, version));
  };

  /** `GET …/graph/diff?from=&to=`: the change between two versions, as RDF Patch or JSON with a summary. */
  diff = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const query = validateBody(diffQuery, req.query);
    const type = req.accepts(['application/json', 'application/rdf-patch']);
    if (!type) throw new AppError('NOT_ACCEPTABLE', 'Accept application/json or application/rdf-patch.');
    const to = query.to ?? (await this.history.version(site.id));
    const patch = await this.history.change(site.id, query.from, to);
    if (type === 'application/rdf-patch') {
      res.type('application/rdf-patch').send(writeRdfPatch(patch));
      return;
    }
    res.json({
      from: query.from,
      to,
      added: patch.add.length,
      removed: patch.remove.length,
      summary: summarizePatch(patch),
      ...(query.triples === '1' ? { triples: { add: patch.add, remove: patch.remove } } : {}),
    });
  };

  /**
   * `GET …/graph/changes`: the site's graph changes as Server-Sent Events (`version`, `reread`,
   * `deleted`), each version's id its number, so a reconnecting client resumes after the last it got.
   */
  changes = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await readableSite(this.sites, req.client, req.params.siteId);
    const query = validateBody(changesQuery, req.query);
    const lastEventId = req.get('last-event-id');
    const since =
      lastEventId !== undefined
        ? validateBody(z.object({ since: versionNumber('Last-Event-ID') }), { since: lastEventId }).since
        : query.since;
    const release = this.feeds.slots.take(clientKey(req.client), req.client.kind);
    // Registered first: a follower gone before its feed starts still frees its slot and its listener.
    let messages: AsyncIterableIterator<FeedMessage> | undefined;
    const keepAlive: { timer?: ReturnType<typeof setInterval> } = {};
    res.once('close', () => {
      clearInterval(keepAlive.timer);
      release();
      void messages?.return?.();
    });
    try {
      messages = await this.feeds.feed.follow(site.id, since);
    } catch (error) {
      release();
      throw error;
    }
    if (res.destroyed) {
      void messages.return?.();
      return;
    }
    keepAlive.timer = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: 3000\n: the graph changes of site ${site.id}\n\n`);
    for await (const message of messages) res.write(feedEventText(message));
    res.end();
  };

  /** `POST …/graph/rollback {"to": v}`: a new version whose graph is version v's. */
  rollback = async (req: Request<{ siteId: string }>, res: Response): Promise<void> => {
    requireCredentials(req.client);
    const site = await writableSite(this.sites, req.client, req.params.siteId);
    const body = validateBody(rollbackBody, req.body);
    const change = changeRequest(req, site.id, 'rollback', body.message ?? `rollback to version ${body.to}`);
    const graph = siteGraph(site.id);
    const { version } = await this.history.write(change, async () => {
      const undo: GraphPatch = await this.history.change(site.id, await this.history.version(site.id), body.to);
      const made = await this.store.changeGraph(graph, undo);
      return { ...made, added: made.patch.add.length, removed: made.patch.remove.length, result: made };
    });
    res.set('ETag', versionTag(version.version));
    res.json(version);
  };
}

/** One message as an event of the stream: its kind, the version it leaves the follower at (the id to resume from), and JSON. */
function feedEventText(message: FeedMessage): string {
  const { type, ...data } = message;
  const body = 'change' in data ? data.change : data;
  const id =
    message.type === 'version' ? message.change.version : message.type === 'reread' ? message.version : undefined;
  return `event: ${type}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(body)}\n\n`;
}

/** `/sites/{id}/graph/versions`, `…/versions/{v}`, `…/diff`, `…/rollback`, `…/changes`. */
export function historyRoutes(
  sites: SiteStore,
  store: GraphStore,
  history: GraphHistory,
  feeds: FeedRouteOptions,
): Router {
  const handlers = new HistoryHandlers(sites, store, history, feeds);
  const router = Router();
  router.get('/:siteId/graph/versions', handlers.list);
  router.get('/:siteId/graph/versions/:version', handlers.one);
  router.get('/:siteId/graph/diff', handlers.diff);
  router.get('/:siteId/graph/changes', handlers.changes);
  router.post('/:siteId/graph/rollback', jsonBody('64kb'), handlers.rollback);
  return router;
}
