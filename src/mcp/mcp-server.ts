/**
 * The service's MCP server for one caller: the read-only tools over the site graphs, readings and
 * files, and the GraphQL schema as a resource. Made per request (the HTTP transport is stateless),
 * so every tool runs as the caller, within the request's deadline and budget.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerDataTools } from './data-tools.ts';
import { registerHistoryTools } from './history-tools.ts';
import type { Caller } from './graphql-call.ts';
import type { McpSources } from './mcp-sources.ts';
import { registerQueryTools, SCHEMA_URI } from './query-tools.ts';
import { registerSiteTools } from './site-tools.ts';

export const SERVER_NAME = 'building-knowledge-graph';

const INSTRUCTIONS = `Building knowledge graphs (Brick), one per site, with their readings and documents.
Start with list_sites, then describe_site to see what a site holds (classes, relations, timeseries coverage).
find_entities searches by class, name and location and pages; graphql answers anything the schema can say
(equipment that feeds others: feeds/fedBy/upstream/downstream; points: timeseriesId, unit, currentValue);
timeseries reads the history of points by their timeseriesId; sparql asks the graph directly; list_files
finds documents and models; site_history tells what changed in a site's graph, when and by whom. Every
list pages: answers say how many there are and the next offset.`;

export function createMcpServer(sources: McpSources, caller: Caller, version: string): McpServer {
  const server = new McpServer({ name: SERVER_NAME, version }, { instructions: INSTRUCTIONS });
  registerSiteTools(server, sources, caller);
  registerQueryTools(server, sources, caller);
  registerDataTools(server, sources, caller);
  registerHistoryTools(server, sources, caller);
  server.registerResource(
    'graphql-schema',
    SCHEMA_URI,
    {
      title: 'GraphQL schema',
      description: 'The GraphQL schema (SDL) the graphql tool runs against, with every field’s description.',
      mimeType: 'text/plain',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: sources.schemaText }] }),
  );
  return server;
}
