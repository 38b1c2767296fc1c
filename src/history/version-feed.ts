/**
 * The feed of a site's graph changes: each new version, as it commits, pushed to whoever follows
 * the site (`GET …/graph/changes`, `Subscription.graphChanges`, MCP resource updates), from any
 * replica (Redis, when configured). A follower that was away names the last version it saw and
 * gets every version after it from the records, in order, then the live ones; where what it
 * missed is no longer kept (past retention, or a change too large to keep), it is told to read
 * the site again instead.
 */
import type { Logger } from '../log/logger.ts';
import { EventQueue } from '../redis/event-queue.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import { redisSiteEvents, type SiteEvents } from '../redis/site-events.ts';
import { parseRdfPatch, type GraphPatch } from '../rdf/rdf-patch.ts';
import type { ChangedEntity, TouchedEntities } from './changed-entities.ts';
import type { GraphVersion, VersionStore } from './version-store.ts';

/** Most entities an event names; `entitiesCut` says there were more. */
export const MAX_EVENT_ENTITIES = 100;
/** Most missed versions a follower is sent one by one; past it, it is told to read the site again. */
export const MAX_MISSED_VERSIONS = 1000;

/** A version as the feed tells it. */
export interface GraphChange extends Omit<GraphVersion, 'entities'> {
  readonly site: string;
  /** How many entities the change touched. */
  readonly entityCount: number;
  /** The entities the change touched (at most MAX_EVENT_ENTITIES); null when the change is not kept. */
  readonly entities: readonly ChangedEntity[] | null;
  readonly entitiesCut: boolean;
}

/** What a follower receives. */
export type FeedMessage =
  | { readonly type: 'version'; readonly change: GraphChange }
  /** Versions were missed whose changes are not kept: the follower should read the site again; `version` is the latest. */
  | { readonly type: 'reread'; readonly site: string; readonly version: number; readonly reason: string }
  /** The site was deleted; the feed ends. */
  | { readonly type: 'deleted'; readonly site: string };

/** What crosses replicas: a new version, or the site's deletion. */
export type FeedEvent = Extract<FeedMessage, { type: 'version' | 'deleted' }>;

/** Feed events through Redis pub/sub, on the channel `<prefix><siteId>`, as JSON. */
export function redisFeedEvents(redis: RedisConnection, channelPrefix: string, logger: Logger): SiteEvents<FeedEvent> {
  return redisSiteEvents(
    redis,
    channelPrefix,
    {
      name: 'graph changes',
      write: (event) => JSON.stringify(event),
      read: (message) => JSON.parse(message) as FeedEvent,
    },
    logger,
  );
}

/** The entities each of a site's changes touched, as events name them (one store query for all). */
export type DescribeChanges = (site: string, patches: readonly GraphPatch[], max: number) => Promise<TouchedEntities[]>;

export class VersionFeed {
  /** Per site, the event being published: the next waits for it, so events leave in version order. */
  private readonly publishing = new Map<string, Promise<void>>();
  /** The feeds followed now: a closing service ends them. */
  private readonly following = new Set<EventQueue<FeedMessage>>();

  constructor(
    private readonly events: SiteEvents<FeedEvent>,
    private readonly versions: Pick<VersionStore, 'after' | 'latest'>,
    private readonly describe: DescribeChanges,
    private readonly logger?: Logger,
  ) {}

