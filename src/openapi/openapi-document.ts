import { OpenAPIRegistry, OpenApiGeneratorV31, type ResponseConfig, type RouteConfig, type ZodContentObject } from '@asteasolutions/zod-to-openapi';
import { SERVICE_VERSION as version } from '../config/service-version.ts';
import { z } from 'zod';
import { newKeySchema } from '../keys/new-key-schema.ts';
import { decisionBody, MAX_PROPOSAL_PAGE, proposalsQuery } from '../alignment/alignment-requests.ts';
import { GRAPHIQL_ASSETS_PATH } from '../graphql/graphiql.ts';
import { createFileFields, listElementsQuery, listFilesQuery, listModelsQuery, updateFileFields } from '../files/file-fields.ts';
import { MAX_READINGS_PER_REQUEST, readingItemSchema } from '../readings/reading-input.ts';
import { newSiteSchema, siteChangesSchema } from '../sites/site-schema.ts';
import { timeseriesQueryBody } from '../timeseries/timeseries-query.ts';
import {
  createdKey,
  elementPage,
  errorBody,
  fieldErrors,
  fileRecord,
  filePage,
  graphLoadStatus,
  health,
  ingestReport,
  keyRecord,
  loadResult,
  modelReading,
  mappedElement,
  modelFile,
  modelStoreys,
  readiness,
  siteRecord,
  timeseriesAnswer,
  alignmentCoverage,
  alignmentProposalPage,
} from './response-schemas.ts';

type Responses = RouteConfig['responses'];
type Content = ZodContentObject;

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const bytes = (description: string, types: readonly string[] = ['*/*']): ResponseConfig => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }])) as Content,
});
const text = (description: string, types: readonly string[]): ResponseConfig => ({
  description,
  content: Object.fromEntries(types.map((type) => [type, { schema: z.string() }])) as Content,
});

const ERRORS = {
  400: json(z.union([fieldErrors, errorBody]), 'Invalid input: field errors (`{"field": ["message"]}`) or `{detail, code}`.'),
  401: json(errorBody, 'No credentials (`WWW-Authenticate: Bearer`), or a bad, expired or revoked token (`WWW-Authenticate: Bearer error="invalid_token"`).'),
  403: json(errorBody, 'Not allowed: a write without write access, any write on the demo site, or an admin operation without an admin key.'),
  404: json(errorBody, 'No such resource, or one the caller may not read (the two are indistinguishable).'),
  405: json(errorBody, 'The method is not served on this path (`Allow` names those that are).'),
  406: json(errorBody, 'No representation for the Accept header.'),
  409: json(errorBody, 'A resource with this id exists already.'),
  413: json(errorBody, 'The body is over the size limit, or a file does not fit in its site’s storage quota (code QUOTA_EXCEEDED).'),
  416: json(errorBody, 'The Range cannot be satisfied.'),
  415: json(errorBody, 'The Content-Type is not one this endpoint reads.'),
  429: json(errorBody, 'Over the client’s rate limit; `Retry-After` says when to try again.'),
  503: json(errorBody, 'An engine (triplestore, database, file store) is unavailable.'),
} as const;
type ErrorStatus = keyof typeof ERRORS;
const errors = (...statuses: ErrorStatus[]): Responses => Object.fromEntries([...statuses, 401 as const, 429 as const].map((s) => [s, ERRORS[s]]));

const siteId = z.string().meta({ description: 'Site id.', example: 'demo' });
const siteParams = z.object({ siteId });
const fileParams = z.object({ fileId: z.string().meta({ description: 'The site file’s UUID.', format: 'uuid' }) });
const RDF_TYPES = ['text/turtle', 'application/n-triples', 'application/n-quads', 'application/ld+json'] as const;
const rdfBody = {
  description: 'The graph, in the format the Content-Type names; of N-Quads and JSON-LD only the default graph is taken. Streamed to disk, never held in memory.',
  required: true,
  content: Object.fromEntries(RDF_TYPES.map((type) => [type, { schema: z.string() }])) as Content,
};
const SPARQL_RESULT_TYPES = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
  'text/turtle',
  'application/n-triples',
] as const;
const sparqlQuery = z.string().meta({ description: 'A SPARQL 1.1 query: SELECT, ASK, CONSTRUCT or DESCRIBE.', example: 'SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 10' });

