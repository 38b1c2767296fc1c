import { createRequire } from 'node:module';

/** The service's version (package.json), as the OpenAPI document and the MCP server announce it. */
export const SERVICE_VERSION: string = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;
