/**
 * What batching buys: the points of every equipment of a building fetched as the service does
 * (one query, `VALUES ?parent { … }`) and as a resolver per parent would (the N+1 shape: one
 * query per equipment, one after another), both sent straight to the store.
 */
import type { SiteProfile } from '../../src/compiler/site-profile.ts';
import { relationQuery } from '../../src/compiler/sparql-builder.ts';
import { siteGraph } from '../../src/rdf/vocabulary.ts';
import { portfolioIri } from './anchors.ts';
import { BENCH_SITE, type Gateway } from './gateway.ts';
import { latencyOf, rounds, type Latency, type RoundOptions } from './timing.ts';

export interface NPlusOneResult {
  readonly parents: number;
  readonly rows: number;
  readonly batched: Latency;
  readonly perParent: Latency;
}

/** Measures both shapes for the equipment (ids) of the three-level query's answer. */
export async function measureNPlusOne(
  gateway: Gateway,
  equipmentIds: readonly string[],
  options: RoundOptions,
  profile: SiteProfile | undefined,
): Promise<NPlusOneResult> {
  const parents = equipmentIds.map(portfolioIri);
  const query = (of: readonly string[]) =>
    relationQuery(
      siteGraph(BENCH_SITE),
      'Equipment.points',
      { recursive: false },
      of,
      new Set(['unit', 'timeseries'] as const),
      profile,
    );
  const batched = query(parents);
  const single = parents.map((p) => query([p]));
  const warm = await gateway.raw([batched]);
  await gateway.raw(single);
  const samples = await rounds(options, async () => [
    (await gateway.raw([batched])).ms,
    (await gateway.raw(single)).ms,
  ]);
  return {
    parents: parents.length,
    rows: warm.rows[0]!.length,
    batched: latencyOf(samples[0] ?? []),
    perParent: latencyOf(samples[1] ?? []),
  };
}

/** The equipment ids in the answer of `building(...) { equipment { id ... } }`. */
export function equipmentIdsOf(data: Record<string, unknown> | undefined): string[] {
  const buildings = (data?.building ?? []) as Array<{ equipment?: Array<{ id: string }> }>;
  return buildings.flatMap((b) => (b.equipment ?? []).map((e) => e.id));
}
