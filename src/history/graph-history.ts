/**
 * Every change of a site's graph as a version (version-store.ts): writes of one site take turns,
 * each checked against the version its caller last read (If-Match: 412 PRECONDITION_FAILED,
 * nothing changed, when another write came first), and recorded with who made it, how, and the
 * change itself as RDF Patch. The latest version of each site is kept in memory once read: every
 * GraphQL answer and export names it (ETag).
 */
import type { Client } from '../auth/client.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import type { Logger } from '../log/logger.ts';
import { composeChanges, invertPatch, parseRdfPatch, writeRdfPatch, type GraphPatch } from '../rdf/rdf-patch.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { diffNTriples } from './load-diff.ts';
import { touchedEntities } from './patch-summary.ts';
import type { VersionFeed } from './version-feed.ts';
import type { GraphVersion, VersionAuthor, VersionHead, VersionStore, VersionVia } from './version-store.ts';

/** Who changes a site's graph, how, and on which version they based the change. */
export interface ChangeRequest {
  readonly site: string;
  readonly by: VersionAuthor;
  readonly via: VersionVia;
  readonly message: string | null;
  /** The version the caller last read (If-Match); undefined: whichever is latest. */
  readonly ifMatch?: number;
}

/** What a write did: the graph's triples after it and the change, or only its counts where the change was not worked out. */
export interface WriteOutcome<T> {
  readonly triples: number;
  readonly patch: GraphPatch | null;
  readonly added: number;
  readonly removed: number;
  readonly result: T;
}

export interface HistoryOptions {
  /** Versions whose change is kept, the newest first; older ones keep their record only. */
  readonly keepVersions?: number;
  /** Days a version's change is kept. */
  readonly keepDays?: number;
  /** Largest graph whose load is compared with the graph before it (load-diff.ts); past it a load's version keeps its counts only. */
  readonly diffMaxTriples: number;
  /** Largest change a version keeps (triples added and removed); a larger one keeps its counts only. */
  readonly maxChangeTriples: number;
  /** Whether other processes record versions too (replicas on a shared store): the latest is then read from the records each time. */
  readonly othersWrite?: boolean;
}

/** Who a client is, as a version records it. */
export function authorOf(client: Client): VersionAuthor {
  if (client.kind === 'key') return { kind: 'key', id: client.id, name: client.name };
  return { kind: client.kind === 'user' ? 'user' : 'service', id: client.id };
}

/**
 * A change a request asks for: by its client, based on the version its If-Match names (400 for a
 * header naming none; read before any work, so a bad header costs nothing).
 */
export function changeRequest(
  req: { readonly client: Client; get(name: string): string | undefined },
  site: string,
  via: VersionVia,
  message: string | undefined,
): ChangeRequest {
  const ifMatch = ifMatchVersion(req.get('if-match'));
  return {
    site,
    by: authorOf(req.client),
    via,
    message: message ?? null,
    ...(ifMatch !== undefined ? { ifMatch } : {}),
  };
}

/** `"v12"`: the ETag of a site's graph at version 12. */
export const versionTag = (version: number): string => `"v${version}"`;

/**
 * The version an If-Match header names (`"v12"`, `W/"v12"`, or `*`: any); undefined without one.
 * Throws 400 for a header that names no version of this service's.
 */
export function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"v(\d{1,9})"\s*$/.exec(header);
  if (!match)
    throw new AppError(
      'BAD_USER_INPUT',
      `If-Match must be the ETag a read of the graph answered ("v12"), or *; got ${JSON.stringify(header.slice(0, 64))}.`,
    );
  return Number(match[1]);
}

export class GraphHistory {
  /** Each site's write in progress: the next waits for it. */
  private readonly turns = new Map<string, Promise<unknown>>();
  private readonly latest = new Map<string, VersionHead>();

  constructor(
    private readonly versions: VersionStore,
    private readonly options: HistoryOptions,
    private readonly logger?: Logger,
    /** Where each new version is announced. */
    private readonly feed?: Pick<VersionFeed, 'committed' | 'deleted'>,
  ) {}

  /** The site's latest version (0 before the first). */
  async version(site: string): Promise<number> {
    return (await this.head(site)).version;
  }

  /**
   * The site's latest version and when it was made: what an answer read from the site's graph
   * is a function of (a site deleted and made again has the same version numbers at other times).
   */
  async head(site: string): Promise<VersionHead> {
    const known = this.options.othersWrite ? undefined : this.latest.get(site);
    if (known !== undefined) return known;
    const head = await this.versions.head(site);
    this.latest.set(site, head);
    return head;
  }

