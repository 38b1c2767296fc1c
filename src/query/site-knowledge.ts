import type { SiteProfile } from '../compiler/site-profile.ts';
import type { SiteIds } from '../compiler/site-ids.ts';
import type { Ontology } from '../ontology/ontology.ts';

/**
 * What the query layer knows of a site's graph before it plans and runs a query: read outside a
 * request's round trips and kept fresh by the composition root (`SiteCaches`), or given by a test.
 */
export interface SiteKnowledge {
  /** The ontology as the site of `graph` reads it (its older Brick names, its own classes). */
  ontology(graph: string): Promise<Ontology>;
  /** The graph's profile; undefined where none is kept, or when one being read takes longer than `waitMs`. */
  profile(graph: string, waitMs?: number): Promise<SiteProfile | undefined>;
  /** The graph's ids: its profile's when it has one. */
  ids(graph: string, profile: SiteProfile | undefined): Promise<SiteIds>;
}
