/**
 * The readings of a site's graph that the planner uses and src/query/site-caches.ts keeps: its
 * profile, its ids and its class statements. The queries are the compiler's
 * (src/compiler/site-profile.ts, site-ids.ts, site-ontology.ts); here they run through a
 * `QueryRunner` and their rows become the values the planner reads.
 */
import { namespacesQuery, otherIfcIdQuery, predicatesQuery, untypedQuery } from '../compiler/site-profile-queries.ts';
import { FALLBACK_KINDS, PROFILE_LIMITS, type SiteProfile } from '../compiler/site-profile.ts';
import { SiteIds, sharedNamesQuery } from '../compiler/site-ids.ts';
import { classStatementsQuery } from '../compiler/site-ontology.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { IriPair } from '../ontology/hierarchy-extractor.ts';
import type { EntityKind, SiteClassStatements } from '../ontology/ontology.ts';
import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import type { QueryRunner } from './query-runner.ts';

const namespaceOf = (entity: string) => entity.replace(/[^#/]*$/, '');

/** The values of one column (blank nodes left out); undefined when the query found more than `limit`. */
async function column(
  runner: QueryRunner,
  graph: string,
  query: SelectQuery,
  name: string,
  limit: number,
  work?: RequestWork,
): Promise<string[] | undefined> {
  const rows = await runner.select(query, graph, work);
  if (rows.length > limit) return undefined;
  return rows.flatMap((row) => (row[name] && row[name].type !== 'bnode' ? [row[name].value] : []));
}

// The tag's precedence (src/compiler/sparql-patterns.ts `tagOf`): location end first, then has points, then is a point.
const TAGS: ReadonlyArray<readonly [EntityKind, string]> = [
  ['Point', 'pt'],
  ['Equipment', 'hp'],
  ['Location', 'le'],
];

/** Each untyped entity's tag; later entries of `TAGS` win, as `tagOf` tests them first. */
function fallbackTags(untyped: ReadonlyMap<EntityKind, readonly string[]>): Map<string, string> {
  const tags = new Map<string, string>();
  for (const [kind, tag] of TAGS) for (const entity of untyped.get(kind) ?? []) tags.set(entity, tag);
  return tags;
}

/** Per kind that has a fallback, the entities it places there; a kind with too many to list is missing. */
export async function readUntyped(
  runner: QueryRunner,
  graph: string,
  work?: RequestWork,
): Promise<Map<EntityKind, readonly string[]>> {
  const untyped = new Map<EntityKind, readonly string[]>();
  for (const kind of FALLBACK_KINDS) {
    const list = await column(runner, graph, untypedQuery(graph, kind), 'e', PROFILE_LIMITS.untyped, work);
    if (list) untyped.set(kind, list);
  }
  return untyped;
}

/** The predicates of a graph; undefined when there are too many to list. */
export function readPredicates(runner: QueryRunner, graph: string, work?: RequestWork): Promise<string[] | undefined> {
  return column(runner, graph, predicatesQuery(graph), 'p', PROFILE_LIMITS.predicates, work);
}

/** Reads a site graph's ids (one query, `sharedNamesQuery`). */
export async function readSiteIds(runner: QueryRunner, graph: string): Promise<SiteIds> {
  const shared = new Map<string, Set<string>>();
  for (const row of await runner.select(sharedNamesQuery(graph), graph)) {
    if (row.n && row.es) shared.set(row.n.value, new Set(row.es.value.split(' ')));
  }
  return shared.size === 0 ? SiteIds.UNIQUE : new SiteIds(shared);
}

/** Reads a site graph's profile (a few queries, each one scan at most). */
export async function readSiteProfile(runner: QueryRunner, graph: string): Promise<SiteProfile> {
  const untyped = await readUntyped(runner, graph);
  const typedNamespaces = await column(runner, graph, namespacesQuery(graph), 'ns', PROFILE_LIMITS.namespaces);
  // Untyped entities are candidates of their kind too; a kind with too many to list may use any namespace.
  const complete = FALLBACK_KINDS.every((kind) => untyped.has(kind));
  const namespaces =
    typedNamespaces && complete
      ? [...new Set([...typedNamespaces, ...[...untyped.values()].flat().map(namespaceOf)])].filter(Boolean).sort()
      : undefined;
  const predicateList = await readPredicates(runner, graph);
  const otherIfcIds = await runner.select(otherIfcIdQuery(graph), graph);
  return {
    untyped,
    namespaces: namespaces && namespaces.length <= PROFILE_LIMITS.namespaces ? namespaces : undefined,
    predicates: predicateList && new Set(predicateList),
    plainIfcIds: otherIfcIds.length === 0,
    tags: complete ? fallbackTags(untyped) : undefined,
    ids: await readSiteIds(runner, graph),
  };
}

/** Reads a site graph's class statements (one query, `classStatementsQuery`). */
export async function readClassStatements(runner: QueryRunner, graph: string): Promise<SiteClassStatements> {
  const types = new Set<string>();
  const subClassOf: IriPair[] = [];
  for (const { t, sup } of await runner.select(classStatementsQuery(graph), graph)) {
    if (t?.type !== 'uri') continue;
    if (sup === undefined) types.add(t.value);
    else if (sup.type === 'uri') subClassOf.push([t.value, sup.value]);
  }
  return { types: [...types], subClassOf };
}
