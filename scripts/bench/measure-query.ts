/**
 * Measures one query of the suite on a running gateway: its answer size and round trips, its
 * latency in-process and over HTTP, the same SPARQL sent straight to the store (the floor), and
 * the competing SPARQL shapes known for it, all in the same rounds.
 */
import type { SelectQuery } from '../../src/rdf/sparql-algebra.ts';
import { serialize } from '../../src/rdf/sparql-serializer.ts';
import type { SparqlRow } from '../../src/store/graph-store.ts';
import type { Execution, Gateway } from './gateway.ts';
import type { CompetingShape } from './shapes.ts';
import type { BenchQuery } from './suite.ts';
import { latencyOf, rounds, type Latency, type RoundOptions } from './timing.ts';

export interface ShapeResult {
  readonly label: string;
  /** The service's own SPARQL for this query. */
  readonly emitted: boolean;
  readonly narrower: boolean;
  /** Raw time of the whole query with this shape in place. */
  readonly latency: Latency;
  /** Whether its answer equals the emitted shape's. */
  readonly same: boolean;
}

export interface QueryResult {
  readonly id: string;
  readonly title: string;
  readonly siteWide: boolean;
  /** Entities at the top level of the answer, and in the whole answer. */
  readonly top: number;
  readonly total: number;
  readonly sparqlQueries: number;
  readonly lookups: number;
  /** Whether every run made the same round trips. */
  readonly stableRoundTrips: boolean;
  readonly inProcess: Latency;
  readonly http?: Latency;
  /** The same query again on an unchanged graph, from a service that keeps answers: in-process, and over HTTP. */
  readonly repeat?: { readonly inProcess: Latency; readonly http: Latency };
  /** The service's SPARQL replayed on the store, one query after another. */
  readonly raw: Latency;
  readonly shapes: readonly ShapeResult[];
  /** The service's SPARQL, for the report's appendix. */
  readonly sparql: readonly string[];
  readonly error?: string;
}

export interface MeasureOptions extends RoundOptions {
  /** Also over HTTP (the embedded store's full run). */
  readonly http: boolean;
  readonly shapes: (sparql: readonly SelectQuery[]) => readonly CompetingShape[];
}

// currentValue and properties are values of an entity, not entities.
const VALUE_FIELDS = new Set(['currentValue', 'properties']);

