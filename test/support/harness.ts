import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { createGraphQL } from '../../src/graphql/create-yoga.ts';
import { createLogger } from '../../src/log/logger.ts';
import { createServices, type Services } from '../../src/services.ts';

export interface GraphQLResult {
  data?: any;
  errors?: Array<{ message: string; path?: (string | number)[]; extensions?: { code?: string; [k: string]: unknown } }>;
}

export interface Harness {
  graphql(query: string, variables?: Record<string, unknown>): Promise<GraphQLResult>;
  /** triplestore round trips since the last reset */
  roundTrips(): number;
  resetRoundTrips(): void;
  /** The SPARQL texts sent since the last reset. */
  queries(): string[];
  readonly services: Services;
  close(): Promise<void>;
}

/** Starts the app in-process on the embedded store with the given sites (id → Turtle text) loaded. */
export async function createHarness(options: { sites: Record<string, string>; env?: Record<string, string> }): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'bkg-test-'));
  const sitesDir = join(dir, 'sites');
  await import('node:fs/promises').then((fs) => fs.mkdir(sitesDir));
  for (const [siteId, turtle] of Object.entries(options.sites)) await writeFile(join(sitesDir, `${siteId}.ttl`), turtle);
  const config = loadConfig({ BKG_DATA_DIR: join(dir, 'data'), BKG_SITES_DIR: sitesDir, BKG_DEMO_FIXTURE: '', LOG_LEVEL: 'silent', NODE_ENV: 'test', ...options.env });
  const logger = createLogger(config);
  const services = await createServices(config, logger);
  const yoga = createGraphQL(config, services);
  let sent: string[] = [];
  services.store.onQuery(({ query }) => sent.push(query));
  return {
    services,
    async graphql(query, variables) {
      const response = await yoga.fetch('http://test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as GraphQLResult;
    },
    roundTrips: () => sent.length,
    resetRoundTrips: () => {
      sent = [];
    },
    queries: () => [...sent],
    async close() {
      await services.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
