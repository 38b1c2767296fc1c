/**
 * What the planner knows of a site's graph beyond the ontology, read from the graph once after
 * each change, never per request: the entities typed with no class of any kind (MAPPING.md's
 * fallback), the namespaces entity IRIs use, the predicates, whether IFC GlobalIds are plain
 * strings, and the local names several entities share (their ids, `site-ids.ts`). With it the
 * planner anchors what would otherwise scan the site: the kind fallback becomes a short VALUES
 * list or nothing (the scan of every hasPoint edge cost 0.8 s at 1M triples), an id's local name
 * the few IRIs it can be, a property name its predicates, an IFC GlobalId the literal itself.
 *
 * Read and kept outside the compiler (src/query/site-caches.ts): until the graph changes, and on an
 * external store, which another replica may change, renewed after a few seconds as well. While
 * none is read (a large site just loaded) the planner goes without and emits the shapes that need no profile.
 */
import type { EntityKind } from '../ontology/ontology.ts';
import type { EntityRecord } from './entity-records.ts';
import { bind, filter, graph, literal, namedNode, op, select, triple, variable, type Patterns, type SelectQuery, type VariableTerm } from '../rdf/sparql-algebra.ts';
import { RDF, REF } from '../rdf/vocabulary.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import { readSiteIds, type SiteIds } from './site-ids.ts';
import { fallbackGenerator } from './sparql-builder.ts';

export interface SiteProfile {
  /** Per kind that has a fallback, its untyped entities; a kind missing here has too many to list. */
  readonly untyped: ReadonlyMap<EntityKind, readonly string[]>;
  /** The namespaces (an IRI up to its last `#` or `/`) of the site's entities; undefined: too many. */
  readonly namespaces: readonly string[] | undefined;
  /** The predicates of the graph; undefined: too many. */
  readonly predicates: ReadonlySet<string> | undefined;
  /** Every IFC GlobalId of the site is a plain string literal, so one can be looked up as a term. */
  readonly plainIfcIds: boolean;
  /**
   * The fallback tag (`tagOf`) of every untyped entity, when all three lists are known: then
   * queries need not compute tags, `applyTags` sets them. Only untyped entities read their tag.
   */
  readonly tags: ReadonlyMap<string, string> | undefined;
  /** The ids of the site's entities (`site-ids.ts`): which local names several of them share. */
  readonly ids: SiteIds;
}

/** Sets the fallback tags a query left out (see `SiteProfile.tags`). */
export function applyTags(records: ReadonlyMap<string, EntityRecord>, profile: SiteProfile | undefined): void {
  if (!profile?.tags) return;
  for (const record of records.values()) record.tag = profile.tags.get(record.iri) ?? '';
}

// Past these a list stops paying for itself (a long VALUES, or a scan would do as well).
const LIMITS = { untyped: 1000, namespaces: 64, predicates: 4096 } as const;
const FALLBACK_KINDS: readonly EntityKind[] = ['Location', 'Equipment', 'Point'];

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const namespaceOf = (entity: string) => entity.replace(/[^#/]*$/, '');

/** The IRIs (or strings) a one-column query returns; undefined when there are more than `limit`. */
/** Runs a query of the site's graph. */
export type SelectRunner = (query: SelectQuery) => Promise<SparqlRow[]>;

const [E, P, S, O, T, NS, R, ID] = ['e', 'p', 's', 'o', 't', 'ns', 'r', 'id'].map((name) => variable(name)) as VariableTerm[] as [
  VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm,
];

/** `SELECT DISTINCT ?v WHERE { GRAPH <graph> { … } }`. */
const distinctIn = (v: VariableTerm, site: string, ...where: Patterns[]) => select({ variables: [v], distinct: true, where: [graph(namedNode(site), ...where)] });

async function column(run: SelectRunner, query: SelectQuery, name: string, limit: number): Promise<string[] | undefined> {
  const rows = await run({ ...query, limit: limit + 1 });
  if (rows.length > limit) return undefined;
  return rows.flatMap((row) => (row[name] && row[name].type !== 'bnode' ? [row[name].value] : []));
}

// The tag's precedence (sparql-patterns.ts `tagOf`): location end first, then has points, then is a point.
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
export async function readUntyped(run: SelectRunner, site: string): Promise<Map<EntityKind, readonly string[]>> {
  const untyped = new Map<EntityKind, readonly string[]>();
  for (const kind of FALLBACK_KINDS) {
    const list = await column(run, distinctIn(E, site, fallbackGenerator(kind)!), 'e', LIMITS.untyped);
    if (list) untyped.set(kind, list);
  }
  return untyped;
}

/** The predicates of a graph; undefined when there are too many to list. */
export function readPredicates(run: SelectRunner, site: string): Promise<string[] | undefined> {
  return column(run, distinctIn(P, site, triple(S, P, O)), 'p', LIMITS.predicates);
}

/** Reads a site graph's profile (a few queries, each one scan at most). */
export async function readSiteProfile(run: SelectRunner, site: string): Promise<SiteProfile> {
  const untyped = await readUntyped(run, site);
  const typedNamespaces = await column(
    run,
    // `+`, not `*` (the same namespaces): Virtuoso refuses a REPLACE whose pattern can match the empty string.
    // IRIs only: Virtuoso's STR() of a blank node is `nodeID://…`, which would make ids of `nodeID://` IRIs it refuses.
    select({
      variables: [NS],
      distinct: true,
      where: [graph(namedNode(site), triple(S, namedNode(`${RDF}type`), T), filter(op('isiri', S))), bind(op('replace', op('str', S), literal('[^#/]+$'), literal('')), NS)],
    }),
    'ns',
    LIMITS.namespaces,
  );
  // Untyped entities are candidates of their kind too; a kind with too many to list may use any namespace.
  const complete = FALLBACK_KINDS.every((kind) => untyped.has(kind));
  const namespaces = typedNamespaces && complete ? [...new Set([...typedNamespaces, ...[...untyped.values()].flat().map(namespaceOf)])].filter(Boolean).sort() : undefined;
  const predicateList = await readPredicates(run, site);
  // LANG too: Virtuoso gives a language-tagged literal the datatype xsd:string.
  const notPlain = op('||', op('||', op('!', op('isliteral', ID)), op('!=', op('datatype', ID), namedNode(XSD_STRING))), op('!=', op('lang', ID), literal('')));
  const otherIfcIds = await run(select({ variables: [ID], where: [graph(namedNode(site), triple(R, namedNode(`${REF}ifcGlobalID`), ID), filter(notPlain))], limit: 1 }));
  return {
    untyped,
    namespaces: namespaces && namespaces.length <= LIMITS.namespaces ? namespaces : undefined,
    predicates: predicateList && new Set(predicateList),
    plainIfcIds: otherIfcIds.length === 0,
    tags: complete ? fallbackTags(untyped) : undefined,
    ids: await readSiteIds(run, site),
  };
}
