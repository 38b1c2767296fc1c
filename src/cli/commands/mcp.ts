import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SERVICE_VERSION } from '../../config/service-version.ts';
import { SERVER_NAME } from '../../mcp/mcp-server.ts';
import type { Command } from '../command.ts';
import { ApiError, UnreachableError } from '../errors.ts';

/**
 * `bkg mcp`: the service's MCP tools for a desktop assistant, which starts this command and talks
 * to it over stdio. Every request is passed to the running service's `/mcp` with the key, so the
 * tools, their answers and what the key may read are the service's own; nothing is answered here.
 */
export const mcp: Command = {
  path: ['mcp'],
  summary: 'Serve the MCP tools over stdio (for a desktop AI assistant), through a running service',
  args: [],
  options: {},
  details:
    'Started by an assistant, not by hand: it reads JSON-RPC on stdin and writes it on stdout. It connects to\n' +
    "the service's /mcp endpoint (--url or BKG_URL) with the key (--token or BKG_TOKEN) first, and fails with a\n" +
    'clear message on stderr when it cannot. An assistant is configured as in docs/mcp.md, e.g.\n' +
    '  { "command": "node", "args": ["<checkout>/bin/bkg.js", "mcp"], "env": { "BKG_URL": "http://localhost:4000", "BKG_TOKEN": "<key>" } }',
  async run({ api }) {
    const { url, headers } = api.endpoint('mcp');
    const remote = new Client({ name: 'bkg-cli', version: SERVICE_VERSION });
    try {
      await remote.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    } catch (error) {
      if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
        throw new ApiError(
          error.code,
          error.code === 401
            ? 'The service refused the credentials: set --token or BKG_TOKEN to an API key.'
            : error.message,
          undefined,
        );
      }
      throw new UnreachableError(api.url, error instanceof Error ? error.message : String(error));
    }
    const server = new Server(
      { name: SERVER_NAME, version: SERVICE_VERSION },
      { capabilities: remote.getServerCapabilities() ?? {}, instructions: remote.getInstructions() },
    );
    server.setRequestHandler(ListToolsRequestSchema, (request) => remote.listTools(request.params));
    server.setRequestHandler(CallToolRequestSchema, (request) => remote.callTool(request.params));
    server.setRequestHandler(ListResourcesRequestSchema, (request) => remote.listResources(request.params));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => remote.readResource(request.params));
    const closed = new Promise<void>((resolve) => (server.onclose = resolve));
    await server.connect(new StdioServerTransport());
    await closed;
    await remote.close();
  },
};
