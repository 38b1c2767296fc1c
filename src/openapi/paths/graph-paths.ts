import { z } from 'zod';
import { graphLoadStatus, loadResult, modelReading } from '../response-schemas.ts';
import { json, text, errors, siteParams, rdfBody, TAGS, type PathRegistrar } from '../openapi-kit.ts';

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
    responses: {
      200: text('The graph, by Accept.', ['text/turtle', 'application/n-triples']),
      ...errors(404, 406, 503),
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
      'The load in progress, or the last one of the past 10 minutes, in this service process: `receiving` while the body arrives (bytes received of `bytesTotal`), `parsing` while the store reads it (bytes parsed, the triples they hold, and the rates: the embedded store reads a document as it parses it, and counts its triples ahead of the parser as it rewrites it for its journal), then `done` with the graph’s triples or `failed` with the message. Poll it while a `PUT`/`POST …/graph` is pending (`bkg load` does, once a second).',
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
