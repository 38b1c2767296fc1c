import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { Router } from 'express';
import { notFound } from '../errors/app-error.ts';
import { publishedSchema } from '../graphql/published-schema.ts';
import { openApiDocument } from './openapi-document.ts';

const require = createRequire(import.meta.url);
const swaggerDir = dirname(require.resolve('swagger-ui-dist/package.json'));
// The files /docs needs; nothing else of the package is served.
const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><title>Building knowledge graph: REST API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"><link rel="icon" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: true });</script>
</body>
</html>`;

/**
 * What integrators read: the OpenAPI document (`/openapi.json`), rendered by Swagger UI served from
 * this service (`/docs`, no CDN), and the GraphQL SDL (`/graphql/schema.graphql`). Public: they hold
 * no data.
 */
export function docsRoutes(): Router {
  const router = Router();
  const sdl = publishedSchema();
  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get('/docs/:asset', (req, res) => {
    const asset = req.params.asset;
    if (!SWAGGER_ASSETS.has(asset)) throw notFound(`No documentation asset "${asset.slice(0, 100)}".`);
    res.sendFile(join(swaggerDir, asset), { maxAge: '1d' });
  });
  router.get('/graphql/schema.graphql', (_req, res) => {
    res.type('text/plain; charset=utf-8').send(sdl);
  });
  return router;
}
