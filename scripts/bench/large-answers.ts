/**
 * Large answers (issue #17): queries whose answer is a large part of the site, timed against the
 * floor of the same work (the SPARQL the service sent, replayed straight to the store, plus
 * serializing the answer as JSON); the cost per entity over answers from about 1k to 100k; and
 * the service's liveness while the largest query runs: `/healthz` and a small query on another
 * site, asked every 20 ms over HTTP, and how long the main thread was held at a time.
 *
 *   node --import tsx scripts/bench/large-answers.ts --file bench/data/portfolio-1M.ttl
 */
// First, as in src/main.ts: the service as it runs in production.
import '../../src/startup/production-default.ts';
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { siteGraph } from '../../src/rdf/vocabulary.ts';
import { BENCH_SITE, EMBEDDED, Gateway } from './gateway.ts';

/** A large-answer query of the bench. */
export interface LargeQuery {
  readonly id: string;
  readonly document: string;
}

export const LARGE_QUERIES: readonly LargeQuery[] = [
  { id: 'all-points', document: `{ point(siteId: "${BENCH_SITE}") { id name type unit timeseriesId } }` },
  {
    id: 'temperature-points',
    document: `{ point(siteId: "${BENCH_SITE}", is: "Temperature_Sensor") { id timeseriesId } }`,
  },
  { id: 'hvac-equipment', document: `{ equipment(siteId: "${BENCH_SITE}", is: "HVAC_Equipment") { id } }` },
  { id: 'all-equipment', document: `{ equipment(siteId: "${BENCH_SITE}") { id name type } }` },
];

/**
 * Point classes whose answers grow from about 1k points to every point: the cost curve. Classes,
 * not names: the store finds a class's instances through its index, in time linear in the answer,
 * where a name filter reads every label of the site whatever it answers.
 */
const CURVE_CLASSES = [
  'Fault_Status',
  'Discharge_Air_Temperature_Sensor',
  'Occupancy_Sensor',
  'Temperature_Sensor',
  'Sensor',
  'Point',
];
const curveQuery = (is: string) => `{ point(siteId: "${BENCH_SITE}", is: "${is}") { id name type unit timeseriesId } }`;

export interface LargeResult {
  readonly id: string;
  readonly results: number;
  readonly roundTrips: number;
  /** In-process and over HTTP, median of the rounds. */
  readonly inProcessMs: number;
  readonly httpMs: number;
  /** The SPARQL the service sent, replayed to the store, plus JSON.stringify of the answer. */
  readonly rawMs: number;
  readonly serializeMs: number;
  readonly bytes: number;
}

export interface CurvePoint {
  /** The point class asked for. */
  readonly name: string;
  readonly results: number;
  readonly inProcessMs: number;
  readonly rawMs: number;
  readonly microsPerEntity: number;
}

export interface Liveness {
  readonly query: string;
  readonly runs: number;
  readonly seconds: number;
  /** Latencies of the probes, milliseconds. */
  readonly healthz: Percentiles;
  readonly smallQuery: Percentiles;
  /** The main thread's longest hold, and its 99th percentile, from the event loop's delay. */
  readonly loopDelayMaxMs: number;
  readonly loopDelayP99Ms: number;
}

/** The three measures together, as a size's result holds them. */
export interface LargeAnswers {
  readonly queries: readonly LargeResult[];
  readonly curve: readonly CurvePoint[];
  readonly liveness: Liveness;
}

