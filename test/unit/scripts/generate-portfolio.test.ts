/**
 * The benchmark portfolio generator (scripts/generate-portfolio.ts): deterministic, valid Turtle, close
 * to the requested size, and named as its header promises.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import oxigraph from 'oxigraph';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  EXT_NAMESPACE,
  PORTFOLIO_NAMESPACE,
  buildingCode,
  generatePortfolioText,
  writePortfolioFile,
  type PortfolioStats,
} from '../../../scripts/generate-portfolio.ts';
import { formatCount, parseCount } from '../../../scripts/lib/counts.ts';
import { isValidIfcGlobalId } from '../../../scripts/lib/ifc-guid.ts';
import { Ontology } from '../../../src/ontology/ontology.ts';

const TARGET = 20_000;
const ONTOLOGY_PATH = resolve(import.meta.dirname, '..', '..', '..', 'ontology', 'brick-hierarchy.ttl');
const PREFIXES = `
PREFIX brick: <https://brickschema.org/schema/Brick#>
PREFIX rec: <https://w3id.org/rec#>
PREFIX ref: <https://brickschema.org/schema/Brick/ref#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX prop: <https://example.org/buildings/props#>
PREFIX pf: <${PORTFOLIO_NAMESPACE}>
`;

function select(store: oxigraph.Store, query: string): Array<Record<string, string>> {
  const json = store.query(PREFIXES + query, { results_format: 'application/sparql-results+json' }) as string;
  const bindings = (JSON.parse(json) as { results: { bindings: Array<Record<string, { value: string }>> } }).results
    .bindings;
  return bindings.map((b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v.value])));
}

describe('portfolio generator', () => {
  let text: string;
  let stats: PortfolioStats;
  let store: oxigraph.Store;

  beforeAll(() => {
    ({ text, stats } = generatePortfolioText({ targetTriples: TARGET }));
    store = new oxigraph.Store();
    store.load(text, { format: 'text/turtle' });
  });

  it('is deterministic: the same seed gives the same bytes, another seed another document', () => {
    expect(generatePortfolioText({ targetTriples: TARGET }).text).toBe(text);
    expect(generatePortfolioText({ targetTriples: TARGET, seed: 7 }).text).not.toBe(text);
    expect(generatePortfolioText({ buildings: 1, overrides: { floors: 2 }, seed: 7 }).text).toBe(
      generatePortfolioText({ buildings: 1, overrides: { floors: 2 }, seed: 7 }).text,
    );
  });

  it('parses with oxigraph, with the triple count it reports, within 5% of the target', () => {
    expect(store.size).toBe(stats.triples);
    expect(Math.abs(store.size - TARGET) / TARGET).toBeLessThanOrEqual(0.05);
  });

  it('keeps a building the same whatever the target (one random stream per building)', () => {
    const small = generatePortfolioText({ buildings: 1 }).text;
    const firstBuilding = (doc: string) => doc.slice(doc.indexOf('# --- B01'), doc.indexOf('# --- B02'));
    expect(small).toContain(firstBuilding(text));
  });

  it('writes files through a temporary name, with the same content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portfolio-'));
    try {
      const path = join(dir, 'p.ttl');
      const result = writePortfolioFile(path, { targetTriples: TARGET }, () => {});
      expect(readFileSync(path, 'utf8')).toBe(text);
      expect(result.stats.triples).toBe(stats.triples);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives every entity a unique, predictable label', () => {
    const rows = select(store, 'SELECT ?e ?l WHERE { ?e rdfs:label ?l }');
    const labels = rows.map((r) => r.l!);
    expect(new Set(labels).size).toBe(labels.length);
    const byLabel = new Map(rows.map((r) => [r.l!, r.e!]));
    const B = buildingCode(1);
    expect(B).toBe('B01');
    for (const [label, local] of [
      ['B01 Building', 'B01-Building'],
      ['B01 Floor-2', 'B01-Floor-2'],
      ['B01 Room-2-04', 'B01-Room-2-04'],
      ['B01 Zone-2-04', 'B01-Zone-2-04'],
      ['B01 AHU-1', 'B01-AHU-1'],
      ['B01 AHU-1-SF', 'B01-AHU-1-SF'],
      ['B01 VAV-2-04', 'B01-VAV-2-04'],
      ['B01 VAV-2-04 Zone Air Temp', 'B01-VAV-2-04-ZAT'],
      ['B01 FCU-1', 'B01-FCU-1'],
      ['B01 CH-1', 'B01-CH-1'],
      ['B01 HX-1', 'B01-HX-1'],
      ['B01 CHW-SYS', 'B01-CHW-SYS'],
    ] as const) {
      expect(byLabel.get(label), label).toBe(PORTFOLIO_NAMESPACE + local);
    }
  });

  it('uses classes the ontology knows (and one vendor class), some pre-1.4 names, and 5-15 points per equipment', async () => {
    const ontology = await Ontology.load(ONTOLOGY_PATH);
    const classes = select(store, 'SELECT DISTINCT ?c WHERE { ?e a ?c FILTER(!isBlank(?e)) }').map((r) => r.c!);
    const unknown = classes.filter((c) => !ontology.isKnownClass(c));
    expect(unknown).toEqual([`${EXT_NAMESPACE}LightingControlPanel`]);
    for (const old of ['Floor', 'Zone_Air_Temperature_Setpoint', 'Chilled_Water_Supply_Temperature_Sensor']) {
      expect(classes, old).toContain(`https://brickschema.org/schema/Brick#${old}`);
    }
    expect(stats.legacyClassUses).toBeGreaterThan(0);
    const counts = select(
      store,
      `SELECT ?e (COUNT(?p) AS ?n) WHERE { ?e prop:pointCount ?declared { ?e brick:hasPoint ?p } UNION { ?p brick:isPointOf ?e } } GROUP BY ?e`,
    );
    expect(counts.length).toBe(stats.byKind.equipment);
    for (const r of counts) {
      const n = Number(r.n);
      expect(n, r.e).toBeGreaterThanOrEqual(5);
      expect(n, r.e).toBeLessThanOrEqual(15);
    }
    const declared = select(store, 'SELECT ?e ?n WHERE { ?e prop:pointCount ?n }');
    const actual = new Map(counts.map((r) => [r.e!, r.n!]));
    for (const r of declared) expect(r.n, r.e).toBe(actual.get(r.e!));
  });

  it('states some relations in the inverse direction, and reads the same either way', () => {
    const inverse = select(
      store,
      `SELECT (COUNT(*) AS ?n) WHERE { { ?a brick:isPartOf ?b } UNION { ?a brick:isPointOf ?b } UNION { ?a brick:isFedBy ?b } UNION { ?a brick:isLocationOf ?b } }`,
    );
    const n = Number(inverse[0]!.n);
    expect(n).toBe(stats.relationsStatedInverse);
    expect(n / stats.relations).toBeGreaterThan(0.05);
    expect(n / stats.relations).toBeLessThan(0.25);
    // Every VAV is fed by an AHU, whichever way the file says it.
    const vavs = select(
      store,
      'SELECT DISTINCT ?v WHERE { VALUES ?c { brick:VAV brick:Variable_Air_Volume_Box } ?v a ?c }',
    ).map((r) => r.v!);
    const fed = select(
      store,
      `SELECT DISTINCT ?v WHERE { VALUES ?ac { brick:AHU brick:Air_Handling_Unit } ?ahu a ?ac . ?ahu (brick:feeds|^brick:isFedBy) ?v }`,
    ).map((r) => r.v!);
    expect(vavs.length).toBe(
      stats.equipmentClasses['brick:VAV']! + stats.equipmentClasses['brick:Variable_Air_Volume_Box']!,
    );
    expect(new Set(fed)).toEqual(new Set(vavs));
  });

  it('has timeseries ids, IFC GlobalIds and equipment properties', () => {
    const ts = select(
      store,
      'SELECT ?id WHERE { ?p (ref:hasExternalReference|ref:hasTimeseriesReference)/ref:hasTimeseriesId ?id }',
    );
    expect(ts.length).toBeGreaterThan(stats.byKind.point * 0.8);
    expect(ts.every((r) => /^portfolio:B\d{2,}-/.test(r.id!))).toBe(true);
    const ifc = select(store, 'SELECT ?g WHERE { ?e ref:hasExternalReference/ref:ifcGlobalID ?g }').map((r) => r.g!);
    expect(ifc.length).toBe(stats.ifcIds);
    expect(new Set(ifc).size).toBe(ifc.length);
    expect(ifc.every(isValidIfcGlobalId)).toBe(true);
    const virtual = select(store, 'SELECT ?e WHERE { ?e prop:virtual true ; prop:controllerName ?c }');
    expect(virtual.length).toBeGreaterThan(0);
  });
});

describe('counts on the command line', () => {
  it('parses and formats sizes', () => {
    expect(parseCount('20000')).toBe(20_000);
    expect(parseCount('100k')).toBe(100_000);
    expect(parseCount('1M')).toBe(1_000_000);
    expect(parseCount('1.5M')).toBe(1_500_000);
    expect(() => parseCount('lots')).toThrow();
    expect(formatCount(100_000)).toBe('100k');
    expect(formatCount(1_000_000)).toBe('1M');
    expect(formatCount(5_000_000)).toBe('5M');
    expect(formatCount(1_500_000)).toBe('1.5M');
    expect(formatCount(12_345)).toBe('12345');
  });
});