  /**
   * Runs a load of `graph` (a replace or a merge) and works out what it changed, when the graph
   * is at most `diffMaxTriples` before and after: the version then keeps the change, and diffs,
   * exports and rollbacks reach across it. Otherwise the version keeps the counts only.
   */
  async load<T>(
    store: GraphStore,
    graph: string,
    replace: boolean,
    load: () => Promise<{ triples: number } & T>,
    signal?: AbortSignal,
  ): Promise<WriteOutcome<{ triples: number } & T>> {
    const held = await store.countTriples(graph);
    const before =
      held <= this.options.diffMaxTriples ? await store.exportGraph(graph, 'application/n-triples') : undefined;
    const result = await load();
    // A change larger than a version keeps is not worked out.
    const patch =
      before !== undefined &&
      result.triples <= this.options.diffMaxTriples &&
      Math.abs(result.triples - held) <= this.options.maxChangeTriples
        ? await diffNTriples(before, await store.exportGraph(graph, 'application/n-triples'), signal)
        : null;
    return {
      triples: result.triples,
      patch,
      added: replace ? result.triples : Math.max(0, result.triples - held),
      removed: replace ? held : 0,
      result,
    };
  }

  /** The site's versions, newest first, from `before` (exclusive) when given. */
  list(site: string, limit: number, before?: number): Promise<GraphVersion[]> {
    return this.versions.list(site, limit, before);
  }

  /** One version of the site; 404 when it has none of that number. */
  async get(site: string, version: number): Promise<GraphVersion> {
    const found = await this.versions.get(site, version);
    if (!found) throw notFound(`The site's graph has no version ${version}.`);
    return found;
  }

  /**
   * The change from version `from` to version `to` (either may be the older), composed of the
   * changes between them; 404 for a version the site has not reached, 409 when a change between
   * them is not kept.
   */
  async change(site: string, from: number, to: number): Promise<GraphPatch> {
    const latest = await this.version(site);
    for (const v of [from, to])
      if (v < 0 || v > latest) throw notFound(`The site's graph has no version ${v}: its latest is ${latest}.`);
    const [low, high] = from <= to ? [from, to] : [to, from];
    const kept = await this.versions.patches(site, low, high);
    const missing = kept.find((v) => v.patch === null);
    if (missing)
      throw new AppError(
        'CONFLICT',
        `The change of version ${missing.version} is not kept (a load of a graph over ${this.options.diffMaxTriples.toLocaleString('en')} triples, or past retention): no diff, export or rollback reaches across it.`,
        { version: missing.version },
      );
    const composed = composeChanges(kept.map((v) => parseRdfPatch(v.patch!)));
    return from <= to ? composed : invertPatch(composed);
  }

  /** Forgets what is known of a deleted site, and tells its followers. */
  forget(site: string): void {
    this.latest.delete(site);
    this.feed?.deleted(site);
  }

  /**
   * Runs `write` in the site's turn, after checking `ifMatch`, and records the version it made.
   * A write that throws records nothing (and, by the store's contract, changed nothing).
   */
  write<T>(
    request: ChangeRequest,
    write: () => Promise<WriteOutcome<T>>,
  ): Promise<{ version: GraphVersion; result: T }> {
    const previous = this.turns.get(request.site) ?? Promise.resolve();
    const turn = previous.catch(() => undefined).then(() => this.inTurn(request, write));
    const settled = turn.catch(() => undefined);
    this.turns.set(request.site, settled);
    void settled.then(() => {
      if (this.turns.get(request.site) === settled) this.turns.delete(request.site);
    });
    return turn;
  }

  private async inTurn<T>(
    request: ChangeRequest,
    write: () => Promise<WriteOutcome<T>>,
  ): Promise<{ version: GraphVersion; result: T }> {
    // From the records, not the memory: another replica may have written since.
    const parent = (await this.versions.head(request.site)).version;
    if (request.ifMatch !== undefined && request.ifMatch !== parent)
      throw new AppError(
        'PRECONDITION_FAILED',
        `The site's graph is at version ${parent}, not ${request.ifMatch} (If-Match): it changed since it was read. Nothing was changed; read it again and resend the change.`,
        { version: parent },
      );
    const outcome = await write();
    const patch =
      outcome.patch && outcome.patch.add.length + outcome.patch.remove.length <= this.options.maxChangeTriples
        ? outcome.patch
        : null;
    const version = await this.versions.add(request.site, parent, {
      by: request.by,
      via: request.via,
      message: request.message,
      triples: outcome.triples,
      added: outcome.patch?.add.length ?? outcome.added,
      removed: outcome.patch?.remove.length ?? outcome.removed,
      entities: outcome.patch ? touchedEntities(outcome.patch).size : 0,
      patch: patch ? writeRdfPatch(patch) : null,
    });
    this.latest.set(request.site, { version: version.version, at: version.at });
    // The entities of a change larger than a version keeps are not told (the same as a follower catching up is told).
    void this.feed?.committed(request.site, version, patch);
    // One statement, in the write's turn: retention holds once the write is answered.
    if (this.options.keepVersions !== undefined || this.options.keepDays !== undefined)
      await this.versions
        .prune(request.site, this.options.keepVersions, this.options.keepDays)
        .catch((error: unknown) =>
          this.logger?.warn({ err: error, site: request.site }, 'could not prune old versions'),
        );
    return { version, result: outcome.result };
  }
}
