import { describe, expect, it } from 'vitest';
import { readEntityRows } from '../../../src/query/entity-records.ts';
import type { RdfTerm, SparqlRow } from '../../../src/rdf/result-row.ts';

const BRICK = 'https://brickschema.org/schema/Brick#';
const EX = 'http://example.org/site#';

const uri = (value: string): RdfTerm => ({ type: 'uri', value });
const lit = (value: string): RdfTerm => ({ type: 'literal', value });
const IRI_VARIABLES = new Set(['e', 'parent', 'start', 'x', 'y', 't', 'u', 'litp', 'own', 'ownt', 'out']);
/** A result row: IRIs for the variables that bind IRIs, literals for the rest. */
const row = (bindings: Record<string, string>): SparqlRow =>
  Object.fromEntries(Object.entries(bindings).map(([k, v]) => [k, IRI_VARIABLES.has(k) ? uri(v) : lit(v)]));

describe('readEntityRows', () => {
  it('folds rows that repeat facts (one per combination) into one record', () => {
    // Two types × two labels: the store returns four rows for one entity.
    const rows = [
      row({ e: `${EX}VAV1`, t: `${BRICK}VAV`, l0: 'VAV 1', tag: 'hp' }),
      row({ e: `${EX}VAV1`, t: `${BRICK}VAV`, l0: 'Box 1', tag: 'hp' }),
      row({ e: `${EX}VAV1`, t: `${BRICK}Equipment`, l0: 'VAV 1', tag: 'hp' }),
      row({ e: `${EX}VAV1`, t: `${BRICK}Equipment`, l0: 'Box 1', tag: 'hp' }),
    ];
    const { records, links } = readEntityRows(rows);
    expect([...records.keys()]).toEqual([`${EX}VAV1`]);
    const record = records.get(`${EX}VAV1`)!;
    expect([...record.types]).toEqual([`${BRICK}VAV`, `${BRICK}Equipment`]);
    expect(record.labels).toEqual([['VAV 1', 'Box 1'], [], []]);
    expect(record.tag).toBe('hp');
    expect(links.size).toBe(0);
  });

  it('keeps one record per entity, in first-seen order', () => {
    const { records } = readEntityRows([row({ e: `${EX}B` }), row({ e: `${EX}A` }), row({ e: `${EX}B` })]);
    expect([...records.keys()]).toEqual([`${EX}B`, `${EX}A`]);
  });

  it('sorts labels by kind: rdfs:label, skos:prefLabel, brick:label', () => {
    const { records } = readEntityRows([
      row({ e: `${EX}R1`, l2: 'brick label', l1: 'pref label' }),
      row({ e: `${EX}R1`, l0: 'rdfs label', l1: 'pref label' }),
    ]);
    expect(records.get(`${EX}R1`)!.labels).toEqual([['rdfs label'], ['pref label'], ['brick label']]);
  });

  it('collects the optional facts: IFC ids, timeseries ids, units and output substances', () => {
    const { records } = readEntityRows([
      row({ e: `${EX}T1`, ifc: 'ifc-1', ts: 'ts-1', u: 'http://qudt.org/vocab/unit/DEG_C', out: `${BRICK}Air` }),
      row({ e: `${EX}T1`, ifc: 'ifc-1', ts: 'ts-2', u: 'http://qudt.org/vocab/unit/DEG_C', out: `${BRICK}Air` }),
    ]);
    const record = records.get(`${EX}T1`)!;
    expect([...record.ifcIds]).toEqual(['ifc-1']);
    expect([...record.timeseriesIds]).toEqual(['ts-1', 'ts-2']);
    expect([...record.units]).toEqual(['http://qudt.org/vocab/unit/DEG_C']);
    expect([...record.outputs]).toEqual([`${BRICK}Air`]);
  });

  it('groups writable/valueType literals by predicate, each value once', () => {
    const { records } = readEntityRows([
      row({ e: `${EX}SP1`, litp: `${EX}writable`, lit: 'true' }),
      row({ e: `${EX}SP1`, litp: `${EX}writable`, lit: 'true' }),
      row({ e: `${EX}SP1`, litp: `${EX}valueType`, lit: 'float' }),
    ]);
    expect([...records.get(`${EX}SP1`)!.literals]).toEqual([
      [`${EX}writable`, ['true']],
      [`${EX}valueType`, ['float']],
    ]);
  });

  it('records each owner with all its types, and an owner whose types are unknown', () => {
    const { records } = readEntityRows([
      row({ e: `${EX}T1`, own: `${EX}VAV1`, ownt: `${BRICK}VAV` }),
      row({ e: `${EX}T1`, own: `${EX}VAV1`, ownt: `${BRICK}Equipment` }),
      row({ e: `${EX}T1`, own: `${EX}Thing` }),
    ]);
    const owners = records.get(`${EX}T1`)!.owners;
    expect([...owners.keys()]).toEqual([`${EX}VAV1`, `${EX}Thing`]);
    expect([...owners.get(`${EX}VAV1`)!]).toEqual([`${BRICK}VAV`, `${BRICK}Equipment`]);
    expect(owners.get(`${EX}Thing`)!.size).toBe(0);
  });

  it('keeps a fallback tag once one row carries it', () => {
    const { records } = readEntityRows([
      row({ e: `${EX}X`, tag: 'pt' }),
      row({ e: `${EX}X`, tag: '' }),
      row({ e: `${EX}X` }),
    ]);
    expect(records.get(`${EX}X`)!.tag).toBe('pt');
  });

  it('starts a record with no facts as empty', () => {
    const record = readEntityRows([row({ e: `${EX}X` })]).records.get(`${EX}X`)!;
    expect(record).toMatchObject({ iri: `${EX}X`, tag: '', labels: [[], [], []] });
    for (const facts of [
      record.types,
      record.ifcIds,
      record.timeseriesIds,
      record.units,
      record.outputs,
      record.literals,
      record.owners,
    ]) {
      expect(facts.size).toBe(0);
    }
  });

  it('skips rows without an entity (the start and edge rows of a traversal)', () => {
    const { records, links } = readEntityRows([
      row({ parent: `${EX}AHU1`, start: `${EX}AHU1` }),
      row({ parent: `${EX}AHU1`, x: `${EX}AHU1`, y: `${EX}VAV1` }),
      row({ parent: `${EX}AHU1`, e: `${EX}VAV1` }),
    ]);
    expect([...records.keys()]).toEqual([`${EX}VAV1`]);
    expect([...links.get(`${EX}AHU1`)!]).toEqual([[`${EX}VAV1`, 0]]);
  });

  describe('parent links', () => {
    it('link each parent to its children, a child shared by two parents under both', () => {
      const { records, links } = readEntityRows([
        row({ parent: `${EX}F1`, e: `${EX}R1` }),
        row({ parent: `${EX}F1`, e: `${EX}R2` }),
        row({ parent: `${EX}F2`, e: `${EX}R2` }),
      ]);
      expect(records.size).toBe(2);
      expect([...links.get(`${EX}F1`)!.keys()]).toEqual([`${EX}R1`, `${EX}R2`]);
      expect([...links.get(`${EX}F2`)!.keys()]).toEqual([`${EX}R2`]);
    });

    it('keep the best (lowest) rank of a child reached by several alternatives', () => {
      const { links } = readEntityRows([
        row({ parent: `${EX}VAV1`, e: `${EX}Floor_1`, rank: '2' }),
        row({ parent: `${EX}VAV1`, e: `${EX}Room_1`, rank: '1' }),
        row({ parent: `${EX}VAV1`, e: `${EX}Floor_1`, rank: '1' }),
        row({ parent: `${EX}VAV1`, e: `${EX}Room_1`, rank: '3' }),
      ]);
      expect(Object.fromEntries(links.get(`${EX}VAV1`)!)).toEqual({ [`${EX}Floor_1`]: 1, [`${EX}Room_1`]: 1 });
    });

    it('give a child without a rank rank 0', () => {
      const { links } = readEntityRows([row({ parent: `${EX}AHU1`, e: `${EX}SAT` })]);
      expect(links.get(`${EX}AHU1`)!.get(`${EX}SAT`)).toBe(0);
    });
  });
});
