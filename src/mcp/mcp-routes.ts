/**
 * `/mcp`: the MCP server over Streamable HTTP, behind the same authentication, site scopes, rate
 * limits and request deadline as the rest of the API (the app mounts it after them). A call
 * without a session is stateless: a server and transport per POST, answering JSON, so any replica
 * serves it and nothing is kept. An initialize opens a session (`mcp-sessions.ts`), in which the
 * client may subscribe to a site and be told of its changes on the session's stream (GET).
 * An unauthenticated call is 401, as on REST; a site the caller may not read is the tool's error
 * with REST's status (404).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Router, json, type RequestHandler } from 'express';
import { SERVICE_VERSION } from '../config/service-version.ts';
import { AppError } from '../errors/app-error.ts';
import { requireCredentials } from '../tenants/site-access.ts';
import type { SubscriptionSlots } from '../limits/subscription-slots.ts';
import { createMcpServer } from './mcp-server.ts';
import { McpSessions, unknownSession, type SessionSources } from './mcp-sessions.ts';

export function mcpRoutes(sources: SessionSources, slots: SubscriptionSlots): Router {
  const sessions = new McpSessions(sources, slots, (caller) => createMcpServer(sources, caller, SERVICE_VERSION));
  const router = Router();
  router.post('/', json({ limit: '1mb' }), async (req, res) => {
    requireCredentials(req.client);
    const sessionId = req.get('mcp-session-id');
    if (sessionId !== undefined) {
      if (!(await sessions.handle(sessionId, req, res))) throw unknownSession();
      return;
    }
    if (isInitializeRequest(req.body)) return sessions.open(req, res);
    const server = createMcpServer(sources, { client: req.client, work: req.work }, SERVICE_VERSION);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // A session's stream (GET) and its end (DELETE); without a session there is neither.
  const inSession: RequestHandler = async (req, res) => {
    requireCredentials(req.client);
    const sessionId = req.get('mcp-session-id');
    if (sessionId === undefined) {
      res.setHeader('Allow', 'POST');
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        'Without a session this MCP endpoint is stateless: send JSON-RPC messages with POST, or initialize to open a session.',
      );
    }
    if (!(await sessions.handle(sessionId, req, res))) throw unknownSession();
  };
  router.get('/', inSession);
  router.delete('/', inSession);
  return router;
}
