import type { Logger } from '../log/logger.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { DEMO_SITE } from '../auth/client.ts';
import type { SiteStore } from '../tenants/site-store.ts';

/** The demo site's record: a building anyone may read. */
export const demoSiteRecord = {
  id: DEMO_SITE,
  name: 'Demo Tower',
  organization: 'Building knowledge graph service',
  address: null,
  city: 'Berlin',
  country: 'Germany',
  country_code: 'DE',
  latitude: 52.52,
  longitude: 13.405,
  timezone: 'Europe/Berlin',
} as const;

/** Something else the demo reset restores (its files, later). */
export type DemoRestorer = () => Promise<void>;

/**
 * Keeps the read-only demo site in its fixture state: loaded at start, and every `intervalSeconds`
 * restored. A restore is one replace in the store, so readers see the old graph or the new one,
 * never an empty one.
 */
export class DemoSite {
  private timer: NodeJS.Timeout | undefined;
  private readonly restorers: DemoRestorer[] = [];

  constructor(
    private readonly fixture: string,
    private readonly store: GraphStore,
    private readonly sites: SiteStore,
    private readonly logger: Logger,
  ) {}

  /** Adds a restore step run at each reset (files, readings). */
  onReset(restorer: DemoRestorer): void {
    this.restorers.push(restorer);
  }

  /** Loads the fixture and ensures the site record. */
  async reset(): Promise<void> {
    const started = performance.now();
    // At start the demo graph may still be coming back from the journal (the smallest come first): replaced once it is.
    await this.store.whenRestored?.(siteGraph(DEMO_SITE));
    const { triples } = await this.store.replaceGraph(siteGraph(DEMO_SITE), { path: this.fixture }, 'text/turtle');
    await this.sites.ensure(demoSiteRecord);
    for (const restore of this.restorers) await restore();
    this.logger.info(
      { site: DEMO_SITE, triples, seconds: Number(((performance.now() - started) / 1000).toFixed(3)) },
      'demo site reset',
    );
  }

  /** Resets every `intervalSeconds` (0: never). */
  schedule(intervalSeconds: number): void {
    if (intervalSeconds <= 0) return;
    this.timer = setInterval(() => {
      this.reset().catch((error: unknown) => this.logger.error({ err: error }, 'demo site reset failed'));
    }, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
