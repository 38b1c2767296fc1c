/**
 * The site knowledge of one running service (`SiteKnowledge`), read from the store and kept until
 * the graph changes: built by the composition root, which says whether this process sees every
 * change of the store (the embedded stores) or another replica may change a graph unseen (an
 * external SPARQL store). Where another replica may, each reading is also renewed after a time
 * (`GraphReadings`), so what that replica changed is seen within it; this replica's own changes at once.
 *
 * - Profiles (src/compiler/site-profile.ts, read by `site-readers.ts`): read again in the background once a change is done,
 *   so the first query after it finds the profile ready or waits for it. On an external store they
 *   are renewed as ids are: the planner anchors a property name on the predicates the graph holds
 *   and the kind fallback on its untyped entities there too (a FILTER over every candidate took
 *   Virtuoso 200 ms for `hasProperty` at 100k triples).
 * - Ids (src/compiler/site-ids.ts): the profile's where there is one; read alone when the profile
 *   is late. A reading of them is a scan of the site's entities (~120 ms at 100k triples, 1–4 s at
 *   1M in Oxigraph), too dear for every request: on an external store they, and the profile, are
 *   kept for TTL_MS, as `SiteStore.has` keeps a site's existence, or ten times as long as they took
 *   to read if that is longer (a busy large site spends at most a tenth of its store's time on them).
 * - Class statements (src/compiler/site-ontology.ts): until the graph changes; on an external
 *   store also renewed after TTL_MS, so a class another replica's load brings in is read as its
 *   Brick 1.4 class within that time.
 *
 * Where the store keeps readings across restarts (the embedded store, `GraphStore.readings`), each
 * one read is kept there, under the ontology graph's version, and a restarted process takes it
 * instead of reading it again: at 5M triples the readings are a dozen scans, over a minute on a
 * busy machine, which the first query after a restart waited for.
 */
import type { Ontology, SiteClassStatements } from '../ontology/ontology.ts';
import type { SiteIds } from '../compiler/site-ids.ts';
import type { SiteProfile } from '../compiler/site-profile.ts';
import { ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import { GraphReadings, type WatchedGraphs } from './graph-readings.ts';
import type { SiteKnowledge } from './site-knowledge.ts';
import { readClassStatements, readSiteIds, readSiteProfile } from './site-readers.ts';
import {
  SITE_READINGS_FORMAT,
  classStatementsCodec,
  idsCodec,
  profileCodec,
  type ReadingCodec,
} from './site-reading-codecs.ts';

const TTL_MS = 5_000;
const READS_PER_TTL = 10;
/** How long a query waits for a profile being read before it is planned without one. */
const PROFILE_WAIT_MS = 3000;
/**
 * How long a graph must go unchanged before its profile is read ahead of the next request: a burst
 * of small changes (a script patching a model) read it once after, not after each (at 1M triples
 * each reading held the store's threads for a second, and every patch waited behind one). A
 * request that needs the profile meanwhile reads it at once, as ever.
 */
const READ_AHEAD_AFTER_MS = 500;

export interface SiteCachesOptions {
  /** Whether this process sees every change of the store's graphs (no other replica writes them). */
  readonly seesEveryChange: boolean;
  /**
   * The version of the ontology graph (src/ontology/ensure-ontology-graph.ts): readings are kept
   * across restarts, where the store keeps them, under it, so a new ontology reads them again.
   */
  readonly ontologyVersion?: string;
}

export class SiteCaches implements SiteKnowledge {
  private readonly profileReadings: GraphReadings<SiteProfile>;
  private readonly idReadings: GraphReadings<SiteIds>;
  private readonly classReadings: GraphReadings<SiteClassStatements>;
  private readonly aheadTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    graphs: WatchedGraphs,
    private readonly baseOntology: Ontology,
    options: SiteCachesOptions,
  ) {
    const renewed = (readMs: number) =>
      options.seesEveryChange ? undefined : Math.max(TTL_MS, READS_PER_TTL * readMs);
    // Kept across restarts only where nothing but this process changes a graph (renewed readings are not).
    const archive = options.seesEveryChange && options.ontologyVersion !== undefined ? graphs.readings : undefined;
    const across = <T>(codec: ReadingCodec<T>) =>
      archive && { archive, codec, context: `${SITE_READINGS_FORMAT} ${options.ontologyVersion}` };
    this.profileReadings = new GraphReadings(graphs, readSiteProfile, renewed, across(profileCodec));
    this.idReadings = new GraphReadings(
      graphs,
      readSiteIds,
      (readMs) => Math.max(TTL_MS, READS_PER_TTL * readMs),
      across(idsCodec),
    );
    this.classReadings = new GraphReadings(
      graphs,
      readClassStatements,
      () => (options.seesEveryChange ? undefined : TTL_MS),
      across(classStatementsCodec),
    );
    graphs.onChange(({ graph, done }) => {
      // A profile's kind fallback reads the ontology graph's kinds.
      if (graph === ONTOLOGY_GRAPH) this.profileReadings.clear();
      else if (done) this.readAhead(graph);
    });
  }

  /** Reads the graph's profile once it has gone READ_AHEAD_AFTER_MS without a change. */
  private readAhead(graph: string): void {
    clearTimeout(this.aheadTimers.get(graph));
    this.aheadTimers.set(
      graph,
      setTimeout(() => {
        this.aheadTimers.delete(graph);
        void this.profile(graph, 0);
      }, READ_AHEAD_AFTER_MS).unref(),
    );
  }

  async ontology(graph: string): Promise<Ontology> {
    return this.baseOntology.forSite(await this.classReadings.of(graph));
  }

  /**
   * A profile still being read past `waitMs` is gone without (at 5M triples it takes ~15 s, read
   * in the background from a load or a restore on); one that could not be read (the site is still
   * being restored) too: never fatal, the planner goes without, and it is read again next time.
   */
  async profile(graph: string, waitMs = PROFILE_WAIT_MS): Promise<SiteProfile | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
    try {
      return await Promise.race([this.profileReadings.of(graph).catch(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  ids(graph: string, profile: SiteProfile | undefined): Promise<SiteIds> {
    return profile ? Promise.resolve(profile.ids) : this.idReadings.of(graph);
  }
}