export interface Percentiles {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function percentiles(xs: number[]): Percentiles {
  const sorted = [...xs].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: xs.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

const countOf = (data: Record<string, unknown> | undefined) => {
  const list = data ? Object.values(data)[0] : undefined;
  return Array.isArray(list) ? list.length : 0;
};

/** Times one query `rounds` times each way, after one warm-up round. */
async function timeQuery(gateway: Gateway, id: string, document: string, rounds: number): Promise<LargeResult> {
  const first = await gateway.inProcess(document, {});
  if (first.body.errors) throw new Error(`${id}: ${JSON.stringify(first.body.errors)}`);
  const inProcess: number[] = [];
  const http: number[] = [];
  const raw: number[] = [];
  const serialize: number[] = [];
  let bytes = 0;
  for (let round = 0; round < rounds; round++) {
    inProcess.push((await gateway.inProcess(document, {})).ms);
    const overHttp = await gateway.overHttp(document, {});
    http.push(overHttp.ms);
    const replay = await gateway.raw(overHttp.sparql);
    const started = performance.now();
    const json = JSON.stringify({ data: overHttp.body.data });
    serialize.push(performance.now() - started);
    raw.push(replay.ms + serialize.at(-1)!);
    bytes = json.length;
  }
  return {
    id,
    results: countOf(first.body.data),
    roundTrips: first.sparql.length,
    inProcessMs: median(inProcess),
    httpMs: median(http),
    rawMs: median(raw),
    serializeMs: median(serialize),
    bytes,
  };
}

export async function measureLargeAnswers(
  gateway: Gateway,
  rounds: number,
  log: (line: string) => void,
): Promise<LargeResult[]> {
  const results: LargeResult[] = [];
  for (const query of LARGE_QUERIES) {
    const result = await timeQuery(gateway, query.id, query.document, rounds);
    log(
      `${query.id}: ${result.results} results, in-process ${result.inProcessMs.toFixed(0)} ms, HTTP ${result.httpMs.toFixed(0)} ms, raw ${result.rawMs.toFixed(0)} ms`,
    );
    results.push(result);
  }
  return results;
}

export async function measureCurve(
  gateway: Gateway,
  rounds: number,
  log: (line: string) => void,
): Promise<CurvePoint[]> {
  const curve: CurvePoint[] = [];
  for (const name of CURVE_CLASSES) {
    const result = await timeQuery(gateway, name, curveQuery(name), rounds);
    const point = {
      name,
      results: result.results,
      inProcessMs: result.inProcessMs,
      rawMs: result.rawMs,
      microsPerEntity: (result.inProcessMs * 1000) / Math.max(1, result.results),
    };
    log(
      `curve ${JSON.stringify(name)}: ${point.results} results, ${point.inProcessMs.toFixed(0)} ms, ${point.microsPerEntity.toFixed(1)} µs per entity (raw ${point.rawMs.toFixed(0)} ms)`,
    );
    curve.push(point);
  }
  return curve;
}

/** A small site beside the bench site, for the liveness probe's query. */
export const OTHER_SITE = 'other';
const OTHER_TURTLE = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<urn:other:AHU-1> a brick:AHU ; rdfs:label "AHU-1" ; brick:hasPoint <urn:other:SAT> .
<urn:other:SAT> a brick:Supply_Air_Temperature_Sensor ; rdfs:label "AHU-1 SAT" .
`;

/**
 * Runs `document` over HTTP again and again for `seconds`, while `/healthz` and a small query on
 * another site are asked every 20 ms: their latencies, and the main thread's longest holds.
 */
export async function measureLiveness(gateway: Gateway, document: string, seconds: number): Promise<Liveness> {
  await gateway.services.store.replaceGraph(siteGraph(OTHER_SITE), OTHER_TURTLE, 'text/turtle');
  await gateway.services.sites.ensure({
    id: OTHER_SITE,
    name: 'Other',
    organization: null,
    address: null,
    city: null,
    country: null,
    country_code: null,
    latitude: null,
    longitude: null,
    timezone: 'UTC',
  });
  const small = JSON.stringify({ query: `{ equipment(siteId: "${OTHER_SITE}") { name points { name } } }` });
  const healthz: number[] = [];
  const smallQuery: number[] = [];
  const until = performance.now() + seconds * 1000;
  const probe = async (samples: number[], send: () => Promise<unknown>) => {
    while (performance.now() < until) {
      const started = performance.now();
      await send();
      samples.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  let runs = 0;
  // The large answer's body is read and dropped: parsing it here would hold this process's main
  // thread, which is also the service's, and be counted against the service.
  const large = async () => {
    while (performance.now() < until) {
      const response = await request(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: gateway.headers,
        body: JSON.stringify({ query: document }),
      });
      for await (const _chunk of response.body);
      if (response.statusCode !== 200) throw new Error(`the large query answered ${response.statusCode}`);
      runs++;
    }
  };
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  await Promise.all([
    large(),
    probe(healthz, async () => (await request(`${gateway.url}/healthz`)).body.text()),
    probe(smallQuery, async () => {
      const response = await request(`${gateway.url}/graphql`, {
        method: 'POST',
        headers: gateway.headers,
        body: small,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200 || text.includes('"errors"')) throw new Error(`the small query failed: ${text}`);
    }),
  ]);
  delay.disable();
  return {
    query: document,
    runs,
    seconds: (performance.now() - started) / 1000,
    healthz: percentiles(healthz),
    smallQuery: percentiles(smallQuery),
    loopDelayMaxMs: delay.max / 1e6,
    loopDelayP99Ms: delay.percentile(99) / 1e6,
  };
}

/** By hand: the three measures on one file, printed as JSON lines (`npm run bench` runs them per size). */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      file: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      seconds: { type: 'string', default: '20' },
      only: { type: 'string' },
    },
  });
  if (!values.file) throw new Error('--file <portfolio.ttl> is required');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const gateway = await Gateway.start(EMBEDDED, values.file, log);
  try {
    const rounds = Number(values.rounds);
    const only = values.only?.split(',');
    if (!only || only.includes('queries')) console.log(JSON.stringify(await measureLargeAnswers(gateway, rounds, log)));
    if (!only || only.includes('curve')) console.log(JSON.stringify(await measureCurve(gateway, rounds, log)));
    if (!only || only.includes('liveness'))
      console.log(JSON.stringify(await measureLiveness(gateway, LARGE_QUERIES[0]!.document, Number(values.seconds))));
  } finally {
    await gateway.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) await main();
