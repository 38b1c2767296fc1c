/**
 * What a site's graph holds, counted (the facts a model reading is made of,
 * src/ontology/model-reading.ts, and what an agent's `describe_site` tells): a few aggregate
 * queries through the runner, within the request's work.
 */
import {
  classCountsQuery,
  linkCountsQuery,
  typedAmongQuery,
  typedCountQuery,
} from '../compiler/graph-statistics-queries.ts';
import type { RequestWork } from '../limits/request-work.ts';
import { READ_LINKS, type ModelFacts } from '../ontology/model-reading.ts';
import type { EntityKind } from '../ontology/ontology.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import { RELATIONSHIP_PREDICATES } from '../rdf/relationships.ts';
import { BRICK, RDFS, SKOS } from '../rdf/vocabulary.ts';
import type { QueryRunner } from './query-runner.ts';
import type { SiteKnowledge } from './site-knowledge.ts';
import { readPredicates, readUntyped } from './site-readers.ts';

export interface StatisticsOptions {
  readonly work?: RequestWork;
  /** How long to wait for the site profile being read after a change (it holds the lists read here); 0: read them now. */
  readonly profileWaitMs: number;
  /** Count the relationships the API reads (hasPart, hasPoint, feeds, …) among the links too. */
  readonly relationships?: boolean;
}

/** Untyped entities named in the facts. */
const EXAMPLES = 10;

// Read anyway, never a relationship between entities: labels.
const NOT_LINKS = new Set([`${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`]);

const number = (row: SparqlRow | undefined, name: string) => Number(row?.[name]?.value ?? 0);

/**
 * The site profile's untyped entities and predicates (its lists: a kind with too many untyped
 * entities, or a graph with too many predicates, is left out), read as the profile reads them
 * where there is none (an external store).
 */
async function listed(
  runner: QueryRunner,
  knowledge: SiteKnowledge,
  graph: string,
  { work, profileWaitMs }: StatisticsOptions,
): Promise<{ untyped: ReadonlyMap<EntityKind, readonly string[]>; predicates: readonly string[] }> {
  const profile = await knowledge.profile(graph, profileWaitMs);
  if (profile) return { untyped: profile.untyped, predicates: [...(profile.predicates ?? [])] };
  return {
    untyped: await readUntyped(runner, graph, work),
    predicates: (await readPredicates(runner, graph, work)) ?? [],
  };
}

/**
 * Counts a site graph. The untyped entities and the predicates are the site profile's (read after
 * every change anyway; a scan of every triple took 4–20 s at 1M); only the predicates no field
 * reads (and, when asked, the relationships) are then counted, over their own triples.
 */
export async function readGraphStatistics(
  runner: QueryRunner,
  knowledge: SiteKnowledge,
  graph: string,
  options: StatisticsOptions,
): Promise<ModelFacts> {
  const ask = (query: Parameters<QueryRunner['select']>[0]) => runner.select(query, graph, options.work);
  const { untyped, predicates } = await listed(runner, knowledge, graph, options);
  const unread = predicates.filter((p) => !READ_LINKS.has(p) && !NOT_LINKS.has(p));
  const counted = options.relationships ? [...new Set([...unread, ...RELATIONSHIP_PREDICATES])] : unread;
  // One after the other: at once they would grow two threads' heaps together.
  const classes = await ask(classCountsQuery(graph));
  const typed = await ask(typedCountQuery(graph));
  const links = counted.length === 0 ? [] : await ask(linkCountsQuery(graph, counted));
  // The fallback's lists hold entities with no class of any kind, a class outside Brick included: only those with no class at all stay.
  const listedIris = [...new Set([...untyped.values()].flat())];
  const typedOnes = listedIris.length === 0 ? [] : await ask(typedAmongQuery(graph, listedIris));
  const withClass = new Set(typedOnes.map((row) => row.x!.value));
  const untypedIris = listedIris.filter((x) => !withClass.has(x)).sort();
  return {
    typed: number(typed[0], 'n'),
    classes: new Map(classes.map((row) => [row.t!.value, number(row, 'n')])),
    links: new Map(links.filter((row) => number(row, 'n') > 0).map((row) => [row.p!.value, number(row, 'n')])),
    untyped: { count: untypedIris.length, examples: untypedIris.slice(0, EXAMPLES) },
  };
}
