import { randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { Express } from 'express';
import type { DestinationStream } from 'pino';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/create-app.ts';
import { listen } from '../../src/http/listen.ts';
import { createLogger } from '../../src/log/logger.ts';
import { ONTOLOGY_GRAPH, siteGraph } from '../../src/rdf/vocabulary.ts';
import { createServices, type Services } from '../../src/services.ts';
import { serialize } from '../../src/rdf/sparql-serializer.ts';

export interface GraphQLResult {
  data?: any;
  /** The versions of the sites the answer read (`extensions.versions`), and whatever else a plugin adds. */
  extensions?: { versions?: Record<string, number>; [k: string]: unknown };
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
  /** The express app (its routes, for the OpenAPI coverage test). */
  readonly app: Express;
  readonly url: string;
  readonly adminKey: string;
  close(): Promise<void>;
}

const execFileAsync = promisify(execFile);

/**
 * Puts a copy of the migrated PGlite database the global setup made (records-template.ts) in a
 * data directory: creating one (initdb in WASM) takes seconds, 30 and more on a loaded machine,
 * and every suite file starts at least one service. cp(1) copies its thousand files in a quarter
 * of the time fs.cp takes.
 */
export async function seedRecords(dataDir: string): Promise<void> {
  const template = inject('recordsTemplate');
  if (!template) return;
  await mkdir(dataDir, { recursive: true });
  await execFileAsync('cp', ['-R', template, join(dataDir, 'records')]);
}

export const ADMIN_KEY = 'test-admin-key-0123456789';

/** Whether the suites run on the embedded store (the `oxigraph` project), not another store a vitest project names. */
export const onEmbeddedStore = (): boolean => (process.env.BKG_GRAPH_STORE ?? 'oxigraph') === 'oxigraph';

/** The graph store under test: `BKG_GRAPH_STORE` and `SPARQL_*` as a vitest project sets them (vitest.config.ts), else embedded. */
const storeEnv = (): Record<string, string> =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && (e[0] === 'BKG_GRAPH_STORE' || e[0].startsWith('SPARQL_')),
    ),
  );

/**
 * Starts the app on a real listener (loopback, a free port) on embedded engines, with the given
 * sites (id → Turtle text) loaded, the admin key `ADMIN_KEY`, and rate limits out of the way.
 */
export async function createHarness(options: {
  sites: Record<string, string>;
  env?: Record<string, string>;
  log?: DestinationStream;
}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'bkg-test-'));
  const sitesDir = join(dir, 'sites');
  await mkdir(sitesDir);
  for (const [siteId, turtle] of Object.entries(options.sites))
    await writeFile(join(sitesDir, `${siteId}.ttl`), turtle);
  // On an external store each harness keeps its graphs under a namespace of its own, so suite
  // files can run at once on one endpoint without loading over each other's sites.
  const external = (options.env?.BKG_GRAPH_STORE ?? process.env.BKG_GRAPH_STORE) === 'sparql';
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
    // IFC files are read in child processes; suites that test it turn them on (BKG_IFC_WORKERS: '1').
    BKG_IFC_WORKERS: '0',
    // One embedded store thread: a second holds a copy of every graph, applies every load again and
    // only serves reads at once with the first. The suites of the store's threads, and those that
    // need a read served beside a write, ask for two (docs/development.md, "What the suite costs").
    BKG_STORE_THREADS: '1',
    ...storeEnv(),
    ...(external ? { SPARQL_GRAPH_NAMESPACE: `urn:bkg:test:${randomUUID()}:` } : {}),
    ...options.env,
  });
  if (!config.databaseUrl) await seedRecords(config.dataDir);
  const logger = createLogger(config, options.log);
  const services = await createServices(config, logger);
  const app = createApp(config, services, logger);
  const { server, port } = await listen(app, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${port}`;
  let sent: string[] = [];
  services.store.onQuery(({ query }) => sent.push(serialize(query)));
  const request = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${ADMIN_KEY}`);
    return fetch(url + path, { ...init, headers });
  };
  return {
    services,
    app,
    url,
    adminKey: ADMIN_KEY,
    fetch: request,
    async graphql(query, variables, token) {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (token !== null) headers.authorization = `Bearer ${token ?? ADMIN_KEY}`;
      const response = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers,
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
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      // An external store outlives the test: leave none of its graphs behind.
      if (external)
        for (const graph of [...Object.keys(options.sites).map(siteGraph), ONTOLOGY_GRAPH])
          await services.store.dropGraph(graph);
      await services.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
