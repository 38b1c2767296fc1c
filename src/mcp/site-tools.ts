/**
 * `list_sites` and `describe_site`: what an agent reads first, to know which sites it may ask and
 * what one holds before it plans its queries.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { RELATIONSHIP_PREDICATES } from '../rdf/relationships.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { readableSiteIds, requireCredentials } from '../tenants/site-access.ts';
import { graphQLData, type Caller } from './graphql-call.ts';
import { callerSite, type McpSources } from './mcp-sources.ts';
import { answering, page } from './tool-answer.ts';

const SAMPLES = 5;
const readOnly = { readOnlyHint: true, openWorldHint: false } as const;
const localName = (iri: string) => iri.replace(/^.*[#/]/, '');

const counts = `query Describe($siteId: String!, $samples: Int!) {
  buildings: buildingCount(siteId: $siteId)
  equipment: equipmentCount(siteId: $siteId)
  points: pointCount(siteId: $siteId)
  zones: zoneCount(siteId: $siteId)
  systems: systemCount(siteId: $siteId)
  sampleBuildings: building(siteId: $siteId, limit: $samples) { id name type }
  sampleEquipment: equipment(siteId: $siteId, limit: $samples) { id name type }
  samplePoints: point(siteId: $siteId, limit: $samples) { id name type unit timeseriesId }
  sampleZones: zone(siteId: $siteId, limit: $samples) { id name type }
  sampleSystems: system(siteId: $siteId, limit: $samples) { id name type }
}`;

/** How many triples state each relationship the API reads (hasPart, hasPoint, feeds, hasLocation, …), by local name. */
function relationsPresent(links: ReadonlyMap<string, number>): Record<string, number> {
  const present: Record<string, number> = {};
  for (const predicate of RELATIONSHIP_PREDICATES) {
    const triples = links.get(predicate);
    if (triples) present[localName(predicate)] = (present[localName(predicate)] ?? 0) + triples;
  }
  return present;
}

export function registerSiteTools(server: McpServer, sources: McpSources, caller: Caller): void {
  server.registerTool(
    'list_sites',
    {
      title: 'List sites',
      description:
        'The sites (buildings or portfolios, one knowledge graph each) this caller may read: id, name and IANA timezone. ' +
        'Every other tool takes a siteId from this list. Pages with limit/offset.',
      inputSchema: { limit: z.number().int().min(1).max(500).default(100), offset: z.number().int().min(0).default(0) },
      annotations: readOnly,
    },
    ({ limit, offset }) =>
      answering(async () => {
        requireCredentials(caller.client);
        // As `GET /api/sites/` lists them.
        const sites = (await sources.sites.list(readableSiteIds(caller.client))).map(({ id, name, timezone }) => ({
          id,
          name,
          timezone,
        }));
        return page(sites.slice(offset, offset + limit), sites.length, limit, offset);
      }),
  );

  server.registerTool(
    'describe_site',
    {
      title: 'Describe a site',
      description:
        'What a site holds, to plan queries: counts of buildings, equipment, points, zones and systems; entities per class ' +
        '(locations such as Floor and Room included), grouped by kind; the relationships present with how many triples state them ' +
        '(hasPart, hasLocation, feeds, hasPoint, …); timeseries coverage (series with readings, first and last reading); and a few sample entities of each kind. ' +
        'Class names are Brick local names, usable as the `class` of find_entities or the `is` argument in GraphQL.',
      inputSchema: { siteId: z.string().min(1).describe('A site id from list_sites.') },
      annotations: readOnly,
    },
    ({ siteId }) =>
      answering(async () => {
        const site = await callerSite(sources, caller, siteId);
        const graphIri = siteGraph(site.id);
        const data = await graphQLData(sources.graphql, caller, counts, { siteId: site.id, samples: SAMPLES });
        const ontology = await sources.query.knowledge.ontology(graphIri);
        // No wait for a profile still being read (a load report waits up to two minutes): the lists are then read here, within the request's work.
        const facts = await sources.query.graphStatistics(graphIri, {
          work: caller.work,
          profileWaitMs: 0,
          relationships: true,
        });
        const classesByKind: Record<string, Record<string, number>> = {};
        for (const [cls, entities] of [...facts.classes].sort((a, b) => b[1] - a[1])) {
          for (const kind of ontology.kindsOfTypes([cls])) (classesByKind[kind] ??= {})[localName(cls)] = entities;
        }
        const coverage = await sources.readings.coverage(site.id);
        const when = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
        return {
          site: { id: site.id, name: site.name, timezone: site.timezone },
          counts: {
            buildings: data.buildings,
            equipment: data.equipment,
            points: data.points,
            zones: data.zones,
            systems: data.systems,
            typedEntities: facts.typed,
            untypedEntities: facts.untyped.count,
          },
          classesByKind,
          relations: relationsPresent(facts.links),
          timeseries: {
            seriesWithReadings: coverage.series,
            firstReading: when(coverage.first),
            lastReading: when(coverage.last),
          },
          samples: {
            buildings: data.sampleBuildings,
            equipment: data.sampleEquipment,
            points: data.samplePoints,
            zones: data.sampleZones,
            systems: data.sampleSystems,
          },
        };
      }),
  );
}