  /** Announces a version just recorded (in the background: the write is answered meanwhile). */
  committed(site: string, version: GraphVersion, patch: GraphPatch | null): Promise<void> {
    const previous = this.publishing.get(site) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        const [change] = await this.changes(site, [{ version, patch }]);
        this.events.publish(site, { type: 'version', change: change! });
      } catch (error) {
        this.logger?.warn({ err: error, site, version: version.version }, 'could not announce a graph change');
      }
    });
    this.publishing.set(site, next);
    void next.then(() => {
      if (this.publishing.get(site) === next) this.publishing.delete(site);
    });
    return next;
  }

  /** Stops: announcements under way are finished, then listening ends. */
  async close(): Promise<void> {
    await Promise.all(this.publishing.values());
    for (const queue of this.following) queue.close();
    await this.events.close();
  }

  /** Announces that the site is gone: its followers' feeds end. */
  deleted(site: string): void {
    this.events.publish(site, { type: 'deleted', site });
  }

  /**
   * Follows a site: the versions after `since` (when given) from the records, then each new one.
   * Resolves once listening, so nothing committed after is missed. Ending the iteration stops it.
   */
  async follow(site: string, since?: number): Promise<AsyncIterableIterator<FeedMessage>> {
    const queue = new EventQueue<FeedMessage>(MAX_MISSED_VERSIONS + 100);
    let last = since;
    // Events are handled one after another: a gap (a lost or overtaken event) is filled from the records first.
    let handling = Promise.resolve();
    const handle = (event: FeedEvent | undefined) => {
      handling = handling
        .then(async () => {
          if (event?.type === 'deleted') {
            queue.push(event);
            queue.end();
            return;
          }
          const version = event?.change.version;
          if (version !== undefined && last !== undefined && version <= last) return;
          if (last !== undefined && (version === undefined || version > last + 1))
            await this.catchUp(site, last, version, queue, (v) => (last = v));
          if (event && (last === undefined || event.change.version > last)) {
            queue.push(event);
            last = event.change.version;
          }
        })
        .catch((error: unknown) => {
          this.logger?.warn({ err: error, site }, 'a graph change feed failed');
          queue.close();
        });
    };
    const stop = await this.events.listen(site, handle);
    this.following.add(queue);
    queue.onClose(() => {
      this.following.delete(queue);
      return stop();
    });
    if (since !== undefined) handle(undefined);
    return queue;
  }

  /** Sends the versions after `last` (up to `before`, exclusive, or the latest), or a reread where they cannot be told. */
  private async catchUp(
    site: string,
    last: number,
    before: number | undefined,
    queue: EventQueue<FeedMessage>,
    sent: (version: number) => void,
  ): Promise<void> {
    const latest = before !== undefined ? before - 1 : await this.versions.latest(site);
    if (latest === last) return;
    const reread = (reason: string) => {
      queue.push({ type: 'reread', site, version: latest, reason });
      sent(latest);
    };
    if (last > latest) return reread(`The site's graph has no version ${last}: its latest is ${latest}.`);
    if (latest - last > MAX_MISSED_VERSIONS)
      return reread(
        `${latest - last} versions were missed, more than the feed sends one by one (${MAX_MISSED_VERSIONS}).`,
      );
    const missed = await this.versions.after(site, last, latest - last);
    const lost = missed.find((row) => row.patch === null);
    if (lost || missed.length < latest - last)
      return reread(
        `The change of version ${lost?.version.version ?? last + 1} is no longer kept (past retention, or too large to keep): what changed since version ${last} cannot be told.`,
      );
    const changes = await this.changes(
      site,
      missed.map((row) => ({ version: row.version, patch: parseRdfPatch(row.patch!) })),
    );
    for (const change of changes) {
      queue.push({ type: 'version', change });
      sent(change.version);
    }
  }

  /** The versions as the feed tells them, their entities described together. */
  private async changes(
    site: string,
    versions: ReadonlyArray<{ version: GraphVersion; patch: GraphPatch | null }>,
  ): Promise<GraphChange[]> {
    const known = versions.flatMap(({ patch }) => (patch ? [patch] : []));
    const touched = known.length > 0 ? await this.describe(site, known, MAX_EVENT_ENTITIES) : [];
    let next = 0;
    return versions.map(({ version, patch }) => {
      const described = patch ? touched[next++]! : undefined;
      const { entities: entityCount, ...rest } = version;
      return {
        site,
        ...rest,
        entityCount,
        entities: described?.entities ?? null,
        entitiesCut: described?.cut ?? false,
      };
    });
  }
}
