import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/create-app.ts';
import { createLogger } from '../../src/log/logger.ts';
import { siteGraph } from '../../src/rdf/vocabulary.ts';
import { createServices, type Services } from '../../src/services.ts';

export interface GraphQLResult {
  data?: any;
  errors?: Array<{ message: string; path?: (string | number)[]; extensions?: { code?: string; [k: string]: unknown } }>;
}

export interface Harness {
  /** Sends a GraphQL request as the admin (or with `token`; `null` sends no Authorization). */
  graphql(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<GraphQLResult>;
  /** A request to the app, with the admin key unless headers say otherwise. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** triplestore round trips since the last reset */
  roundTrips(): number;
  resetRoundTrips(): void;
  /** The SPARQL texts sent since the last reset. */
  queries(): string[];
  readonly services: Services;
  readonly url: string;
  readonly adminKey: string;
  close(): Promise<void>;
}

export const ADMIN_KEY = 'test-admin-key-0123456789';

/** The graph store under test: `BKG_GRAPH_STORE` and `SPARQL_*` as a vitest project sets them (vitest.config.ts), else embedded. */
const storeEnv = (): Record<string, string> =>
  Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && (e[0] === 'BKG_GRAPH_STORE' || e[0].startsWith('SPARQL_'))));

/**
 * Starts the app on a real listener (loopback, a free port) on embedded engines, with the given
 * sites (id → Turtle text) loaded, the admin key `ADMIN_KEY`, and rate limits out of the way.
 */
export async function createHarness(options: { sites: Record<string, string>; env?: Record<string, string> }): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'bkg-test-'));
  const sitesDir = join(dir, 'sites');
  await mkdir(sitesDir);
  for (const [siteId, turtle] of Object.entries(options.sites)) await writeFile(join(sitesDir, `${siteId}.ttl`), turtle);
  const config = loadConfig({
    BKG_DATA_DIR: join(dir, 'data'),
    BKG_SITES_DIR: sitesDir,
    BKG_DEMO_FIXTURE: '',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    BKG_ADMIN_KEY: ADMIN_KEY,
    BKG_RATE_LIMIT_KEY: '1000000',
    BKG_RATE_LIMIT_USER: '1000000',
    BKG_RATE_LIMIT_ANONYMOUS: '1000000',
    ...storeEnv(),
    ...options.env,
  });
  const logger = createLogger(config);
  const services = await createServices(config, logger);
  const server = createApp(config, services, logger).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let sent: string[] = [];
  services.store.onQuery(({ query }) => sent.push(query));
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${ADMIN_KEY}`);
    return fetch(url + path, { ...init, headers });
  };
  return {
    services,
    url,
    adminKey: ADMIN_KEY,
    fetch: request,
    async graphql(query, variables, token) {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (token !== null) headers.authorization = `Bearer ${token ?? ADMIN_KEY}`;
      const response = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      return (await response.json()) as GraphQLResult;
    },
    roundTrips: () => sent.length,
    resetRoundTrips: () => {
      sent = [];
    },
    queries: () => [...sent],
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      // An external store outlives the test: leave none of its site graphs behind.
      if (services.store.name === 'sparql') for (const siteId of Object.keys(options.sites)) await services.store.dropGraph(siteGraph(siteId));
      await services.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
