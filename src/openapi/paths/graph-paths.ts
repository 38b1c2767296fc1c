import { z } from 'zod';
import {
  changeResult,
  graphDiff,
  graphLoadStatus,
  graphVersion,
  graphVersions,
  loadResult,
  modelReading,
} from '../response-schemas.ts';
import {
  graphDeleteQuery,
  graphExportQuery,
  graphLoadQuery,
  graphPatchQuery,
  PATCH_TYPES,
} from '../../graphs/graph-routes.ts';
import { changesQuery, diffQuery, rollbackBody, versionsQuery } from '../../history/history-routes.ts';
import { json, text, errors, siteParams, rdfBody, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** If-Match: the version a change is based on. */
const ifMatch = z.object({
  'if-match': z.string().optional().meta({
    description:
      'The ETag a read of the graph answered ("v12"): the change is refused (412) if the graph is at another version.',
  }),
});

/** The Graph paths. */
export function graphPaths(path: PathRegistrar): void {
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
      request: { params: siteParams, query: graphLoadQuery, headers: ifMatch, body: rdfBody },
      responses: { 200: json(loadResult, 'Loaded.'), ...errors(400, 403, 404, 412, 413, 415, 503) },
    });
  }
  path({
    method: 'patch',
    path: '/api/v1/sites/{siteId}/graph',
    tags: [TAGS.graph],
    summary: 'Change the site’s graph by the triple (write access)',
    description:
      'A SPARQL 1.1 Update (INSERT DATA, DELETE DATA, DELETE/INSERT … WHERE, DELETE WHERE, CLEAR DEFAULT; several operations in one request, in order) or an RDF Patch (A and D rows), applied to the site’s graph all or nothing, as one version. The graph the update writes is its default graph; its WHERE reads the site’s graph and the ontology. Refused with 400 naming the construct: LOAD, CREATE, ADD, MOVE, COPY, CLEAR or DROP of another graph, WITH, USING or GRAPH naming another graph, GRAPH in a template, SERVICE. Blank nodes: one added is new; one removed stands for any blank node with all the removed triples naming it.',
    request: {
      params: siteParams,
      query: graphPatchQuery,
      headers: ifMatch,
      body: {
        required: true,
        content: Object.fromEntries(PATCH_TYPES.map((type) => [type, { schema: z.string() }])),
      },
    },
    responses: { 200: json(changeResult, 'Changed.'), ...errors(400, 403, 404, 412, 413, 415, 503) },
  });
  path({
    method: 'delete',
    path: '/api/v1/sites/{siteId}/graph',
    tags: [TAGS.graph],
    summary: 'Empty the site’s graph (write access), as a version',
    description: 'What an empty PUT is refused for. The site stays; a rollback brings the graph back.',
    request: { params: siteParams, query: graphDeleteQuery, headers: ifMatch },
    responses: { 200: json(changeResult, 'Emptied.'), ...errors(403, 404, 412, 503) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph/versions',
    tags: [TAGS.graph],
    summary: 'The versions of the site’s graph, newest first',
    description: 'Every change (PUT, POST, PATCH, DELETE, alignment decisions, rollback) is one. ETag: the latest.',
    request: { params: siteParams, query: versionsQuery },
    responses: { 200: json(graphVersions, 'A page of versions.'), ...errors(400, 404) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph/versions/{version}',
    tags: [TAGS.graph],
    summary: 'One version of the site’s graph',
    request: { params: siteParams.extend({ version: z.string().meta({ description: 'Version number.' }) }) },
    responses: { 200: json(graphVersion, 'The version.'), ...errors(400, 404) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph/diff',
    tags: [TAGS.graph],
    summary: 'What changed between two versions',
    description:
      'The triples added and removed from `from` to `to` (either may be the older): RDF Patch, which applied with PATCH to a copy of `from` gives `to`, or JSON with a summary (entities added and removed, class changes, relations added and removed, labels changed). 409 when a change between them is not kept.',
    request: { params: siteParams, query: diffQuery },
    responses: {
      200: {
        description: 'The change.',
        content: { 'application/json': { schema: graphDiff }, 'application/rdf-patch': { schema: z.string() } },
      },
      ...errors(400, 404, 406, 409),
    },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph/changes',
    tags: [TAGS.graph],
    summary: 'Follow the site’s graph changes (Server-Sent Events)',
    description:
      'Each new version as it commits, from any replica: `event: version`, `id:` its number, `data:` the version (who, how, counts) with `site`, `entityCount`, and `entities` (at most 100 of those it touched, `{id, uri, kind}`, in IRI order; `entitiesCut` when there were more; null when the change is not known). A follower that names the last version it saw (`Last-Event-ID`, as a browser’s EventSource sends it on reconnecting, or `?since=`) gets every later version first, in order; where those are no longer kept it gets one `event: reread` (read the site again) instead. `event: deleted` ends the stream. Counts against the caller’s cap of open subscriptions (429).',
    request: {
      params: siteParams,
      query: changesQuery,
      headers: z.object({
        'last-event-id': z.string().optional().meta({ description: 'The last version the follower saw.' }),
      }),
    },
    responses: {
      200: text('The event stream.', ['text/event-stream']),
      ...errors(400, 401, 404, 429),
    },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/graph/rollback',
    tags: [TAGS.graph],
    summary: 'Make the site’s graph what it was at a version (write access)',
    description:
      'A new version, whose graph is version `to`’s: undoes a bad load. 409 when a change since is not kept.',
    request: {
      params: siteParams,
      headers: ifMatch,
      body: { required: true, content: { 'application/json': { schema: rollbackBody } } },
    },
    responses: { 200: json(graphVersion, 'The version the rollback made.'), ...errors(400, 403, 404, 409, 412, 503) },
  });
  path({
    method: 'get',
    path: '/api/v1/sites/{siteId}/graph',
    tags: [TAGS.graph],
    summary: 'Export the site’s graph, now or at an older version',
    description:
      'Turtle declares the prefixes the model had: those of the site’s last Turtle loads (a replace sets them, a merge adds), then brick, rec, ref, rdf, rdfs, owl, skos, xsd, unit and qudt, then `site:` for the namespace of its entities; only those the graph uses. Past a million triples the answer is N-Triples (valid Turtle, without prefixes), streamed.',
    request: { params: siteParams, query: graphExportQuery },
    responses: {
      200: text('The graph, by Accept; ETag: its version.', ['text/turtle', 'application/n-triples']),
      ...errors(404, 406, 409, 503),
    },
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
      'The load in progress, or the last one of the past 10 minutes, in this service process: `receiving` while the body arrives (bytes received of `bytesTotal`), `parsing` while the store reads it (bytes parsed, the triples they hold where the format counts them by its lines (N-Triples, N-Quads; `null` for Turtle until done), and the rates: the embedded store reads a document as it parses it), then `done` with the graph’s triples or `failed` with the message. Poll it while a `PUT`/`POST …/graph` is pending (`bkg load` does, once a second).',
    request: { params: siteParams },
    responses: { 200: json(graphLoadStatus, 'The load.'), ...errors(404) },
  });
  path({
    method: 'post',
    path: '/api/v1/sites/{siteId}/graph/validate',
    tags: [TAGS.graph],
    summary: 'Check a model against the ontology’s Brick shapes without loading it',
    description:
      'A validation report a person can act on: per violation the focus node, its label, the path, the message and the severity; counts per kind; unknown classes with the closest known names. JSON by default, Turtle (`sh:ValidationReport`) by Accept.',
    request: { params: siteParams, body: rdfBody },
    responses: {
      200: {
        description: 'The report.',
        content: {
          'application/json': { schema: z.object({}).catchall(z.unknown()).meta({ id: 'ValidationReport' }) },
          'text/turtle': { schema: z.string() },
        },
      },
      ...errors(400, 404, 413, 415, 503),
    },
  });
}
