/**
 * What the planner knows of a site's graph beyond the ontology, read from the graph once after
 * each change, never per request: the entities typed with no class of any kind (the kind
 * fallback of docs/brick-mapping.md), the namespaces entity IRIs use, the predicates, whether IFC
 * GlobalIds are plain strings, and the local names several entities share (their ids,
 * `site-ids.ts`). With it the planner anchors what would otherwise scan the site: the kind
 * fallback becomes a short VALUES list or nothing (the scan of every hasPoint edge cost 0.8 s at
 * 1M triples), an id's local name the few IRIs it can be, a property name its predicates, an IFC
 * GlobalId the literal itself.
 *
 * This file holds the profile; `site-profile-queries.ts` the queries that read it, which
 * src/query/site-readers.ts runs,
 * and src/query/site-caches.ts keeps what they read: until the graph changes, and on an external
 * store, which another replica may change, renewed after a few seconds as well. While none is
 * read (a large site just loaded) the planner goes without and emits the shapes that need no profile.
 */
import type { EntityKind } from '../ontology/ontology.ts';
import type { SiteIds } from './site-ids.ts';

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
   * queries need not compute tags, the executor sets them. Only untyped entities read their tag.
   */
  readonly tags: ReadonlyMap<string, string> | undefined;
  /** The ids of the site's entities (`site-ids.ts`): which local names several of them share. */
  readonly ids: SiteIds;
}

/** Past these a list stops paying for itself (a long VALUES, or a scan would do as well). */
export const PROFILE_LIMITS = { untyped: 1000, namespaces: 64, predicates: 4096 } as const;
/** The kinds that have a fallback for entities typed with no class of theirs. */
export const FALLBACK_KINDS: readonly EntityKind[] = ['Location', 'Equipment', 'Point'];
