import { z } from 'zod';
import { json, errors, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The MCP paths. */
export function mcpPaths(path: PathRegistrar): void {
  const jsonRpc = z
    .object({
      jsonrpc: z.literal('2.0'),
      id: z.union([z.string(), z.number()]).optional(),
      method: z.string().optional(),
      params: z.unknown().optional(),
      result: z.unknown().optional(),
      error: z.unknown().optional(),
    })
    .meta({
      id: 'JsonRpcMessage',
      description:
        'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, …).',
    });
  path({
    method: 'post',
    path: '/mcp',
    tags: [TAGS.mcp],
    summary: 'The MCP server (Streamable HTTP, stateless): read-only tools over the sites the caller may read',
    description:
      'Tools: list_sites, describe_site, find_entities, graphql, timeseries, sparql, list_files (docs/mcp.md). Send `Accept: application/json, text/event-stream`; answers are JSON. ' +
      'A tool refused (a site the caller may not read, a bad argument) answers its error with the REST status inside the result (`isError`).',
    request: {
      body: { required: true, content: { 'application/json': { schema: z.union([jsonRpc, z.array(jsonRpc)]) } } },
    },
    responses: {
      200: json(z.union([jsonRpc, z.array(jsonRpc)]), 'The JSON-RPC answer.'),
      202: { description: 'A notification, accepted.' },
      ...errors(400, 406, 415),
    },
  });
  for (const method of ['get', 'delete'] as const) {
    path({
      method,
      path: '/mcp',
      tags: [TAGS.mcp],
      summary: 'Not served: the MCP endpoint keeps no sessions (405, `Allow: POST`)',
      responses: { ...errors(405) },
    });
  }
}
