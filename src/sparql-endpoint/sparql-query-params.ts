import { z } from 'zod';

/** The longest query text taken, in characters (a body over it is 413). */
export const MAX_QUERY_LENGTH = 100_000;

const fixedDataset =
  'The dataset is fixed: the site’s graph and the ontology graph. Name graphs with FROM, FROM NAMED or GRAPH in the query.';

/** The protocol parameters of `GET|POST /sites/{siteId}/sparql` (query string, or form body). */
export const sparqlQueryParams = z.object({
  query: z
    .string({ error: 'A SPARQL query is required: the `query` parameter, or an application/sparql-query body.' })
    .min(1, 'A SPARQL query is required: the `query` parameter, or an application/sparql-query body.')
    .max(MAX_QUERY_LENGTH, `At most ${MAX_QUERY_LENGTH} characters.`)
    .meta({
      description: 'The SPARQL 1.1 query (SELECT, ASK, CONSTRUCT or DESCRIBE).',
      example: 'SELECT ?ahu WHERE { ?ahu a brick:AHU }',
    }),
  'default-graph-uri': z.undefined({ error: fixedDataset }).optional(),
  'named-graph-uri': z.undefined({ error: fixedDataset }).optional(),
  update: z.undefined({ error: 'This endpoint is read-only: SPARQL Update is refused.' }).optional(),
});
