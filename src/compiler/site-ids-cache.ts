/**
 * Where a request finds its site's ids (`site-ids.ts`). The embedded stores read them with the
 * site profile, once per change of the graph. An external store has no profile (another replica
 * may change a graph unseen), and reading them is a scan of the site's entities (~120 ms at 100k
 * triples, ~1.3 s at 1M in Oxigraph), too dear for every request: there they are kept for
 * ID_TTL_MS, as `SiteStore.has` keeps a site's existence, and dropped at once when this process
 * changes the graph. Another replica's load shows in the ids after at most ID_TTL_MS.
 */
import type { GraphStore } from '../store/graph-store.ts';
import { InstrumentedStore } from '../store/instrumented-store.ts';
import { readSiteIds, type SiteIds } from './site-ids.ts';
import type { SiteProfile } from './site-profile.ts';

const ID_TTL_MS = 5_000;

/** The ids read from one store's site graphs, each with when it was read. */
class KeptIds {
  private readonly kept = new Map<string, { readonly at: number; readonly ids: Promise<SiteIds> }>();

  constructor(private readonly store: GraphStore) {
    if (store instanceof InstrumentedStore) store.onChange(({ graph }) => this.kept.delete(graph));
  }

  of(graph: string): Promise<SiteIds> {
    const entry = this.kept.get(graph);
    if (entry && performance.now() - entry.at < ID_TTL_MS) return entry.ids;
    // Not one of a request's round trips: a cache being filled (as the site profile is).
    const select = (query: string) => (this.store instanceof InstrumentedStore ? this.store.selectUnreported(query, { site: graph }) : this.store.select(query, { site: graph }));
    const ids = readSiteIds(select, graph);
    const read = { at: performance.now(), ids };
    this.kept.set(graph, read);
    // A failed read is not kept: the next request asks again.
    ids.catch(() => this.kept.get(graph) === read && this.kept.delete(graph));
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