const TAGS = {
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

/** Every path the service serves, registered with the schemas that validate its requests. */
function register(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`bkg_…`) or a user token (JWT). Anonymous callers may read the demo site through GraphQL only.',
  });
  registry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'BKG_METRICS_TOKEN, when the service is configured with one.',
  });
  const path = (route: RouteConfig) => registry.registerPath(route);
  const open = { security: [] };

  // Sites
  // The paths existing clients (the live service's MCP client) call without the version segment are listed as such.
  const unversioned = ' (also `/api/…`, without the version segment, as existing clients call it)';
  for (const [base, note] of [['/api/v1', ''], ['/api', unversioned]] as const) {
    path({ method: 'get', path: `${base}/sites/`, tags: [TAGS.sites], summary: `List the sites the caller may read (the demo site included)${note}`, responses: { 200: json(z.array(siteRecord), 'The sites, by id.'), ...errors() } });
  }
  path({
    method: 'post',
    path: '/api/v1/sites/',
    tags: [TAGS.sites],
    summary: 'Create a site (admin)',
    request: { body: { required: true, content: { 'application/json': { schema: newSiteSchema.meta({ id: 'NewSite' }) } } } },
    responses: { 201: json(siteRecord, 'The new site.'), ...errors(400, 403, 409, 415) },
  });
  path({ method: 'get', path: '/api/v1/sites/{siteId}', tags: [TAGS.sites], summary: 'Read a site', request: { params: siteParams }, responses: { 200: json(siteRecord, 'The site.'), ...errors(404) } });
  path({
    method: 'patch',
    path: '/api/v1/sites/{siteId}',
    tags: [TAGS.sites],
    summary: 'Change a site’s name, time zone or other descriptive fields (admin; the demo site is read-only)',
    description:
      'Only the fields given change; `null` clears an optional one. The id cannot change. Readings keep their instants: answers write them in the new time zone at once.',
    request: { params: siteParams, body: { required: true, content: { 'application/json': { schema: siteChangesSchema.meta({ id: 'SiteChanges' }) } } } },
    responses: { 200: json(siteRecord, 'The changed site.'), ...errors(400, 403, 404, 415) },
  });
  path({
    method: 'delete',
    path: '/api/v1/sites/{siteId}',
    tags: [TAGS.sites],
    summary: 'Delete a site with its graph, files, readings and key grants (admin)',
    request: { params: siteParams },
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 503) },
  });

  // Graph
  for (const [method, summary] of [
    ['put', 'Replace the site’s graph'],
    ['post', 'Merge into the site’s graph'],
  ] as const) {
    path({
      method,
      path: '/api/v1/sites/{siteId}/graph',
      tags: [TAGS.graph],
      summary: `${summary} (write access)`,
      description:
        'A syntax error answers 400 with its `line` and `column` and leaves the graph as it was. While the service parses a large document, `GET /api/v1/sites/{siteId}/graph/load` tells how far it is (bytes parsed, rate); `bkg load` shows it. After a restart, a site still being restored answers 503 `SITE_LOADING` with `Retry-After`.',
      request: { params: siteParams, body: rdfBody },
      responses: { 200: json(loadResult, 'Loaded.'), ...errors(400, 403, 404, 413, 415, 503) },
    });
  }
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph',
    tags: [TAGS.graph],
    summary: 'Export the site’s graph',
    description:
      'Turtle declares the prefixes the model had: those of the site’s last Turtle loads (a replace sets them, a merge adds), then brick, rec, ref, rdf, rdfs, owl, skos, xsd, unit and qudt, then `site:` for the namespace of its entities; only those the graph uses. Past a million triples the answer is N-Triples (valid Turtle, without prefixes), streamed.',
    request: { params: siteParams },
    responses: { 200: text('The graph, by Accept.', ['text/turtle', 'application/n-triples']), ...errors(404, 406, 503) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph/reading',
    tags: [TAGS.graph],
    summary: 'What the service made of the site’s model (read access)',
    description:
      'The load report of the graph as it is now, as every load answers it (`reading`): the Brick version the model looks like, classes read from older Brick names or Brick 1.4’s deprecated ones (with what they are read as), classes the site declares, classes nobody declares (with the closest Brick names), entities without a class, and relations between resources that no field reads.',
    request: { params: siteParams },
    responses: { 200: json(modelReading, 'The reading.'), ...errors(404, 503) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph/load',
    tags: [TAGS.graph],
    summary: 'How the latest load of the site’s graph goes (read access)',
    description:
      'The load in progress, or the last one of the past 10 minutes, in this service process: `receiving` while the body arrives (bytes received of `bytesTotal`), `parsing` while the store reads it (bytes parsed, the triples they hold, and the rates: the embedded store reads a document as it parses it, and counts its triples ahead of the parser as it rewrites it for its journal), then `done` with the graph’s triples or `failed` with the message. Poll it while a `PUT`/`POST …/graph` is pending (`bkg load` does, once a second).',
    request: { params: siteParams },
    responses: { 200: json(graphLoadStatus, 'The load.'), ...errors(404) },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/graph/validate',
    tags: [TAGS.graph],
    summary: 'Check a model against the ontology’s Brick shapes without loading it',
    description: 'A validation report a person can act on: per violation the focus node, its label, the path, the message and the severity; counts per kind; unknown classes with the closest known names. JSON by default, Turtle (`sh:ValidationReport`) by Accept.',
    request: { params: siteParams, body: rdfBody },
    responses: {
      200: { description: 'The report.', content: { 'application/json': { schema: z.object({}).catchall(z.unknown()).meta({ id: 'ValidationReport' }) }, 'text/turtle': { schema: z.string() } } },
      ...errors(400, 404, 413, 415, 503),
    },
  });

  // SPARQL
  const sparqlResponses: Responses = {
    200: text('Results by Accept: SELECT and ASK as SPARQL JSON, XML, CSV or TSV; CONSTRUCT and DESCRIBE as Turtle or N-Triples.', SPARQL_RESULT_TYPES),
    ...errors(400, 404, 406, 503),
  };
  const sparqlDescription =
    'The SPARQL 1.1 Protocol, queries only, over exactly the site’s graph and the ontology: FROM, FROM NAMED and GRAPH cannot reach another site; updates and SERVICE are refused (400); a timeout and a result cap apply.';
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/sparql',
    tags: [TAGS.sparql],
    summary: 'Query the site’s graph in SPARQL',
    description: sparqlDescription,
    request: { params: siteParams, query: z.object({ query: sparqlQuery }) },
    responses: sparqlResponses,
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/sparql',
    tags: [TAGS.sparql],
    summary: 'Query the site’s graph in SPARQL (query in the body)',
    description: sparqlDescription,
    request: {
      params: siteParams,
      body: {
        required: true,
        content: {
          'application/sparql-query': { schema: sparqlQuery },
          'application/x-www-form-urlencoded': { schema: z.object({ query: sparqlQuery }) },
        },
      },
    },
    responses: sparqlResponses,
  });

  // Models
  const download: Responses = {
    200: bytes('The file, with its own Content-Type.'),
    206: bytes('The requested range.'),
    302: { description: 'To a presigned S3 URL.' },
    304: { description: 'Not modified.' },
    ...errors(404, 416, 503),
  };
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models',
    tags: [TAGS.models],
    summary: 'List the site’s model files (SPEC 4.2)',
    description: 'Also served with a trailing slash. Ordered by `sort_order`, then upload time.',
    request: { params: siteParams, query: listModelsQuery },
    responses: { 200: json(z.array(modelFile), 'The model files.'), ...errors(400, 404) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models/{modelId}/download',
    tags: [TAGS.models],
    summary: 'Download a model file',
    description: 'The bytes with `Content-Disposition: attachment`, a strong `ETag`, `Range` (206) and `If-None-Match` (304); with S3 and `?redirect=1` (or BKG_DOWNLOAD_REDIRECT) a 302 to a presigned URL.',
    request: {
      params: siteParams.extend({ modelId: z.string().meta({ format: 'uuid' }) }),
      query: z.object({ redirect: z.enum(['0', '1']).optional() }),
    },
    responses: download,
  });

  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models/{modelId}/elements',
    tags: [TAGS.models],
    summary: 'The elements of an IFC model (or of the IFC a fragments file was made from), or one element and its graph entity',
    description: 'With `ifcId`: that element, `mapped`, and the graph entity carrying its GlobalId. Without: a page of elements (`limit`, default 1000, and `offset`), optionally of one storey. 409 while the IFC file is still being read.',
    request: { params: siteParams.extend({ modelId: z.string().meta({ format: 'uuid' }) }), query: listElementsQuery },
    responses: { 200: json(z.union([elementPage, mappedElement]), 'A page of elements, or the one asked for.'), ...errors(400, 404, 409, 503) },
  });

  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/models/{modelId}/storeys',
    tags: [TAGS.models],
    summary: 'The storeys of an IFC model (or of the IFC a fragments file was made from)',
    description: 'By elevation (metres), each with how many elements stand on it. 409 while the IFC file is still being read.',
    request: { params: siteParams.extend({ modelId: z.string().meta({ format: 'uuid' }) }) },
    responses: { 200: json(modelStoreys, 'The storeys.'), ...errors(404, 409, 503) },
  });

  // IFC alignment
  const decision = { required: true, content: { 'application/json': { schema: decisionBody.meta({ id: 'AlignmentDecision' }) } } };
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/alignment/proposals',
    tags: [TAGS.alignment],
    summary: 'Proposed links between the site’s IFC elements and its graph’s entities, best score first',
    description: `Every read IFC file of the site against the graph, one-to-one (docs/ifc-alignment.md). \`status\`: proposed (default), accepted (links the graph states), rejected, all. \`limit\` defaults to 100, at most ${MAX_PROPOSAL_PAGE}.`,
    request: { params: siteParams, query: proposalsQuery },
    responses: { 200: json(alignmentProposalPage, 'A page of proposals.'), ...errors(400, 404) },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/alignment/accept',
    tags: [TAGS.alignment],
    summary: 'Accept proposals (write access; the demo site is read-only): their ref:IFCReference links are written into the graph',
    description: 'By `ids` (open or rejected proposals; an unknown id is 404 and nothing changes) or every open proposal scoring at least `minScore`. `entityByIfcId` finds the links at once.',
    request: { params: siteParams, body: decision },
    responses: { 200: json(z.object({ accepted: z.number().int() }), 'How many links were written.'), ...errors(400, 403, 404, 415) },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/alignment/reject',
    tags: [TAGS.alignment],
    summary: 'Reject proposals (write access): never proposed again; an accepted link’s triples leave the graph',
    request: { params: siteParams, body: decision },
    responses: { 200: json(z.object({ rejected: z.number().int() }), 'How many pairs were rejected.'), ...errors(400, 403, 404, 415) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/alignment/coverage',
    tags: [TAGS.alignment],
    summary: 'Which IFC elements that should map are mapped, proposed or unmatched, per class and storey, and the entities without an element',
    request: { params: siteParams },
    responses: { 200: json(alignmentCoverage, 'The coverage report.'), ...errors(404) },
  });

  // Readings and timeseries
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/readings',
    tags: [TAGS.readings],
    summary: 'Store readings (write access)',
    description: `A JSON array (or one object), or NDJSON (one reading per line), of at most ${MAX_READINGS_PER_REQUEST} readings. Each item is checked on its own: bad items are reported by index, the good ones stored in one transaction. Writing a reading again replaces it.`,
    request: {
      params: siteParams,
      body: {
        required: true,
        content: {
          'application/json': { schema: z.union([z.array(readingItemSchema.meta({ id: 'Reading' })).max(MAX_READINGS_PER_REQUEST), readingItemSchema]) },
          'application/x-ndjson': { schema: z.string().meta({ description: 'One Reading object per line.' }) },
        },
      },
    },
    responses: { 200: json(ingestReport, 'What was stored and what was refused.'), ...errors(400, 403, 404, 413, 415, 503) },
  });
  for (const [base, note] of [['/api/v1', ''], ['/api', unversioned]] as const) {
    path({
      method: 'post',
      path: `${base}/sites/{siteId}/timeseries`,
      tags: [TAGS.timeseries],
      summary: `Historical readings of up to 200 series, raw or per window (SPEC 4.4)${note}`,
      request: { params: siteParams, body: { required: true, content: { 'application/json': { schema: timeseriesQueryBody.meta({ id: 'TimeseriesQuery' }) } } } },
      responses: { 200: json(timeseriesAnswer, 'The series, with the site’s timezone under `query.timezone`; ids no point carries are under `errors`.'), ...errors(400, 404, 503) },
    });
  }

  // Files
  const fileList = z.union([z.array(fileRecord), filePage]);
  path({
    method: 'get',
    path: '/api/files/',
    tags: [TAGS.files],
    summary: 'List site files (SPEC 4.3)',
    description: 'Without `limit` the plain array of all matches; with `limit` (cut to 1000) and `offset` one page.',
    request: { query: listFilesQuery },
    responses: { 200: json(fileList, 'The files.'), ...errors(400, 404) },
  });
  const multipart = (schema: z.ZodObject, required: boolean) => ({
    required: true,
    content: {
      'multipart/form-data': {
        schema: schema.extend({ file: (required ? z.string() : z.string().optional()).meta({ format: 'binary', description: 'The bytes.' }) }),
      },
    },
  });
  path({
    method: 'post',
    path: '/api/files/',
    tags: [TAGS.files],
    summary: 'Upload a site file (write access)',
    request: { body: multipart(createFileFields, true) },
    responses: { 201: json(fileRecord, 'The new file’s record; `Location` names it.'), ...errors(400, 403, 404, 413, 415, 503) },
  });
  path({ method: 'get', path: '/api/files/{fileId}/', tags: [TAGS.files], summary: 'Read a site file’s record', request: { params: fileParams }, responses: { 200: json(fileRecord, 'The record.'), ...errors(404) } });
  path({
    method: 'put',
    path: '/api/files/{fileId}/',
    tags: [TAGS.files],
    summary: 'Update a site file (write access); fields not sent keep their value',
    request: {
      params: fileParams,
      body: { ...multipart(updateFileFields, false), content: { ...multipart(updateFileFields, false).content, 'application/json': { schema: updateFileFields } } },
    },
    responses: { 200: json(fileRecord, 'The updated record.'), ...errors(400, 403, 404, 413, 415, 503) },
  });
  path({ method: 'delete', path: '/api/files/{fileId}/', tags: [TAGS.files], summary: 'Delete a site file and its bytes (write access)', request: { params: fileParams }, responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 503) } });
  path({
    method: 'get',
    path: '/api/files/{fileId}/download/',
    tags: [TAGS.files],
    summary: 'Download a site file',
    request: { params: fileParams, query: z.object({ redirect: z.enum(['0', '1']).optional() }) },
    responses: download,
  });

  // Keys
  path({
    method: 'post',
    path: '/api/v1/keys/',
    tags: [TAGS.keys],
    summary: 'Create an API key (admin); the secret is in the answer, once',
    request: { body: { required: true, content: { 'application/json': { schema: newKeySchema.meta({ id: 'NewApiKey' }) } } } },
    responses: { 201: json(createdKey, 'The key and its secret.'), ...errors(400, 403) },
  });
  path({ method: 'get', path: '/api/v1/keys/', tags: [TAGS.keys], summary: 'List API keys (admin), never their secrets', responses: { 200: json(z.array(keyRecord), 'The keys.'), ...errors(403) } });
  path({
    method: 'delete',
    path: '/api/v1/keys/{keyId}',
    tags: [TAGS.keys],
    summary: 'Revoke an API key (admin), at once',
    request: { params: z.object({ keyId: z.string().meta({ format: 'uuid' }) }) },
    responses: { 204: { description: 'Revoked.' }, ...errors(403, 404) },
  });

  // GraphQL
  const graphqlRequest = z
    .object({ query: z.string(), variables: z.record(z.string(), z.unknown()).optional(), operationName: z.string().optional() })
    .meta({ id: 'GraphQLRequest' });
  const graphqlResult = z
    .object({ data: z.unknown().optional(), errors: z.array(z.object({ message: z.string(), extensions: z.object({ code: z.string() }).catchall(z.unknown()).optional() }).catchall(z.unknown())).optional() })
    .meta({ id: 'GraphQLResult' });
  const graphqlResponse = json(graphqlResult, 'GraphQL result: `data`, and `errors` with `extensions.code`. Subscriptions stream as server-sent events with `Accept: text/event-stream`.');
  path({
    method: 'post',
    path: '/graphql',
    tags: [TAGS.graphql],
    summary: 'GraphQL queries and subscriptions (schema: /graphql/schema.graphql)',
    security: [{ bearer: [] }, {}],
    request: { body: { required: true, content: { 'application/json': { schema: graphqlRequest } } } },
    responses: { 200: graphqlResponse, 400: graphqlResponse, 401: graphqlResponse, 429: graphqlResponse, 503: graphqlResponse },
  });
  path({
    method: 'get',
    path: '/graphql',
    tags: [TAGS.graphql],
    summary: 'GraphiQL in a browser (Accept: text/html), or a query in the URL',
    security: [{ bearer: [] }, {}],
    request: { query: z.object({ query: z.string().optional(), variables: z.string().optional(), operationName: z.string().optional() }) },
    responses: { 200: { description: 'GraphiQL, or a GraphQL result.', content: { 'text/html': { schema: z.string() }, 'application/json': { schema: graphqlResult } } } },
  });
  path({ method: 'get', path: '/graphql/schema.graphql', tags: [TAGS.docs], summary: 'The GraphQL schema (SDL), with descriptions', ...open, responses: { 200: text('The SDL.', ['text/plain']) } });

  // MCP (docs/mcp.md)
  const jsonRpc = z
    .object({ jsonrpc: z.literal('2.0'), id: z.union([z.string(), z.number()]).optional(), method: z.string().optional(), params: z.unknown().optional(), result: z.unknown().optional(), error: z.unknown().optional() })
    .meta({ id: 'JsonRpcMessage', description: 'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, resources/read, …).' });
  path({
    method: 'post',
    path: '/mcp',
    tags: [TAGS.mcp],
    summary: 'The MCP server (Streamable HTTP, stateless): read-only tools over the sites the caller may read',
    description:
      'Tools: list_sites, describe_site, find_entities, graphql, timeseries, sparql, list_files (docs/mcp.md). Send `Accept: application/json, text/event-stream`; answers are JSON. ' +
      'A tool refused (a site the caller may not read, a bad argument) answers its error with the REST status inside the result (`isError`).',
    request: { body: { required: true, content: { 'application/json': { schema: z.union([jsonRpc, z.array(jsonRpc)]) } } } },
    responses: { 200: json(z.union([jsonRpc, z.array(jsonRpc)]), 'The JSON-RPC answer.'), 202: { description: 'A notification, accepted.' }, ...errors(400, 406, 415) },
  });
  for (const method of ['get', 'delete'] as const) {
    path({ method, path: '/mcp', tags: [TAGS.mcp], summary: 'Not served: the MCP endpoint keeps no sessions (405, `Allow: POST`)', responses: { ...errors(405) } });
  }

  // Operations and documentation
  path({ method: 'get', path: '/healthz', tags: [TAGS.operations], summary: 'Liveness: the process answers and no engine is broken for good', ...open, responses: { 200: json(health, 'Alive.'), 503: json(health, 'An engine is broken and not recovering: restart the service.') } });
  path({ method: 'get', path: '/readyz', tags: [TAGS.operations], summary: 'Readiness: every engine answers and every site is restored', ...open, responses: { 200: json(readiness, 'Ready.'), 503: json(readiness, 'An engine is unavailable, or sites are still being restored after a restart.') } });
  path({
    method: 'get',
    path: '/metrics',
    tags: [TAGS.operations],
    summary: 'Prometheus metrics (text format); needs BKG_METRICS_TOKEN when one is configured',
    security: [{ metricsToken: [] }, {}],
    responses: { 200: text('Metrics.', ['text/plain']), 401: json(errorBody, 'A token is configured and the request did not carry it.') },
  });
  path({
    method: 'get',
    path: '/viewer',
    tags: [TAGS.docs],
    summary: 'The 3D viewer page (`/viewer?site=<id>`); it reads models through `/viewer/api/sites/…`, the models paths open to anonymous callers for the demo site',
    ...open,
    responses: { 200: text('HTML.', ['text/html']), 503: json(errorBody, 'The viewer is not built (npm run build:viewer).') },
  });
  path({ method: 'get', path: '/openapi.json', tags: [TAGS.docs], summary: 'This document', ...open, responses: { 200: text('OpenAPI 3.1.', ['application/json']) } });
  path({ method: 'get', path: '/docs', tags: [TAGS.docs], summary: 'This document, rendered (Swagger UI)', ...open, responses: { 200: text('HTML.', ['text/html']) } });
  for (const icon of ['/favicon.svg', '/favicon.ico']) {
    path({ method: 'get', path: icon, tags: [TAGS.docs], summary: 'The service’s icon (SVG), which GraphiQL and the viewer page show', ...open, responses: { 200: text('The icon.', ['image/svg+xml']) } });
  }
  path({
    method: 'get',
    path: '/docs/{asset}',
    tags: [TAGS.docs],
    summary: 'Swagger UI’s scripts and styles',
    ...open,
    request: { params: z.object({ asset: z.string() }) },
    responses: { 200: text('The asset.', ['text/javascript', 'text/css']), 404: json(errorBody, 'No such asset.') },
  });
  path({
    method: 'get',
    path: `${GRAPHIQL_ASSETS_PATH}/{file}`,
    tags: [TAGS.docs],
    summary: 'GraphiQL’s scripts and styles, served by this service (no CDN)',
    ...open,
    request: { params: z.object({ file: z.string() }) },
    responses: { 200: text('The asset.', ['text/javascript', 'text/css']), 404: json(errorBody, 'No such asset.') },
  });
}

let built: ReturnType<OpenApiGeneratorV31['generateDocument']> | undefined;

/** The OpenAPI 3.1 document of the REST API, generated once from the request schemas. */
export function openApiDocument() {
  if (built) return built;
  const registry = new OpenAPIRegistry();
  register(registry);
  built = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Building knowledge graph service',
      version,
      description:
        'One Brick knowledge graph per site, queried over GraphQL (`/graphql`), with REST for sites, graphs, SPARQL, files, models, readings, timeseries and API keys. ' +
        'Every site path is also served without the version segment (`/api/sites/…`); the models paths also under `/viewer/api/sites/…` for the 3D viewer (anonymous callers may read the demo site there). Paths are served with or without a trailing slash. ' +
        'Errors: field errors as Django REST framework writes them, else `{detail, code}`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    security: [{ bearer: [] }],
    tags: Object.values(TAGS).map((name) => ({ name })),
  });
  return built;
}
