// The executor runs the compiler's queries through a runner and fills currentValue from a source:
// here an in-memory fake answers each query with canned rows, so batching, paging and the one
// current-value lookup are checked without a store.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RootPlan } from '../../../src/compiler/plan.ts';
import type { EntityObject } from '../../../src/query/shape-entity.ts';
import { SiteIds } from '../../../src/compiler/site-ids.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import type { SparqlRow } from '../../../src/rdf/result-row.ts';
import type { CurrentValueSource, SeriesBySite } from '../../../src/query/current-value-source.ts';
import { executePlan } from '../../../src/query/execute-plan.ts';
import type { QueryRunner } from '../../../src/query/query-runner.ts';
import type { SelectQuery } from '../../../src/rdf/sparql-algebra.ts';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { BRICK, loadDerivedOntology } from '../ontology/derived-ontology.ts';
import { planOne } from '../compiler/plan-support.ts';
import { contentsOf, parseSelect, valuesOf } from '../compiler/sparql-support.ts';

const SITE = 'urn:example:site#';
const uri = (value: string) => ({ type: 'uri' as const, value });
const lit = (value: string) => ({ type: 'literal' as const, value });

/** A site of `n` AHUs, each with two temperature sensors, each sensor with a timeseries id. */
function site(n: number) {
  const ahus = Array.from({ length: n }, (_, i) => `${SITE}AHU${String(i).padStart(3, '0')}`);
  const points = new Map(ahus.map((ahu) => [ahu, [`${ahu}-T1`, `${ahu}-T2`]]));
  return { ahus, points };
}

/**
 * Answers like a store holding `site(n)`: a relation query (VALUES ?parent) with each parent's
 * points, a query anchored on entities (VALUES ?e) with those entities, any other with the AHUs.
 */
function fakeRunner(n: number) {
  const { ahus, points } = site(n);
  const queries: string[] = [];
  const ahuRow = (e: string): SparqlRow => ({ e: uri(e), t: uri(`${BRICK}AHU`), l0: lit(e.slice(SITE.length)) });
  const pointRows = (e: string, parent?: string): SparqlRow[] => [
    {
      ...(parent ? { parent: uri(parent) } : {}),
      e: uri(e),
      t: uri(`${BRICK}Air_Temperature_Sensor`),
      l0: lit(e.slice(SITE.length)),
      ts: lit(`ts:${e.slice(SITE.length)}`),
    },
  ];
  const runner: QueryRunner = {
    async select(query: SelectQuery, graph: string) {
      expect(graph).toBe('urn:bkg:site:s');
      queries.push(serialize(query));
      const values = contentsOf(parseSelect(query).where ?? []).values;
      const bound = (variable: string) => values.flatMap((v) => valuesOf(v, variable) ?? []);
      const parents = bound('parent');
      if (parents.length > 0)
        return parents.flatMap((parent) => (points.get(parent) ?? []).flatMap((p) => pointRows(p, parent)));
      const anchored = bound('e');
      if (anchored.length > 0) return anchored.filter((e) => ahus.includes(e)).map(ahuRow);
      return ahus.map(ahuRow);
    },
  };
  return { runner, queries, ahus };
}

/** A current-value source that counts its lookups and knows every series. */
function countingValues() {
  const lookups: SeriesBySite[] = [];
  const source: CurrentValueSource = {
    async currentValues(series) {
      lookups.push(series);
      return new Map(
        [...series].map(([siteId, ids]) => [siteId, new Map(ids.map((id) => [id, { value: id.length }]))]),
      );
    },
  };
  return { source, lookups };
}

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

const NESTED = '{ equipment(siteId: "s") { id name points { id timeseriesId currentValue { value } } } }';

async function run(plan: RootPlan, runner: QueryRunner, currentValues: CurrentValueSource) {
  return executePlan(plan, { runner, ontology, site: { profile: undefined, ids: SiteIds.UNIQUE }, currentValues });
}

describe('executePlan', () => {
  it('costs one query for the root and one per relation field, whatever the number of parents', async () => {
    for (const n of [2, 40]) {
      const { runner, queries } = fakeRunner(n);
      const answer = (await run(planOne(ontology, NESTED), runner, countingValues().source)) as EntityObject[];
      expect(answer).toHaveLength(n);
      expect(answer.every((ahu) => (ahu.points as EntityObject[]).length === 2)).toBe(true);
      expect(queries).toHaveLength(2);
    }
  });

  it('shapes the entities in IRI order, each with its own children', async () => {
    const { runner, ahus } = fakeRunner(3);
    const answer = (await run(planOne(ontology, NESTED), runner, countingValues().source)) as EntityObject[];
    expect(answer.map((ahu) => ahu.id)).toEqual(ahus.map((a) => a.slice(SITE.length)));
    expect(answer[1]!.points).toEqual([
      expect.objectContaining({ id: 'AHU001-T1', timeseriesId: 'ts:AHU001-T1' }),
      expect.objectContaining({ id: 'AHU001-T2', timeseriesId: 'ts:AHU001-T2' }),
    ]);
  });

  it('looks current values up once, for every point of the request, and fills them in', async () => {
    const { runner } = fakeRunner(5);
    const { source, lookups } = countingValues();
    const answer = (await run(planOne(ontology, NESTED), runner, source)) as EntityObject[];
    expect(lookups).toHaveLength(1);
    expect([...lookups[0]!.keys()]).toEqual(['s']);
    expect(lookups[0]!.get('s')).toHaveLength(10);
    expect((answer[0]!.points as EntityObject[])[0]!.currentValue).toEqual({ value: 'ts:AHU000-T1'.length });
  });

  it('asks for no current value when none is selected', async () => {
    const { runner } = fakeRunner(3);
    const { source, lookups } = countingValues();
    await run(planOne(ontology, '{ equipment(siteId: "s") { id points { id } } }'), runner, source);
    expect(lookups).toHaveLength(0);
  });

  it('pages a root list: the kinds of all, then the facts of the page only', async () => {
    const { runner, queries, ahus } = fakeRunner(6);
    const answer = (await run(
      planOne(ontology, '{ equipment(siteId: "s", limit: 2, offset: 3) { id name } }'),
      runner,
      countingValues().source,
    )) as EntityObject[];
    expect(answer.map((ahu) => ahu.id)).toEqual(ahus.slice(3, 5).map((a) => a.slice(SITE.length)));
    expect(queries).toHaveLength(2);
    const anchored = contentsOf(parseSelect(queries[1]!).where ?? []).values.flatMap((v) => valuesOf(v, 'e') ?? []);
    expect(anchored.sort()).toEqual(ahus.slice(3, 5));
  });

  it('counts without fetching facts: one query', async () => {
    const { runner, queries } = fakeRunner(7);
    // As `equipmentCount` plans it: the list's plan, answered by its count.
    const plan: RootPlan = { ...planOne(ontology, '{ equipment(siteId: "s") { id name } }'), answer: 'count' };
    expect(await run(plan, runner, countingValues().source)).toBe(7);
    expect(queries).toHaveLength(1);
  });
});
