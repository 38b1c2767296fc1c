/**
 * The service under test: the real services and express app on a fresh data directory, one
 * generated site loaded through the store (timed), and four ways to ask it a GraphQL query:
 * in-process (yoga without a socket), over HTTP (the app on loopback), over HTTP to a second app
 * that keeps answers (the repeat: the same query again on an unchanged graph), and the SPARQL it
 * sent, replayed straight to the store. The first two keep no answers (BKG_GRAPHQL_CACHE_MB=0), so
 * they measure the work. Round trips are counted as the service makes them: SPARQL
 * queries and currentValue lookups.
 */
import { SubscriptionSlots } from '../../src/limits/subscription-slots.ts';
import { AnswerCache } from '../../src/graphql/answer-cache.ts';
import type { SelectQuery } from '../../src/rdf/sparql-algebra.ts';
import { createReadStream, statSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import type { Client } from '../../src/auth/client.ts';
import { loadConfig } from '../../src/config/config.ts';
import { createGraphQL } from '../../src/graphql/create-yoga.ts';
import { createApp } from '../../src/http/create-app.ts';
import { listen } from '../../src/http/listen.ts';
import { createLogger } from '../../src/log/logger.ts';
import { siteGraph } from '../../src/rdf/vocabulary.ts';
import type { CurrentValues } from '../../src/readings/current-values.ts';
import type { SeriesBySite } from '../../src/readings/reading-store.ts';
import { createServices, type Services } from '../../src/services.ts';
import type { SparqlRow } from '../../src/store/graph-store.ts';

export const BENCH_SITE = 'bench';
/** What the app that keeps answers keeps: the default of BKG_GRAPHQL_CACHE_MB. */
const KEPT_BYTES = 64 * 1024 * 1024;
const ADMIN_KEY = 'bench-admin-key-0123456789';
const ADMIN: Client = { kind: 'key', id: 'bench', name: 'bench', sites: '*', write: true, admin: true };

/** Which triplestore the service runs on, and the environment that selects it. */
export interface StoreChoice {
  readonly name: string;
  readonly env: Record<string, string>;
}

export const EMBEDDED: StoreChoice = { name: 'oxigraph', env: { BKG_GRAPH_STORE: 'oxigraph' } };
export const COMUNICA: StoreChoice = { name: 'comunica', env: { BKG_GRAPH_STORE: 'comunica' } };

/** Virtuoso (or any SPARQL 1.1 endpoint) at `queryUrl`; Virtuoso's Graph Store endpoint sits beside `/sparql`. */
export const endpointStore = (queryUrl: string, gspUrl?: string): StoreChoice => ({
  name: 'virtuoso',
  env: {
    BKG_GRAPH_STORE: 'sparql',
    SPARQL_QUERY_URL: queryUrl,
    SPARQL_GSP_URL: gspUrl ?? queryUrl.replace(/\/sparql$/, '/sparql-graph-crud'),
    SPARQL_TIMEOUT_MS: '600000',
  },
});

/** How the site load went. */
export interface LoadMeasure {
  readonly triples: number;
  readonly wallMs: number;
  /** CPU time of this process (the store's worker included) during the load. */
  readonly cpuMs: number;
  /** Peak resident memory of the process so far, after the load. */
  readonly peakRssMiB: number;
  readonly rssMiB: number;
  /** Resident memory just before the load (the service without the site). */
  readonly rssBeforeMiB: number;
}

/** One execution of a GraphQL query, with what it cost. */
export interface Execution {
  readonly ms: number;
  readonly body: { data?: Record<string, unknown>; errors?: Array<{ message: string }> };
  /** The SPARQL queries, in the order the service sent them. */
  readonly sparql: readonly SelectQuery[];
  /** currentValue lookups. */
  readonly lookups: number;
  /** The series each lookup asked for, to replay them straight to the readings store. */
  readonly lookupSeries: readonly SeriesBySite[];
}

export class Gateway {
  private sent: SelectQuery[] = [];
  private lookups: SeriesBySite[] = [];
  private readonly agent = new Agent({ connections: 64, pipelining: 1 });

  private constructor(
    readonly store: StoreChoice,
    readonly services: Services,
    /** In-process endpoints: one that keeps no answers, one that does. */
    private readonly yogas: readonly [ReturnType<typeof createGraphQL>, ReturnType<typeof createGraphQL>],
    private readonly servers: readonly Server[],
    readonly url: string,
    /** The same service, keeping answers (BKG_GRAPHQL_CACHE_MB at its default). */
    readonly keptUrl: string,
    readonly dataDir: string,
    readonly load: LoadMeasure,
  ) {
    services.store.onQuery(({ query }) => this.sent.push(query));
  }

  /**
   * Starts the service on `store` and loads `file` as the site's graph. `recordsTemplate`: a
   * migrated PGlite records directory to copy (creating one takes seconds; the smoke test has one).
   */
  static async start(
    store: StoreChoice,
    file: string,
    log: (message: string) => void,
    recordsTemplate?: string,
  ): Promise<Gateway> {
    const dataDir = await mkdtemp(join(tmpdir(), 'bkg-bench-'));
    if (recordsTemplate) await cp(recordsTemplate, join(dataDir, 'records'), { recursive: true });
    const config = loadConfig({
      BKG_DATA_DIR: dataDir,
      BKG_DEMO_FIXTURE: '',
      BKG_DEMO_SIMULATOR: '0',
      LOG_LEVEL: 'silent',
      NODE_ENV: 'production',
      BKG_ADMIN_KEY: ADMIN_KEY,
      BKG_RATE_LIMIT_KEY: '10000000',
      BKG_RATE_LIMIT_USER: '10000000',
      BKG_RATE_LIMIT_ANONYMOUS: '10000000',
      // No IFC conversion workers: nothing here uploads IFC files, and they would take CPU.
      BKG_IFC_WORKERS: '0',
      // Every point of the 5M site (~560k) is past the default budget of a key (500k entities): the
      // large-answer queries measure the work, so the budget is raised (over HTTP only; in-process
      // requests run without one).
      BKG_BUDGET_ENTITIES: '5000000',
      // Answers are computed every time, but by the app that keeps them (`keptUrl`).
      BKG_GRAPHQL_CACHE_MB: '0',
      ...store.env,
    });
    const logger = createLogger(config);
    const services = await createServices(config, logger);
    let gateway: Gateway | undefined;
    try {
      log(`${store.name}: loading ${file}`);
      const rssBeforeMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const { triples } = await services.store.replaceGraph(siteGraph(BENCH_SITE), { path: file }, 'text/turtle');
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const load: LoadMeasure = {
        triples,
        wallMs,
        cpuMs: (used.user + used.system) / 1000,
        peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
        rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
        rssBeforeMiB,
      };
      await services.sites.ensure({
        id: BENCH_SITE,
        name: 'Benchmark portfolio',
        organization: null,
        address: null,
        city: null,
        country: null,
        country_code: null,
        latitude: null,
        longitude: null,
        timezone: 'UTC',
      });
      const counted = {
        ...services,
        readings: recordingLookups(services.readings, (series) => gateway?.lookups.push(series)),
      };
      const { server, port } = await listen(createApp(config, counted, logger), 0, '127.0.0.1');
      const url = `http://127.0.0.1:${port}`;
      const inProcess = (bytes: number) =>
        createGraphQL(
          config,
          { ...counted, slots: new SubscriptionSlots(config.subscriptionCaps), answers: new AnswerCache(bytes) },
          logger,
        );
      const kept = await listen(
        createApp({ ...config, graphqlCacheBytes: KEPT_BYTES }, counted, logger),
        0,
        '127.0.0.1',
      );
      gateway = new Gateway(
        store,
        services,
        [inProcess(0), inProcess(KEPT_BYTES)],
        [server, kept.server],
        url,
        `http://127.0.0.1:${kept.port}`,
        dataDir,
        load,
      );
      return gateway;
    } catch (error) {
      await services.close();
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Runs a query in-process: GraphQL parsing, validation, limits and execution, without a socket; `kept`: on the endpoint that keeps answers. */
  async inProcess(document: string, variables: Record<string, unknown>, kept = false): Promise<Execution> {
    return this.measure(async () => {
      const response = await this.yogas[kept ? 1 : 0].fetch(
        'http://bench.local/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ query: document, variables }),
        },
        { req: { client: ADMIN } } as never,
      );
      return response.text();
    });
  }

  /** Runs a query over HTTP on loopback, with the admin key, as a client would; `kept`: on the app that keeps answers. */
  async overHttp(document: string, variables: Record<string, unknown>, kept = false): Promise<Execution> {
    return this.measure(async () => {
      const response = await request(`${kept ? this.keptUrl : this.url}/graphql`, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${ADMIN_KEY}`,
        },
        body: JSON.stringify({ query: document, variables }),
      });
      return response.body.text();
    });
  }

  /** Replays currentValue lookups straight to the readings store (one SQL query each), without GraphQL; milliseconds. */
  async rawLookups(series: readonly SeriesBySite[]): Promise<number> {
    const started = performance.now();
    for (const one of series) await this.services.readings.currentValues(one);
    return performance.now() - started;
  }

  /** Runs SPARQL texts one after another straight on the store, without GraphQL. */
  async raw(queries: readonly SelectQuery[]): Promise<{ ms: number; rows: SparqlRow[][] }> {
    const started = performance.now();
    const rows: SparqlRow[][] = [];
    for (const query of queries) rows.push(await this.services.store.selectUnreported(query));
    return { ms: performance.now() - started, rows };
  }

  /**
   * Loads `file` into a site made for it over HTTP, as `bkg load` does (`PUT …/graph`, the body
   * streamed to disk, then loaded and persisted), measured like the first load; the site is deleted after.
   */
  async loadOverHttpIntoNewSite(file: string): Promise<LoadMeasure> {
    const site = `${BENCH_SITE}-http`;
    const made = await request(`${this.url}/api/v1/sites/`, {
      method: 'POST',
      dispatcher: this.agent,
      headers: this.headers,
      body: JSON.stringify({ id: site, name: 'Benchmark load over HTTP' }),
    });
    await made.body.dump();
    if (made.statusCode !== 201) throw new Error(`Creating the site ${site} failed: ${made.statusCode}`);
    try {
      return await this.loadOverHttp(file, site);
    } finally {
      const gone = await request(`${this.url}/api/v1/sites/${site}`, {
        method: 'DELETE',
        dispatcher: this.agent,
        headers: this.headers,
      });
      await gone.body.dump();
    }
  }

  /**
   * Replaces a site's graph with `file` over HTTP, as `bkg load` does (`PUT …/graph`, the body
   * streamed to disk, then loaded and persisted), and measures it like the first load.
   */
  async loadOverHttp(file: string, site = BENCH_SITE): Promise<LoadMeasure> {
    const rssBeforeMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const response = await request(`${this.url}/api/v1/sites/${site}/graph`, {
      method: 'PUT',
      dispatcher: this.agent,
      headers: { ...this.headers, 'content-type': 'text/turtle', 'content-length': String(statSync(file).size) },
      body: createReadStream(file),
    });
    const answer = (await response.body.json()) as { triples?: number; detail?: string };
    if (response.statusCode !== 200 || answer.triples === undefined)
      throw new Error(`Loading over HTTP failed: ${response.statusCode} ${JSON.stringify(answer)}`);
    const used = process.cpuUsage(cpu);
    return {
      triples: answer.triples,
      wallMs: performance.now() - started,
      cpuMs: (used.user + used.system) / 1000,
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
      rssBeforeMiB,
    };
  }

  /** The admin key every request of the bench carries. */
  get adminKey(): string {
    return ADMIN_KEY;
  }

  /** The headers autocannon sends. */
  get headers(): Record<string, string> {
    return { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${ADMIN_KEY}` };
  }

  async close(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await this.agent.close();
    // An external store outlives the run: leave no benchmark graph behind.
    if (this.store.env.BKG_GRAPH_STORE === 'sparql') await this.services.store.dropGraph(siteGraph(BENCH_SITE));
    await this.services.close();
    await rm(this.dataDir, { recursive: true, force: true });
  }

  /** Times `run` until the whole response body has arrived; parsing it is the client's work, after the clock stops. */
  private async measure(run: () => Promise<string>): Promise<Execution> {
    this.sent = [];
    this.lookups = [];
    const started = performance.now();
    const text = await run();
    const ms = performance.now() - started;
    return {
      ms,
      body: JSON.parse(text) as Execution['body'],
      sparql: [...this.sent],
      lookups: this.lookups.length,
      lookupSeries: this.lookups,
    };
  }
}

/** The readings source, telling of each batched currentValue lookup. */
function recordingLookups(inner: CurrentValues, asked: (series: SeriesBySite) => void): CurrentValues {
  return {
    currentValues: (series) => {
      asked(series);
      return inner.currentValues(series);
    },
  };
}
