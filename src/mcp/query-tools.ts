/**
 * `graphql`, `find_entities` and `sparql`: the site's graph asked three ways: any GraphQL operation,
 * a structured search that pages, and the confined per-site SPARQL endpoint.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkFilterText } from '../compiler/filter-text-limits.ts';
import { badUserInput } from '../errors/app-error.ts';
import { answerQuery, siteQuery } from '../sparql-endpoint/answer-query.ts';
import { MAX_QUERY_LENGTH } from '../sparql-endpoint/sparql-query-params.ts';
import { callGraphQL, graphQLData, type Caller } from './graphql-call.ts';
import { callerSite, type McpSources } from './mcp-sources.ts';
import { answering, answerTooLarge, MAX_ANSWER_CHARS, page } from './tool-answer.ts';

export const SCHEMA_URI = 'bkg://graphql/schema.graphql';
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const paging = {
  limit: z.number().int().min(1).max(200).default(50).describe('At most this many results (1–200).'),
  offset: z.number().int().min(0).default(0).describe('How many to skip first; the answer gives the next offset.'),
};

/** What find_entities searches, the GraphQL root field and count field of each, and what it reads of each result. */
const KINDS = {
  building: { list: 'building', count: 'buildingCount', fields: 'id name type' },
  equipment: { list: 'equipment', count: 'equipmentCount', fields: 'id name type location { id name }' },
  point: { list: 'point', count: 'pointCount', fields: 'id name type unit timeseriesId equipment { id name type }' },
  zone: { list: 'zone', count: 'zoneCount', fields: 'id name type' },
  system: { list: 'system', count: 'systemCount', fields: 'id name type' },
} as const;

/** Each search argument, its GraphQL argument, and the kinds that take it. */
const ARGUMENTS = [
  ['class', 'is', ['equipment', 'point', 'zone', 'system']],
  ['name', 'name', ['building', 'equipment', 'point', 'zone', 'system']],
  ['locationId', 'locationId', ['equipment', 'point', 'zone']],
  ['locationName', 'locationName', ['equipment', 'point']],
  ['equipmentId', 'equipmentId', ['point']],
  ['equipmentClass', 'equipmentIs', ['point']],
] as const;

type Search = Partial<Record<(typeof ARGUMENTS)[number][0], string>>;

/** The GraphQL operation of a search: one page and the count, in one request. */
function searchOperation(
  kind: keyof typeof KINDS,
  search: Search,
): { query: string; variables: Record<string, unknown> } {
  const { list, count, fields } = KINDS[kind];
  const given = ARGUMENTS.filter(([name]) => search[name] !== undefined);
  const refused = given.filter(([, , kinds]) => !(kinds as readonly string[]).includes(kind)).map(([name]) => name);
  if (refused.length > 0) throw badUserInput(`${refused.join(', ')} cannot narrow a search for ${kind}.`);
  // GraphQL would refuse them too, naming its own arguments (`is` for class): here they are named as the tool's.
  for (const [name, argument] of given) checkFilterText(argument, search[name], name);
  const declared = given.map(([name]) => `, $${name}: String`).join('');
  const passed = given.map(([name, argument]) => `, ${argument}: $${name}`).join('');
  const query = `query Find($siteId: String!, $limit: Int!, $offset: Int!${declared}) {
  items: ${list}(siteId: $siteId, limit: $limit, offset: $offset${passed}) { ${fields} }
  total: ${count}(siteId: $siteId${passed})
}`;
  return { query, variables: Object.fromEntries(given.map(([name]) => [name, search[name]])) };
}

