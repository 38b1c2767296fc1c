/**
 * One size of the benchmark, in a process of its own (so peak memory is this size's): the service
 * on the embedded store with the site loaded, every query of the suite, the N+1 comparison and
 * autocannon; then, when asked, the suite again on Comunica and on a SPARQL endpoint. Writes a
 * `SizeResult` as JSON. Run by `bench.ts`; by hand:
 *
 *   node --import tsx scripts/bench/run-size.ts --file bench/data/portfolio-100k.ttl --size 100k --out /tmp/r.json
 */
// First, as in src/main.ts: the service as it runs in production.
import { measureChanges, type ChangeMeasures } from './changes.ts';
import { measureFixedCost, type FixedCost } from './fixed-cost.ts';
import '../../src/startup/production-default.ts';
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { siteGraph } from '../../src/rdf/vocabulary.ts';
import { findAnchors, seedReadings } from './anchors.ts';
import {
  BENCH_SITE,
  COMUNICA,
  EMBEDDED,
  Gateway,
  endpointStore,
  type LoadMeasure,
  type StoreChoice,
} from './gateway.ts';
import { measureQuery, type QueryResult } from './measure-query.ts';
import { equipmentIdsOf, measureNPlusOne, type NPlusOneResult } from './n-plus-one.ts';
import { competingShapes } from './shapes.ts';
import { N_PLUS_ONE_QUERY, SUITE, THROUGHPUT_QUERIES, variablesOf, type BenchQuery } from './suite.ts';
import {
  LARGE_QUERIES,
  measureCurve,
  measureLargeAnswers,
  measureLiveness,
  type LargeAnswers,
  type LargeResult,
} from './large-answers.ts';
import { measureThroughput, type ThroughputResult } from './throughput.ts';
import { WARM_UP_ROUNDS } from './timing.ts';

/** The suite on one store. */
export interface StoreRun {
  readonly store: string;
  readonly load?: LoadMeasure;
  /** The same file loaded over HTTP (`PUT …/graph`) into a new site, at the end of the run. */
  readonly httpFirstLoad?: LoadMeasure;
  /** The same file loaded again over HTTP, replacing the site's graph (its change worked out for the history), after that. */
  readonly httpLoad?: LoadMeasure;
  readonly queries: readonly QueryResult[];
  readonly nPlusOne?: NPlusOneResult;
  /** The large answers, on a store other than the embedded one (the embedded store's are the size's `large`). */
  readonly large?: readonly LargeResult[];
  /** Throughput with answers computed, on a store other than the embedded one (the embedded store's are the size's). */
  readonly throughput?: readonly ThroughputResult[];
  readonly error?: string;
}

export interface SizeResult {
  readonly size: string;
  readonly file: string;
  readonly embedded: StoreRun;
  readonly throughput: readonly ThroughputResult[];
  /** Large answers on the embedded store (issue #17): timings against their floors, the cost curve, liveness. */
  readonly large?: LargeAnswers;
  /** The living graph: a one-triple PATCH, and what history keeps (docs/changing-a-graph.md). */
  readonly changes?: ChangeMeasures;
  /** What any request costs over HTTP: /healthz, and `{ __typename }` with each kind of key. */
  readonly fixedCost?: FixedCost;
  readonly others: readonly StoreRun[];
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly seconds: number;
}

export interface RunOptions {
  readonly iterations: number;
  readonly budgetMs: number;
  readonly httpSeconds: number;
  readonly connections: number;
  readonly otherIterations: number;
  readonly only: ReadonlySet<string> | undefined;
  readonly recordsTemplate: string | undefined;
  /** Rounds per large-answer query, and seconds of the liveness run (0 skips large answers). */
  readonly largeRounds: number;
  readonly livenessSeconds: number;
  /** Full reloads whose history is measured (default: 10 up to 1M triples, where loads keep their change; 0 past it). */
  readonly reloads: number | undefined;
}

