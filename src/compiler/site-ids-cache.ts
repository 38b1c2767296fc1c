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
import { GraphReadings } from './graph-readings.ts';
import { readSiteIds, type SiteIds } from './site-ids.ts';
import type { SiteProfile } from './site-profile.ts';

const ID_TTL_MS = 5_000;
const READS_PER_TTL = 10;

const byStore = new WeakMap<InstrumentedStore, GraphReadings<SiteIds>>();

/** The ids of a site graph: its profile's when it has one, else read and kept a few seconds. */
export function siteIds(store: GraphStore, graph: string, profile: SiteProfile | undefined): Promise<SiteIds> {
  if (profile) return Promise.resolve(profile.ids);
  if (!(store instanceof InstrumentedStore)) return readSiteIds((query) => store.select(query, { site: graph }), graph);
  let kept = byStore.get(store);
  if (!kept) byStore.set(store, (kept = new GraphReadings(store, readSiteIds, (readMs) => Math.max(ID_TTL_MS, READS_PER_TTL * readMs))));
  return kept.of(graph);
}
