/**
 * The site knowledge of one running service (`SiteKnowledge`), read from the store and kept until
 * the graph changes: built by the composition root, which says whether this process sees every
 * change of the store (the embedded stores) or another replica may change a graph unseen (an
 * external SPARQL store).
 *
 * - Profiles (src/compiler/site-profile.ts) are kept only where every change is seen: dropped on a
 *   change, read again in the background once it is done.
 * - Ids (src/compiler/site-ids.ts): the profile's where there is one. Elsewhere reading them is a
 *   scan of the site's entities (~120 ms at 100k triples, 1–4 s at 1M in Oxigraph), too dear for
 *   every request: they are kept for ID_TTL_MS, as `SiteStore.has` keeps a site's existence, or
 *   ten times as long as they took to read if that is longer (a busy large site spends at most a
 *   tenth of its store's time on them), and dropped at once when this process changes the graph.
 * - Class statements (src/compiler/site-ontology.ts): until the graph changes; where another
 *   replica may change it, also renewed after EXTERNAL_TTL_MS, so a class another replica's load
 *   brings in is read as its Brick 1.4 class within that time (this replica's own loads at once).
 */
import type { Ontology, SiteClassStatements } from '../ontology/ontology.ts';
import { readSiteIds, type SiteIds } from '../compiler/site-ids.ts';
import { readClassStatements } from '../compiler/site-ontology.ts';
import { readSiteProfile, type SiteProfile } from '../compiler/site-profile.ts';
import { ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import { GraphReadings, type WatchedGraphs } from './graph-readings.ts';
import type { SiteKnowledge } from './site-knowledge.ts';

const ID_TTL_MS = 5_000;
const READS_PER_TTL = 10;
const EXTERNAL_TTL_MS = 5000;
/** How long a query waits for a profile being read before it is planned without one. */
const PROFILE_WAIT_MS = 3000;

export interface SiteCachesOptions {
  /** Whether this process sees every change of the store's graphs (no other replica writes them). */
  readonly seesEveryChange: boolean;
}

export class SiteCaches implements SiteKnowledge {
  private readonly profiles = new Map<string, Promise<SiteProfile | undefined>>();
  private readonly idReadings: GraphReadings<SiteIds>;
  private readonly classReadings: GraphReadings<SiteClassStatements>;

  constructor(
    private readonly graphs: WatchedGraphs,
    private readonly baseOntology: Ontology,
    private readonly options: SiteCachesOptions,
  ) {
    this.idReadings = new GraphReadings(graphs, readSiteIds, (readMs) => Math.max(ID_TTL_MS, READS_PER_TTL * readMs));
    this.classReadings = new GraphReadings(graphs, readClassStatements, () => (options.seesEveryChange ? undefined : EXTERNAL_TTL_MS));
    if (!options.seesEveryChange) return;
    graphs.onChange(({ graph, done }) => {
      if (graph === ONTOLOGY_GRAPH) this.profiles.clear();
      else this.profiles.delete(graph);
      // Read on load, in the background: the first query after it finds the profile ready or waits for it.
      if (done && graph !== ONTOLOGY_GRAPH) void this.readingProfile(graph);
    });
  }

  async ontology(graph: string): Promise<Ontology> {
    return this.baseOntology.forSite(await this.classReadings.of(graph));
  }

  /**
   * A profile still being read past `waitMs` is gone without (at 5M triples it takes ~15 s, read
   * in the background from a load or a restore on).
   */
  async profile(graph: string, waitMs = PROFILE_WAIT_MS): Promise<SiteProfile | undefined> {
    if (!this.options.seesEveryChange) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
    try {
      return await Promise.race([this.readingProfile(graph), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  ids(graph: string, profile: SiteProfile | undefined): Promise<SiteIds> {
    return profile ? Promise.resolve(profile.ids) : this.idReadings.of(graph);
  }

  private readingProfile(graph: string): Promise<SiteProfile | undefined> {
    let profile = this.profiles.get(graph);
    if (!profile) {
      // Never fatal (the planner goes without); a profile that could not be read (the site is
      // still being restored) is read again next time.
      const reading: Promise<SiteProfile | undefined> = readSiteProfile((query) => this.graphs.selectUnreported(query, { site: graph }), graph).catch(() => {
        if (this.profiles.get(graph) === reading) this.profiles.delete(graph);
        return undefined;
      });
      this.profiles.set(graph, (profile = reading));
    }
    return profile;
  }
}