/** Runs the suite on one store; `full` adds HTTP, competing shapes and N+1 (the embedded store's run). */
async function runStore(
  choice: StoreChoice,
  file: string,
  options: RunOptions,
  full: boolean,
  log: (message: string) => void,
  whileUp?: (gateway: Gateway, variables: Record<string, unknown>, queries: readonly BenchQuery[]) => Promise<void>,
): Promise<StoreRun> {
  const gateway = await Gateway.start(choice, file, log, options.recordsTemplate);
  try {
    const load = gateway.load;
    log(
      `${choice.name}: ${load.triples} triples in ${(load.wallMs / 1000).toFixed(1)} s, peak RSS ${load.peakRssMiB} MiB`,
    );
    const anchors = await findAnchors(gateway);
    await seedReadings(gateway, anchors);
    const variables = variablesOf(anchors);
    const queries = SUITE.filter((q) => !options.only || options.only.has(q.id));
    // One pass over the suite first: the first queries of a process pay for compiling its code
    // paths (left out on the other stores, where a query can take minutes).
    if (full) for (const query of queries) await gateway.inProcess(query.document, variables);
    const results: QueryResult[] = [];
    const ontology = gateway.services.ontology;
    // What the planner knows of the site (read once after the load): shapes compared with its queries use it too.
    const profile = await gateway.services.query.knowledge.profile(siteGraph(BENCH_SITE));
    for (const query of queries) {
      const result = await measureQuery(gateway, query, variables, {
        iterations: full ? options.iterations : options.otherIterations,
        warmUpRounds: full ? WARM_UP_ROUNDS : 1,
        budgetMs: full ? options.budgetMs : options.budgetMs * 2,
        http: full,
        shapes: () => (full ? competingShapes(ontology, query.id, profile) : []),
      });
      log(
        `${choice.name}: ${query.id}: ${result.error ?? `${result.total} entities, ${result.sparqlQueries}+${result.lookups} round trips, p50 ${result.inProcess.p50.toFixed(2)} ms (raw ${result.raw.p50.toFixed(2)} ms)`}`,
      );
      results.push(result);
    }
    let nPlusOne: NPlusOneResult | undefined;
    const nested = queries.find((q) => q.id === N_PLUS_ONE_QUERY);
    if (nested) {
      const answer = await gateway.inProcess(nested.document, variables);
      // On a store where the batched query alone took the budget, one query per parent would take hours.
      const batchedMs = results.find((r) => r.id === N_PLUS_ONE_QUERY)?.raw.p50 ?? 0;
      if (full || batchedMs < options.budgetMs / 4) {
        nPlusOne = await measureNPlusOne(
          gateway,
          equipmentIdsOf(answer.body.data),
          {
            iterations: full ? Math.max(1, Math.round(options.iterations / 4)) : 1,
            budgetMs: options.budgetMs,
          },
          profile,
        );
        log(
          `${choice.name}: N+1: ${nPlusOne.parents} parents, batched ${nPlusOne.batched.p50.toFixed(1)} ms, one per parent ${nPlusOne.perParent.p50.toFixed(1)} ms`,
        );
      }
    }
    await whileUp?.(gateway, variables, queries);
    const httpFirstLoad = full ? await gateway.loadOverHttpIntoNewSite(file) : undefined;
    if (httpFirstLoad)
      log(`${choice.name}: loaded into a new site over HTTP in ${(httpFirstLoad.wallMs / 1000).toFixed(1)} s`);
    const httpLoad = full ? await gateway.loadOverHttp(file) : undefined;
    if (httpLoad)
      log(
        `${choice.name}: loaded again over HTTP in ${(httpLoad.wallMs / 1000).toFixed(1)} s, peak RSS ${httpLoad.peakRssMiB} MiB`,
      );
    return { store: choice.name, load, httpFirstLoad, httpLoad, queries: results, nPlusOne };
  } finally {
    await gateway.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      file: { type: 'string' },
      size: { type: 'string' },
      out: { type: 'string' },
      iterations: { type: 'string', default: '30' },
      'budget-ms': { type: 'string', default: '8000' },
      'http-seconds': { type: 'string', default: '30' },
      connections: { type: 'string', default: '8' },
      'other-iterations': { type: 'string', default: '5' },
      comunica: { type: 'boolean', default: false },
      virtuoso: { type: 'string' },
      only: { type: 'string' },
      'records-template': { type: 'string' },
      'large-rounds': { type: 'string', default: '5' },
      'liveness-seconds': { type: 'string', default: '20' },
      reloads: { type: 'string' },
    },
    strict: true,
  });
  if (!values.file || !values.size || !values.out)
    throw new Error('usage: run-size.ts --file FILE --size LABEL --out JSON [options]');
  const log = (message: string) => console.error(`[bench ${values.size}] ${message}`);
  const options: RunOptions = {
    iterations: Number(values.iterations),
    budgetMs: Number(values['budget-ms']),
    httpSeconds: Number(values['http-seconds']),
    connections: Number(values.connections),
    otherIterations: Number(values['other-iterations']),
    only: values.only ? new Set(values.only.split(',')) : undefined,
    recordsTemplate: values['records-template'],
    largeRounds: Number(values['large-rounds']),
    livenessSeconds: Number(values['liveness-seconds']),
    reloads: values.reloads === undefined ? undefined : Number(values.reloads),
  };
  /** autocannon on the throughput queries: with answers computed, and also kept when `kept`. */
  const throughputOf = async (
    gateway: Gateway,
    variables: Record<string, unknown>,
    queries: readonly BenchQuery[],
    kept: boolean,
  ): Promise<ThroughputResult[]> => {
    const results: ThroughputResult[] = [];
    for (const id of THROUGHPUT_QUERIES) {
      const query = queries.find((q) => q.id === id);
      if (!query) continue;
      for (const keep of kept ? [false, true] : [false]) {
        const how = keep ? 'answers kept' : 'answers computed';
        log(`autocannon: ${id} (${how}), ${options.connections} connections, ${options.httpSeconds} s`);
        const result = await measureThroughput(gateway, id, query.document, variables, {
          seconds: options.httpSeconds,
          connections: options.connections,
          kept: keep,
        });
        log(
          `autocannon: ${id} (${how}): ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, ${result.failures} failures`,
        );
        results.push(result);
      }
    }
    return results;
  };
  const started = performance.now();
  const loadStart = loadavg()[0]!;
  const throughput: ThroughputResult[] = [];
  let large: LargeAnswers | undefined;
  let changes: ChangeMeasures | undefined;
  let fixedCost: FixedCost | undefined;
  const embedded = await runStore(EMBEDDED, values.file, options, true, log, async (gateway, variables, queries) => {
    if (!options.only || options.only.has('fixed-cost')) {
      fixedCost = await measureFixedCost(gateway, Math.max(200, options.iterations * 20));
      log(
        `fixed cost: /healthz p50 ${fixedCost.healthz.p50.toFixed(2)} ms, { __typename } with the admin key ${fixedCost.adminKey.p50.toFixed(2)} ms, with an API key ${fixedCost.apiKey.p50.toFixed(2)} ms`,
      );
    }
    if (options.largeRounds > 0 && (!options.only || options.only.has('large'))) {
      const queries = await measureLargeAnswers(gateway, options.largeRounds, log);
      const curve = await measureCurve(gateway, options.largeRounds, log);
      log(`liveness: ${LARGE_QUERIES[0]!.id} again and again for ${options.livenessSeconds} s`);
      const liveness = await measureLiveness(gateway, LARGE_QUERIES[0]!.document, options.livenessSeconds);
      log(
        `liveness: /healthz p99 ${liveness.healthz.p99.toFixed(0)} ms, small query p99 ${liveness.smallQuery.p99.toFixed(0)} ms, longest hold ${liveness.loopDelayMaxMs.toFixed(0)} ms`,
      );
      large = { queries, curve, liveness };
    }
    // Last: the changes add to the graph the queries above read.
    const measureTheChanges = async () => {
      if (options.only && !options.only.has('changes')) return;
      const reloads = options.reloads ?? (gateway.load.triples <= 1_000_000 ? 10 : 0);
      changes = await measureChanges(gateway, { rounds: 30, reloads, file: values.file! }, log);
    };
    if (options.httpSeconds <= 0) return measureTheChanges();
    throughput.push(...(await throughputOf(gateway, variables, queries, true)));
    await measureTheChanges();
  });
  const others: StoreRun[] = [];
  const extra = [...(values.comunica ? [COMUNICA] : []), ...(values.virtuoso ? [endpointStore(values.virtuoso)] : [])];
  for (const choice of extra) {
    try {
      let largeAnswers: LargeResult[] | undefined;
      const storeThroughput: ThroughputResult[] = [];
      const run = await runStore(choice, values.file, options, false, log, async (gateway, variables, queries) => {
        if (options.largeRounds > 0 && (!options.only || options.only.has('large')))
          largeAnswers = await measureLargeAnswers(gateway, options.largeRounds, log);
        // Computed only: an answer kept is answered from memory whatever the store.
        if (options.httpSeconds > 0) storeThroughput.push(...(await throughputOf(gateway, variables, queries, false)));
      });
      others.push({
        ...run,
        ...(largeAnswers ? { large: largeAnswers } : {}),
        ...(storeThroughput.length > 0 ? { throughput: storeThroughput } : {}),
      });
    } catch (error) {
      log(`${choice.name} failed: ${(error as Error).message}`);
      others.push({ store: choice.name, queries: [], error: (error as Error).message });
    }
  }
  const result: SizeResult = {
    size: values.size,
    file: values.file,
    embedded,
    throughput,
    large,
    changes,
    fixedCost,
    others,
    loadAverage: { start: loadStart, end: loadavg()[0]! },
    seconds: (performance.now() - started) / 1000,
  };
  writeFileSync(values.out, JSON.stringify(result));
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