export function registerQueryTools(server: McpServer, sources: McpSources, caller: Caller): void {
  const site = (siteId: string) => callerSite(sources, caller, siteId);

  server.registerTool(
    'find_entities',
    {
      title: 'Find entities',
      description:
        'Searches a site for buildings, equipment, points, zones or systems, narrowed by class (a Brick class such as AHU, VAV, ' +
        'Supply_Air_Temperature_Sensor, with its subclasses), name (case-insensitive substring), location (a location id, or a name), ' +
        'the equipment a point belongs to (equipmentId), or its class (equipmentClass). Answers one page and how many there are in all. ' +
        'Points carry their timeseriesId, for the timeseries tool.',
      inputSchema: {
        siteId: z.string().min(1).describe('A site id from list_sites.'),
        kind: z.enum(['building', 'equipment', 'point', 'zone', 'system']).describe('What to search for.'),
        class: z
          .string()
          .optional()
          .describe(
            'A Brick class (AHU, Air_Handling_Unit, Temperature_Sensor, brick:VAV or a full IRI); its subclasses match too. Not for buildings.',
          ),
        name: z.string().optional().describe('Part of the name, case-insensitive.'),
        locationId: z
          .string()
          .optional()
          .describe(
            'Only entities in this location (a building, floor or room id), or under it. Equipment, points, zones.',
          ),
        locationName: z
          .string()
          .optional()
          .describe('Only entities in a location whose name contains this. Equipment, points.'),
        equipmentId: z.string().optional().describe('Only the points of this equipment.'),
        equipmentClass: z.string().optional().describe('Only the points of equipment of this class (AHU, VAV, …).'),
        ...paging,
      },
      annotations: readOnly,
    },
    ({ siteId, kind, limit, offset, ...search }) =>
      answering(async () => {
        const { id } = await site(siteId);
        const operation = searchOperation(kind, search);
        const data = await graphQLData(sources.graphql, caller, operation.query, {
          ...operation.variables,
          siteId: id,
          limit,
          offset,
        });
        return page(data.items as unknown[], data.total as number, limit, offset);
      }),
  );

  server.registerTool(
    'graphql',
    {
      title: 'GraphQL query',
      description:
        `Runs a GraphQL query on a site; the site id is passed as the \`siteId\` variable whether or not the operation declares it ` +
        `(write \`query($siteId: String!) { equipment(siteId: $siteId, is: "AHU") { name feeds { name } points { name timeseriesId } } }\`). ` +
        `The schema (with descriptions) is the resource ${SCHEMA_URI}. Lists take limit and offset, and each root list has a count field ` +
        '(equipmentCount, pointCount, …): ask for a page, not a whole site; an answer is refused as soon as it passes ' +
        `${MAX_ANSWER_CHARS.toLocaleString('en')} characters. Queries only.`,
      inputSchema: {
        siteId: z.string().min(1).describe('A site id from list_sites.'),
        query: z.string().min(1).max(100_000).describe('The GraphQL operation.'),
        variables: z.record(z.string(), z.unknown()).optional().describe('Its variables (siteId is set for you).'),
        operationName: z.string().optional(),
      },
      annotations: readOnly,
    },
    ({ siteId, query, variables, operationName }) =>
      answering(async () => {
        const { id } = await site(siteId);
        // The answer is counted as it is built (src/query/answer-cost.ts), against a budget of the
        // tool's cap: past it the work stops, and nothing more is fetched, decoded or built.
        const work = caller.work?.within('responseBytes', MAX_ANSWER_CHARS);
        const asked = { ...(variables ?? {}), siteId: id };
        const answer = await callGraphQL(sources.graphql, { ...caller, work }, query, asked, operationName);
        if (work?.exceeded) throw answerTooLarge();
        return answer;
      }),
  );

  server.registerTool(
    'sparql',
    {
      title: 'SPARQL query',
      description:
        'Runs a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE) over the site’s graph and the Brick ontology graph, as the ' +
        'site’s SPARQL endpoint does (the brick:, rdfs:, rdf:, ref: and rec: prefixes are known; use GRAPH or FROM to name graphs only as the endpoint allows). ' +
        'SELECT rows come back as {variable: {type, value, …}}, one page of them (limit, offset) with the total; CONSTRUCT and DESCRIBE as N-Triples lines, paged the same way.',
      inputSchema: {
        siteId: z.string().min(1).describe('A site id from list_sites.'),
        query: z.string().min(1).max(MAX_QUERY_LENGTH).describe('The SPARQL query.'),
        limit: z.number().int().min(1).max(1000).default(100).describe('At most this many rows or triples (1–1000).'),
        offset: z.number().int().min(0).default(0),
      },
      annotations: readOnly,
    },
    ({ siteId, query, limit, offset }) =>
      answering(async () => {
        const { id } = await site(siteId);
        const confined = siteQuery(id, query, sources.sparqlLimits);
        const result = await answerQuery(sources.store, confined, sources.sparqlLimits, caller.work?.signal);
        if (result.form === 'ASK') return { form: 'ASK', boolean: result.value };
        if (result.form === 'SELECT')
          return {
            form: 'SELECT',
            vars: result.vars,
            ...page(result.rows.slice(offset, offset + limit), result.rows.length, limit, offset),
          };
        const lines = result.ntriples.split('\n').filter((line) => line.trim() !== '');
        return {
          form: result.form,
          format: 'application/n-triples',
          ...page(lines.slice(offset, offset + limit), lines.length, limit, offset),
        };
      }),
  );
}
