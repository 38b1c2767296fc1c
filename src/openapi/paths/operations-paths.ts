import { z } from 'zod';
import { GRAPHIQL_ASSETS_PATH } from '../../graphql/graphiql.ts';
import { errorBody, health, readiness } from '../response-schemas.ts';
import { json, text, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The Operations and documentation paths. */
export function operationsPaths(path: PathRegistrar): void {
  const open = { security: [] };
  path({
    method: 'get',
    path: '/healthz',
    tags: [TAGS.operations],
    summary: 'Liveness: the process answers and no engine is broken for good',
    ...open,
    responses: {
      200: json(health, 'Alive.'),
      503: json(health, 'An engine is broken and not recovering: restart the service.'),
    },
  });
  path({
    method: 'get',
    path: '/readyz',
    tags: [TAGS.operations],
    summary: 'Readiness: every engine answers and every site is restored',
    ...open,
    responses: {
      200: json(readiness, 'Ready.'),
      503: json(readiness, 'An engine is unavailable, or sites are still being restored after a restart.'),
    },
  });
  path({
    method: 'get',
    path: '/metrics',
    tags: [TAGS.operations],
    summary: 'Prometheus metrics (text format); needs BKG_METRICS_TOKEN when one is configured',
    security: [{ metricsToken: [] }, {}],
    responses: {
      200: text('Metrics.', ['text/plain']),
      401: json(errorBody, 'A token is configured and the request did not carry it.'),
    },
  });
  path({
    method: 'get',
    path: '/viewer',
    tags: [TAGS.docs],
    summary:
      'The 3D viewer page (`/viewer?site=<id>`); it reads models through `/viewer/api/sites/…`, the models paths open to anonymous callers for the demo site',
    ...open,
    responses: {
      200: text('HTML.', ['text/html']),
      503: json(errorBody, 'The viewer is not built (npm run build:viewer).'),
    },
  });
  path({
    method: 'get',
    path: '/openapi.json',
    tags: [TAGS.docs],
    summary: 'This document',
    ...open,
    responses: { 200: text('OpenAPI 3.1.', ['application/json']) },
  });
  path({
    method: 'get',
    path: '/docs',
    tags: [TAGS.docs],
    summary: 'This document, rendered (Swagger UI)',
    ...open,
    responses: { 200: text('HTML.', ['text/html']) },
  });
  for (const icon of ['/favicon.svg', '/favicon.ico']) {
    path({
      method: 'get',
      path: icon,
      tags: [TAGS.docs],
      summary: 'The service’s icon (SVG), which GraphiQL and the viewer page show',
      ...open,
      responses: { 200: text('The icon.', ['image/svg+xml']) },
    });
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
