/**
 * `/mcp`: the MCP server over Streamable HTTP, behind the same authentication, site scopes, rate
 * limits and request deadline as the rest of the API (the app mounts it after them). Stateless: a
 * server and transport per POST, answering JSON, so any replica serves any call and nothing is kept
 * between them. An unauthenticated call is 401, as on REST; a site the caller may not read is the
 * tool's error with REST's status (404).
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Router, json, type RequestHandler } from 'express';
import { SERVICE_VERSION } from '../config/service-version.ts';
import { AppError } from '../errors/app-error.ts';
import { requireCredentials } from '../tenants/site-access.ts';
import { createMcpServer } from './mcp-server.ts';
import type { McpSources } from './mcp-sources.ts';

export function mcpRoutes(sources: McpSources): Router {
  const router = Router();
  router.post('/', json({ limit: '1mb' }), async (req, res) => {
    requireCredentials(req.client);
    const server = createMcpServer(sources, { client: req.client, work: req.work }, SERVICE_VERSION);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // No session, so no stream to open (GET) or session to end (DELETE).
  const notServed: RequestHandler = (req, res) => {
    requireCredentials(req.client);
    res.setHeader('Allow', 'POST');
    throw new AppError('METHOD_NOT_ALLOWED', 'This MCP endpoint is stateless: send JSON-RPC messages with POST.');
  };
  router.get('/', notServed);
  router.delete('/', notServed);
  return router;
}
