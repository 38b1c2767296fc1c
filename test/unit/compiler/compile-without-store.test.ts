// The compiler is pure: a plan and what is known of the site go in, queries come out. Nothing here
// opens or fakes a store; the queries are read by meaning (parsed with sparqljs).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import type { RootPlan } from '../../../src/compiler/plan.ts';
import { relationQuery, rootQuery } from '../../../src/compiler/sparql-builder.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { loadDerivedOntology } from '../ontology/derived-ontology.ts';
import { planOne } from './plan-support.ts';
import { contentsOf, parseSelect, valuesOf } from './sparql-support.ts';

const COMPILER = fileURLToPath(new URL('../../../src/compiler/', import.meta.url));

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

const valuesIn = (query: string, variable: string) =>
  contentsOf(parseSelect(query).where ?? []).values.flatMap((v) => valuesOf(v, variable) ?? []);

describe('the compiler without a store', () => {
  it('imports nothing of the store, the readings or the executor', () => {
    const imports = readdirSync(COMPILER)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(`${COMPILER}${file}`, 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)].map(
          (m) => `${file}: ${m[1]}`,
        ),
      );
    expect(imports.filter((line) => /'?\.\.\/(store|readings|query)\//.test(line))).toEqual([]);
  });

  it('runs no query: no file of the compiler waits on anything or takes a runner', () => {
    const waiting = readdirSync(COMPILER)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(`${COMPILER}${file}`, 'utf8')
          .split('\n')
          .map((line, i) => `${file}:${i + 1}: ${line.trim()}`),
      )
      .filter((line) =>
        /\b(async|await|Promise<|QueryRunner|SelectRunner)\b/.test(line.replace(/^[^:]+:\d+: (\*|\/\/).*/, '')),
      );
    expect(waiting).toEqual([]);
  });

  it('turns a nested plan into a root query and one relation query for all the parents', () => {
    const plan = planOne(ontology, '{ equipment(siteId: "s", is: "AHU") { id points { id } } }');
    const root = rootQuery(plan, new Set())!;
    expect(valuesIn(serialize(root), 'c1_k')).toContain('https://brickschema.org/schema/Brick#AHU');
    const field = (plan.selection as Extract<RootPlan['selection'], { kind: unknown }>).fields.find(
      (f) => f.type === 'relation',
    )!;
    if (field.type !== 'relation') throw new Error('no relation');
    const parents = ['urn:x#AHU1', 'urn:x#AHU2', 'urn:x#AHU3'];
    const children = relationQuery(
      plan.graph,
      field.relation,
      field.args,
      parents,
      field.selection.attributes,
      undefined,
      {},
    );
    expect(valuesIn(serialize(children), 'parent').sort()).toEqual(parents);
  });

  it('finds points by timeseries id, the ids bound as literals however they are written', () => {
    const hostile = 'x" } ; DROP GRAPH <a> ; ';
    const plan: RootPlan = {
      key: 'points',
      query: 'point',
      siteId: 's',
      graph: 'urn:bkg:site:s',
      kind: 'Point',
      answer: 'list',
      constraints: [
        { type: 'kind', kind: 'Point', classes: ontology.sortedKindClasses('Point') },
        { type: 'timeseries', ids: ['ts-1', hostile] },
      ],
      selection: { kind: 'Point', attributes: new Set(['timeseries']), fields: [] },
    };
    const query = rootQuery(plan, new Set(['timeseries']))!;
    expect(valuesIn(serialize(query), 'c1_ts')).toEqual(['ts-1', hostile]);
    expect(rootQuery({ ...plan, constraints: [{ type: 'timeseries', ids: [] }] }, new Set())).toBeUndefined();
  });
});
