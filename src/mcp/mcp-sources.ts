import type { SiteFiles } from '../files/site-files.ts';
import type { GraphHistory } from '../history/graph-history.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import type { ReadingStore } from '../readings/reading-store.ts';
import type { SparqlLimits } from '../sparql-endpoint/answer-query.ts';
import { readableSite, requireCredentials } from '../tenants/site-access.ts';
import type { SiteRecord, SiteStore } from '../tenants/site-store.ts';
import type { GraphStore } from '../store/graph-store.ts';
import type { Caller, GraphQLEndpoint } from './graphql-call.ts';

/** What the MCP tools read: the same services the REST and GraphQL APIs answer from. */
export interface McpSources {
  readonly sites: SiteStore;
  readonly store: GraphStore;
  readonly query: QueryLayer;
  readonly readings: ReadingStore;
  readonly files: SiteFiles;
  readonly graphql: GraphQLEndpoint;
  /** The GraphQL schema's SDL, offered as a resource. */
  readonly schemaText: string;
  readonly sparqlLimits: SparqlLimits;
  /** The versions of each site's graph. */
  readonly history: GraphHistory;
}

/** The site a tool asks, as REST reads it for the caller: 401 without credentials, 404 for a site it may not read. */
export function callerSite(sources: McpSources, caller: Caller, siteId: string): Promise<SiteRecord> {
  requireCredentials(caller.client);
  return readableSite(sources.sites, caller.client, siteId);
}
