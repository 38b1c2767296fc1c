import { z } from 'zod';
import {
  text,
  errors,
  siteParams,
  SPARQL_RESULT_TYPES,
  sparqlQuery,
  TAGS,
  type PathRegistrar,
  type Responses,
} from '../openapi-kit.ts';

/** The SPARQL paths. */
export function sparqlPaths(path: PathRegistrar): void {
  const sparqlResponses: Responses = {
    200: text(
      'Results by Accept: SELECT and ASK as SPARQL JSON, XML, CSV or TSV; CONSTRUCT and DESCRIBE as Turtle or N-Triples.',
      SPARQL_RESULT_TYPES,
    ),
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
}