/** Entities in an answer: objects reached through lists and object fields, values left out. */
export function countEntities(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countEntities(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  let n = 1;
  for (const [key, field] of Object.entries(value)) if (!VALUE_FIELDS.has(key)) n += countEntities(field);
  return n;
}

function answerSize(execution: Execution): { top: number; total: number } {
  const root = Object.values(execution.body.data ?? {})[0];
  const top = Array.isArray(root) ? root.length : root ? 1 : 0;
  return { top, total: countEntities(root) };
}

const sameItems = (a: readonly string[], b: readonly string[]) => {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
};

/** Measures a query; a query that fails is reported with its error instead of timings. */
export async function measureQuery(
  gateway: Gateway,
  query: BenchQuery,
  variables: Record<string, unknown>,
  options: MeasureOptions,
): Promise<QueryResult> {
  const first = await gateway.inProcess(query.document, variables);
  const base = {
    id: query.id,
    title: query.title,
    siteWide: query.siteWide === true,
    ...answerSize(first),
    sparqlQueries: first.sparql.length,
    lookups: first.lookups,
    sparql: first.sparql.map(serialize),
  };
  const none = latencyOf([]);
  if (first.body.errors?.length) {
    return {
      ...base,
      stableRoundTrips: true,
      inProcess: none,
      raw: none,
      shapes: [],
      error: first.body.errors.map((e) => e.message).join('; '),
    };
  }
  // A query that took the whole budget once runs once more, straight on the store, and no more
  // (Comunica takes minutes for some queries; the run must end).
  if (first.ms > options.budgetMs) {
    const once = { p50: first.ms, p95: first.ms, runs: 1 };
    const raw = (await gateway.raw(first.sparql)).ms + (await gateway.rawLookups(first.lookupSeries));
    const rawOnce = { p50: raw, p95: raw, runs: 1 };
    return {
      ...base,
      stableRoundTrips: true,
      inProcess: once,
      raw: rawOnce,
      shapes: [{ label: 'the planner’s shape', emitted: true, narrower: false, latency: rawOnce, same: true }],
    };
  }
  const shapes = options.shapes(first.sparql);
  // Warm-up of every mode, and the answers of the competing shapes against the emitted ones.
  // The repeat's warm-up keeps the answer its rounds are then given.
  if (options.http) await gateway.overHttp(query.document, variables);
  if (options.http) await gateway.overHttp(query.document, variables, true);
  if (options.http) await gateway.inProcess(query.document, variables, true);
  const emittedRows = (await gateway.raw(first.sparql)).rows;
  const same = await Promise.all(
    shapes.map(async (shape) => {
      const rows: SparqlRow[] = (await gateway.raw([shape.query])).rows[0]!;
      return sameItems(shape.answer(rows), shape.emittedAnswer(emittedRows[shape.replaces]!));
    }),
  );

  let stable = true;
  let turn = 0;
  const samples = await rounds(options, async () => {
    let inProcessMs = 0;
    let httpMs = Number.NaN;
    let repeatMs = Number.NaN;
    let repeatInProcessMs = Number.NaN;
    // Each SPARQL query timed on its own, so a shape's total is the floor with one query swapped.
    const parts: number[] = [];
    const shapeMs: number[] = [];
    const steps: Array<() => Promise<void>> = [
      async () => {
        const inProcess = await gateway.inProcess(query.document, variables);
        if (inProcess.sparql.length !== first.sparql.length || inProcess.lookups !== first.lookups) stable = false;
        inProcessMs = inProcess.ms;
      },
      async () => {
        if (options.http) httpMs = (await gateway.overHttp(query.document, variables)).ms;
      },
      async () => {
        if (options.http) repeatMs = (await gateway.overHttp(query.document, variables, true)).ms;
      },
      async () => {
        if (options.http) repeatInProcessMs = (await gateway.inProcess(query.document, variables, true)).ms;
      },
      async () => {
        for (const sparql of first.sparql) parts.push((await gateway.raw([sparql])).ms);
        // The currentValue lookup's floor too, after the SPARQL parts (shapes replace those by index).
        if (first.lookups > 0) parts.push(await gateway.rawLookups(first.lookupSeries));
      },
      ...shapes.map((shape, i) => async () => {
        shapeMs[i] = (await gateway.raw([shape.query])).ms;
      }),
    ];
    // The modes in an order turned by one each round: a store with a beat of its own (Virtuoso
    // writes every fourth answer of 3 MB 60–100 ms slower) fell on the same mode every round.
    const start = turn++ % steps.length;
    for (let k = 0; k < steps.length; k++) await steps[(start + k) % steps.length]!();
    const floor = parts.reduce((a, b) => a + b, 0);
    return [
      inProcessMs,
      httpMs,
      floor,
      ...shapes.map((shape, i) => floor - parts[shape.replaces]! + shapeMs[i]!),
      repeatMs,
      repeatInProcessMs,
    ];
  });

  const raw = latencyOf(samples[2] ?? []);
  return {
    ...base,
    stableRoundTrips: stable,
    inProcess: latencyOf(samples[0] ?? []),
    http: options.http ? latencyOf(samples[1] ?? []) : undefined,
    repeat: options.http
      ? {
          http: latencyOf(samples[3 + shapes.length] ?? []),
          inProcess: latencyOf(samples[4 + shapes.length] ?? []),
        }
      : undefined,
    raw,
    shapes: [
      { label: 'the planner’s shape', emitted: true, narrower: false, latency: raw, same: true },
      ...shapes.map((shape, i) => ({
        label: shape.label,
        emitted: false,
        narrower: shape.narrower === true,
        latency: latencyOf(samples[3 + i] ?? []),
        same: same[i]!,
      })),
    ],
  };
}
