/**
 * MCP sessions: what a client that initializes gets, so the server can tell it things later. A
 * session is its own server and transport, kept on this replica (a load balancer keeps a
 * session's requests on one replica by its `Mcp-Session-Id`), bound to the client that opened
 * it (another client naming it is told it does not exist), counted among the client's
 * subscriptions (one slot), and closed when the client ends it or after it has been idle
 * (no request, no stream open) for `idleMs`.
 *
 * In a session a client may subscribe to a site's resource (`bkg://sites/{id}`): each new version
 * of the site's graph, from any replica, is then a `notifications/resources/updated` on the
 * session's stream (GET), so an agent's view of a building is never silently stale.
 * Each request runs within its own deadline and budget (`RequestWork`), as a stateless call does.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import type { Client } from '../auth/client.ts';
import { AppError, badUserInput } from '../errors/app-error.ts';
import type { VersionFeed } from '../history/version-feed.ts';
import { clientKey } from '../http-kit/client-key.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { SubscriptionSlots } from '../limits/subscription-slots.ts';
import type { Caller } from './graphql-call.ts';
import { siteOfUri } from './history-tools.ts';
import { callerSite, type McpSources } from './mcp-sources.ts';

/** How long a session without requests or an open stream is kept. */
const IDLE_MS = 30 * 60_000;

/** The request being handled, whichever session's server runs it. */
const requestWork = new AsyncLocalStorage<RequestWork | undefined>();

interface Session {
  readonly holder: string;
  readonly transport: StreamableHTTPServerTransport;
  readonly server: McpServer;
  readonly release: () => void;
  /** The feeds of the sites subscribed to, by resource URI. */
  readonly follows: Map<string, AsyncIterableIterator<unknown>>;
  lastSeen: number;
  streams: number;
}

export interface SessionSources extends McpSources {
  readonly feed: Pick<VersionFeed, 'follow'>;
}

export class McpSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly sources: SessionSources,
    private readonly slots: SubscriptionSlots,
    private readonly createServer: (caller: Caller) => McpServer,
    private readonly idleMs = IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, idleMs)).unref();
  }

  /** Handles an initialize request: a new session, whose id the answer carries (`Mcp-Session-Id`). */
  async open(req: Request, res: Response): Promise<void> {
    const holder = clientKey(req.client);
    const release = await this.takeSlot(holder, req.client.kind);
    const follows = new Map<string, AsyncIterableIterator<unknown>>();
    const client = req.client;
    // The session's tools run as its client, within the deadline of the request they answer.
    const server = this.createServer({
      client,
      get work() {
        return requestWork.getStore();
      },
    });
    server.server.registerCapabilities({ resources: { subscribe: true } });
    this.handleSubscriptions(server, client, follows);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { holder, transport, server, release, follows, lastSeen: Date.now(), streams: 0 });
      },
      onsessionclosed: (id) => this.end(id),
    });
    try {
      await server.connect(transport);
      await requestWork.run(req.work, () => transport.handleRequest(req, res, req.body));
    } finally {
      // An initialize that did not make a session (a malformed one) leaves nothing behind.
      if (!transport.sessionId || !this.sessions.has(transport.sessionId)) {
        release();
        void server.close();
      }
    }
  }

  /** Handles a request of a session (POST a message, GET its stream, DELETE it); false when the client has no session of that id. */
  async handle(id: string, req: Request, res: Response): Promise<boolean> {
    const session = this.sessions.get(id);
    if (!session || session.holder !== clientKey(req.client)) return false;
    session.lastSeen = Date.now();
    if (req.method === 'GET') {
      session.streams++;
      res.once('close', () => {
        session.streams--;
        session.lastSeen = Date.now();
      });
    }
    await requestWork.run(req.work, () => session.transport.handleRequest(req, res, req.body));
    return true;
  }

  /**
   * A slot for a new session of `holder`: when all its slots are taken, its session idle longest
   * without a stream open gives its slot up (clients that never end their sessions are common),
   * else RATE_LIMITED.
   */
  private async takeSlot(holder: string, kind: Client['kind']): Promise<() => void> {
    try {
      return this.slots.take(holder, kind);
    } catch (error) {
      let oldest: [string, Session] | undefined;
      for (const entry of this.sessions)
        if (entry[1].holder === holder && entry[1].streams === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen))
          oldest = entry;
      if (!oldest) throw error;
      await this.end(oldest[0]);
      return this.slots.take(holder, kind);
    }
  }

  /** Ends every session (the service is closing). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id)));
  }

  /** `resources/subscribe` and `resources/unsubscribe` on site resources: follows the site's graph changes. */
  private handleSubscriptions(
    server: McpServer,
    client: Client,
    follows: Map<string, AsyncIterableIterator<unknown>>,
  ): void {
    server.server.setRequestHandler(SubscribeRequestSchema, async ({ params }) => {
      const siteId = siteOfUri(params.uri);
      if (!siteId)
        throw badUserInput(`Only site resources (bkg://sites/{siteId}) can be subscribed to, not ${params.uri}.`);
      const site = await callerSite(this.sources, { client, work: requestWork.getStore() }, siteId);
      if (follows.has(params.uri)) return {};
      const changes = await this.sources.feed.follow(site.id);
      follows.set(params.uri, changes);
      void (async () => {
        for await (const _change of changes)
          await server.server.sendResourceUpdated({ uri: params.uri }).catch(() => undefined);
        follows.delete(params.uri);
      })();
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, async ({ params }) => {
      await follows.get(params.uri)?.return?.();
      follows.delete(params.uri);
      return {};
    });
  }

  private async end(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.release();
    for (const changes of session.follows.values()) await changes.return?.();
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions)
      if (session.streams === 0 && now - session.lastSeen > this.idleMs) void this.end(id);
  }
}

/** The answer to a request naming a session this client does not have (the client starts a new one). */
export const unknownSession = (): AppError =>
  new AppError('NOT_FOUND', 'No such MCP session (it ended, or belongs to another client): initialize a new one.');
