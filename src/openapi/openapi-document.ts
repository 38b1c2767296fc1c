import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { SERVICE_VERSION as version } from '../config/service-version.ts';
import { TAGS, type PathRegistrar } from './openapi-kit.ts';
import { sitesPaths } from './paths/sites-paths.ts';
import { graphPaths } from './paths/graph-paths.ts';
import { sparqlPaths } from './paths/sparql-paths.ts';
import { modelsPaths } from './paths/models-paths.ts';
import { alignmentPaths } from './paths/alignment-paths.ts';
import { readingsPaths } from './paths/readings-paths.ts';
import { filesPaths } from './paths/files-paths.ts';
import { keysPaths } from './paths/keys-paths.ts';
import { graphqlPaths } from './paths/graphql-paths.ts';
import { mcpPaths } from './paths/mcp-paths.ts';
import { operationsPaths } from './paths/operations-paths.ts';

/** Every path the service serves, registered with the schemas that validate its requests. */
function register(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key (`bkg_…`) or a user token (JWT). Anonymous callers may read the demo site through GraphQL only.',
  });
  registry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'BKG_METRICS_TOKEN, when the service is configured with one.',
  });
  const path: PathRegistrar = (route) => registry.registerPath(route);
  sitesPaths(path);
  graphPaths(path);
  sparqlPaths(path);
  modelsPaths(path);
  alignmentPaths(path);
  readingsPaths(path);
  filesPaths(path);
  keysPaths(path);
  graphqlPaths(path);
  mcpPaths(path);
  operationsPaths(path);
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
