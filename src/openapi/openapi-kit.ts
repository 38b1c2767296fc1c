/** What the OpenAPI path registrations share: response shapes, the error responses, parameters and tags. */
import { type ResponseConfig, type RouteConfig, type ZodContentObject } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorBody, fieldErrors } from './response-schemas.ts';

export type Responses = RouteConfig['responses'];
export type Content = ZodContentObject;

export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
export const bytes = (description: string, types: readonly string[] = ['*/*']): ResponseConfig => ({
  description,
  content: Object.fromEntries(
    types.map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }]),
  ) as Content,
});
export const text = (description: string, types: readonly string[]): ResponseConfig => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: z.string() }])) as Content,
});

export const ERRORS = {
  400: json(
    z.union([fieldErrors, errorBody]),
    'Invalid input: field errors (`{"field": ["message"]}`) or `{detail, code}`.',
  ),
  401: json(
    errorBody,
    'No credentials (`WWW-Authenticate: Bearer`), or a bad, expired or revoked token (`WWW-Authenticate: Bearer error="invalid_token"`).',
  ),
  403: json(
    errorBody,
    'Not allowed: a write without write access, any write on the demo site, or an admin operation without an admin key.',
  ),
  404: json(errorBody, 'No such resource, or one the caller may not read (the two are indistinguishable).'),
  405: json(errorBody, 'The method is not served on this path (`Allow` names those that are).'),
  406: json(errorBody, 'No representation for the Accept header.'),
  409: json(errorBody, 'A resource with this id exists already, or (code CONFLICT) a state that refuses the request.'),
  412: json(
    errorBody,
    'If-Match named another version than the graph’s (code PRECONDITION_FAILED): it changed since it was read; nothing was changed.',
  ),
  413: json(
    errorBody,
    'The body is over the size limit, or a file does not fit in its site’s storage quota (code QUOTA_EXCEEDED).',
  ),
  416: json(errorBody, 'The Range cannot be satisfied.'),
  415: json(errorBody, 'The Content-Type is not one this endpoint reads.'),
  429: json(errorBody, 'Over the client’s rate limit; `Retry-After` says when to try again.'),
  503: json(errorBody, 'An engine (triplestore, database, file store) is unavailable.'),
} as const;
export type ErrorStatus = keyof typeof ERRORS;
export const errors = (...statuses: ErrorStatus[]): Responses =>
  Object.fromEntries([...statuses, 401 as const, 429 as const].map((s) => [s, ERRORS[s]]));

export const siteId = z.string().meta({ description: 'Site id.', example: 'demo' });
export const siteParams = z.object({ siteId });
export const fileParams = z.object({
  fileId: z.string().meta({ description: 'The site file’s UUID.', format: 'uuid' }),
});
export const RDF_TYPES = [
  'text/turtle',
  'application/n-triples',
  'application/n-quads',
  'application/ld+json',
] as const;
export const rdfBody = {
  description:
    'The graph, in the format the Content-Type names; of N-Quads and JSON-LD only the default graph is taken. Streamed to disk, never held in memory.',
  required: true,
  content: Object.fromEntries(RDF_TYPES.map((type) => [type, { schema: z.string() }])) as Content,
};
export const SPARQL_RESULT_TYPES = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
  'text/turtle',
  'application/n-triples',
] as const;
export const sparqlQuery = z.string().meta({
  description: 'A SPARQL 1.1 query: SELECT, ASK, CONSTRUCT or DESCRIBE.',
  example: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10',
});

/** The answers of a file's or a model's download. */
export const download: Responses = {
  200: bytes('The file, with its own Content-Type.'),
  206: bytes('The requested range.'),
  302: { description: 'To a presigned S3 URL.' },
  304: { description: 'Not modified.' },
  ...errors(404, 416, 503),
};

/** Said of the paths existing clients (the live service's MCP client) call without the version segment. */
export const unversioned = ' (also `/api/…`, without the version segment, as existing clients call it)';

export const TAGS = {
  sites: 'Sites',
  graph: 'Graph',
  sparql: 'SPARQL',
  files: 'Files',
  models: 'Models',
  alignment: 'IFC alignment',
  readings: 'Readings',
  timeseries: 'Timeseries',
  keys: 'Keys',
  graphql: 'GraphQL',
  mcp: 'MCP',
  operations: 'Operations',
  docs: 'Documentation',
};

/** Registers one path of the document. */
export type PathRegistrar = (route: RouteConfig) => void;
