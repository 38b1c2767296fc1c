// Domain code's one call for entities builds the plan GraphQL would and runs it through the same
// executor: checked here with an in-memory runner, no store.
import { beforeAll, describe, expect, it } from 'vitest';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { SiteIds } from '../../../src/compiler/site-ids.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import type { SparqlRow } from '../../../src/rdf/result-row.ts';
import { queryEntities } from '../../../src/query/query-entities.ts';
import { QueryLayer } from '../../../src/query/query-layer.ts';
import type { QueryRunner } from '../../../src/query/query-runner.ts';
import type { SiteKnowledge } from '../../../src/query/site-knowledge.ts';
import { BRICK, loadDerivedOntology } from '../ontology/derived-ontology.ts';
import { contentsOf, parseSelect, valuesOf } from '../compiler/sparql-support.ts';

const X = 'urn:x#';
const uri = (value: string) => ({ type: 'uri' as const, value });
const lit = (value: string) => ({ type: 'literal' as const, value });

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

/** A site of two sensors (timeseries a and b) of one AHU, and a third (c) of none. */
function layer() {
  const queries: string[] = [];
  const points: Record<string, { iri: string; owner?: string }> = {
    a: { iri: `${X}T1`, owner: `${X}AHU1` },
    b: { iri: `${X}T2`, owner: `${X}AHU1` },
    c: { iri: `${X}T3` },
  };
  const runner: QueryRunner = {
    async select(query) {
      queries.push(serialize(query));
      const values = contentsOf(parseSelect(query).where ?? []).values;
      const bound = (variable: string) => values.flatMap((v) => valuesOf(v, variable) ?? []);
      const parents = bound('parent');
      if (parents.length > 0) {
        return Object.values(points).flatMap(({ iri, owner }): SparqlRow[] =>
          owner && parents.includes(iri)
            ? [{ parent: uri(iri), e: uri(owner), t: uri(`${BRICK}AHU`), l0: lit('Air handler') }]
            : [],
        );
      }
      const ids = bound('c1_ts');
      return ids.flatMap((id): SparqlRow[] =>
        points[id]
          ? [{ e: uri(points[id].iri), t: uri(`${BRICK}Air_Temperature_Sensor`), ts: lit(id), l0: lit(`Sensor ${id}`) }]
          : [],
      );
    },
  };
  const knowledge: SiteKnowledge = {
    ontology: async () => ontology,
    profile: async () => undefined,
    ids: async () => SiteIds.UNIQUE,
  };
  return { query: new QueryLayer(runner, knowledge), queries };
}

describe('queryEntities', () => {
  it('finds points by timeseries id with their equipment: one query for the points, one for all their equipment', async () => {
    const { query, queries } = layer();
    const found = await queryEntities(query, {
      siteId: 's',
      kind: 'Point',
      where: { timeseriesIds: ['a', 'c', 'unknown'] },
      fields: ['id', 'name', 'timeseriesIds'],
      related: { field: 'equipment', fields: ['id', 'name'] },
    });
    expect(found).toEqual([
      {
        kind: 'Point',
        iri: `${X}T1`,
        id: 'T1',
        name: 'Sensor a',
        timeseriesIds: ['a'],
        related: [{ kind: 'Equipment', iri: `${X}AHU1`, id: 'AHU1', name: 'Air handler' }],
      },
      { kind: 'Point', iri: `${X}T3`, id: 'T3', name: 'Sensor c', timeseriesIds: ['c'], related: [] },
    ]);
    expect(queries).toHaveLength(2);
  });

  it('refuses entities of any kind without an IFC GlobalId to anchor on', async () => {
    await expect(queryEntities(layer().query, { siteId: 's', kind: 'KgEntity', fields: ['id'] })).rejects.toThrow(
      /IFC GlobalId/,
    );
  });
});
