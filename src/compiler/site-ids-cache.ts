/**
 * Where a request finds its site's ids (`site-ids.ts`). The embedded stores read them with the
 * site profile, once per change of the graph. An external store has no profile (another replica
 * may change a graph unseen), and reading them is a scan of the site's entities (~120 ms at 100k
 * triples, 1–4 s at 1M in Oxigraph), too dear for every request: there they are kept for
 * ID_TTL_MS, as `SiteStore.has` keeps a site's existence, or ten times as long as they took to
 * read if that is longer (a busy large site spends at most a tenth of its store's time on them),
 * and dropped at once when this process changes the graph. Another replica's load shows in the
 * ids once they are read again.
 */
import type { GraphStore } from '../store/graph-store.ts';
import { InstrumentedStore } from '../store/instrumented-store.ts';
import { readSiteIds, type SiteIds } from './site-ids.ts';
import type { SiteProfile } from './site-profile.ts';

const ID_TTL_MS = 5_000;
const READS_PER_TTL = 10;

/** The ids read from one store's site graphs, each with when it was read. */
class KeptIds {
  /** Per graph: its ids, and until when they are kept (set once read; a read in flight is shared). */
  private readonly kept = new Map<string, { until: number; readonly ids: Promise<SiteIds> }>();

  constructor(private readonly store: GraphStore) {
    if (store instanceof InstrumentedStore) store.onChange(({ graph }) => this.kept.delete(graph));
  }

  of(graph: string): Promise<SiteIds> {
    const entry = this.kept.get(graph);
    if (entry && performance.now() < entry.until) return entry.ids;
    // Not one of a request's round trips: a cache being filled (as the site profile is).
    const select = (query: string) => (this.store instanceof InstrumentedStore ? this.store.selectUnreported(query, { site: graph }) : this.store.select(query, { site: graph }));
    const started = performance.now();
    const ids = readSiteIds(select, graph);
    const read = { until: Infinity, ids };
    this.kept.set(graph, read);
    ids.then(
      () => {
        const now = performance.now();
        read.until = now + Math.max(ID_TTL_MS, READS_PER_TTL * (now - started));
      },
      // A failed read is not kept: the next request asks again.
      () => this.kept.get(graph) === read && this.kept.delete(graph),
    );
    return ids;
  }
}

const byStore = new WeakMap<GraphStore, KeptIds>();

/** The ids of a site graph: its profile's when it has one, else read and kept a few seconds. */
export function siteIds(store: GraphStore, graph: string, profile: SiteProfile | undefined): Promise<SiteIds> {
  if (profile) return Promise.resolve(profile.ids);
  let kept = byStore.get(store);
  if (!kept) byStore.set(store, (kept = new KeptIds(store)));
  return kept.of(graph);
}
