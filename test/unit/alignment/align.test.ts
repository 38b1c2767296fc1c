import { beforeAll, describe, expect, it } from 'vitest';
import {
  align,
  pairKey,
  proposalId,
  type AlignElement,
  type AlignEntity,
  type AlignInput,
} from '../../../src/alignment/align.ts';
import { classMatcher, unknownTableClasses } from '../../../src/alignment/class-matcher.ts';
import { coverage } from '../../../src/alignment/coverage.ts';
import { compareNames, elementNameTokens, nameTokens } from '../../../src/alignment/name-tokens.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { loadDerivedOntology } from '../ontology/derived-ontology.ts';

let ontology: Ontology;
let matches: AlignInput['matches'];
beforeAll(async () => {
  ontology = await loadDerivedOntology();
  matches = classMatcher(ontology);
});

const F = 'file-1';
const element = (globalId: string, ifcClass: string, name: string, storey = '', tag = ''): AlignElement => ({
  fileId: F,
  globalId,
  ifcClass,
  name,
  storey,
  tag,
});
const floor2 = { iri: 'urn:x:Floor-2', name: 'Floor 2' };
const floor3 = { iri: 'urn:x:Floor-3', name: 'Floor 3' };
const entity = (id: string, type: string, extra: Partial<AlignEntity> = {}): AlignEntity => ({
  iri: `urn:x:${id}`,
  id,
  name: id,
  type,
  ifcIds: [],
  floor: null,
  ...extra,
});

const storeys = [
  element('S2', 'IFCBUILDINGSTOREY', 'Floor 2', 'Floor 2'),
  element('S3', 'IFCBUILDINGSTOREY', 'Floor 3', 'Floor 3'),
];
const floors = [entity('Floor-2', 'Level', { name: 'Floor 2' }), entity('Floor-3', 'Floor', { name: 'Floor 3' })];

describe('name tokens', () => {
  it('reads "VAV 2-03", "VAV-2-03" and "vav_2_3" as one name', () => {
    expect(nameTokens('VAV 2-03').key).toBe('vav 2 3');
    expect(compareNames(nameTokens('VAV-2-03'), nameTokens('vav_2_3')).similarity).toBe(1);
  });
  it('never matches names whose numbers differ', () => {
    expect(compareNames(nameTokens('VAV-2-03'), nameTokens('VAV-2-04')).similarity).toBe(0);
  });
  it('reads a `Family: Type: Id` name as its family', () => {
    expect(elementNameTokens('Pump - Inline: DN50: 402201').key).toBe('pump inline');
    expect(elementNameTokens('VAV 2-03').key).toBe('vav 2 3');
  });
  it('reads an abbreviation as its words', () => {
    expect(compareNames(nameTokens('Air Handling Unit 1'), nameTokens('AHU-1')).similarity).toBeGreaterThan(0.6);
  });
});

describe('the class table', () => {
  it('names only classes the shipped ontology knows', () => {
    expect(unknownTableClasses(ontology)).toEqual([]);
  });
  it('honours Brick subclasses and REC replacements through the ontology', () => {
    const result = align({
      elements: [...storeys, element('P1', 'IFCPUMP', 'HWP-1', 'Floor 2')],
      entities: [...floors, entity('HWP-1', 'Hot_Water_Pump', { floor: floor2 })],
      matches,
    });
    expect(result.proposals.map((p) => [p.globalId, p.entityId])).toEqual(
      expect.arrayContaining([
        ['S2', 'Floor-2'],
        ['S3', 'Floor-3'],
        ['P1', 'HWP-1'],
      ]),
    );
  });
});

describe('align()', () => {
  it('proposes each element once and each entity once, the same names first', () => {
    const result = align({
      elements: [
        ...storeys,
        element('V1', 'IFCAIRTERMINALBOX', 'VAV 2-03', 'Floor 2'),
        element('V2', 'IFCAIRTERMINALBOX', 'VAV 2-04', 'Floor 2'),
      ],
      entities: [...floors, entity('VAV-2-03', 'VAV', { floor: floor2 }), entity('VAV-2-04', 'VAV', { floor: floor2 })],
      matches,
    });
    const vavs = result.proposals.filter((p) => p.ifcClass === 'IFCAIRTERMINALBOX');
    expect(vavs.map((p) => [p.globalId, p.entityId, p.status])).toEqual([
      ['V1', 'VAV-2-03', 'proposed'],
      ['V2', 'VAV-2-04', 'proposed'],
    ]);
    expect(vavs[0]!.score).toBeCloseTo(0.9);
    expect(vavs[0]!.evidence.map((e) => e.kind)).toEqual(['class', 'name', 'containment']);
  });

  it('never proposes walls, slabs or ducts, nor an entity of another class', () => {
    const result = align({
      elements: [
        element('W', 'IFCWALL', 'VAV-2-03'),
        element('D', 'IFCDUCTSEGMENT', 'VAV-2-03'),
        element('B', 'IFCBOILER', 'VAV-2-03'),
      ],
      entities: [entity('VAV-2-03', 'VAV')],
      matches,
    });
    expect(result.proposals).toEqual([]);
    expect(result.elements.map((e) => e.element.globalId)).toEqual(['B']);
  });

  it('counts a storey that disagrees against the pair', () => {
    const result = align({
      elements: [...storeys, element('V1', 'IFCAIRTERMINALBOX', 'VAV 1', 'Floor 2')],
      entities: [...floors, entity('VAV-1', 'VAV', { floor: floor3 })],
      matches,
    });
    const vav = result.proposals.find((p) => p.globalId === 'V1')!;
    expect(vav.evidence.find((e) => e.kind === 'containment')!.weight).toBeLessThan(0);
    expect(vav.score).toBeCloseTo(0.6);
  });

  it('finds a pair by its IFC tag when the name is a family name', () => {
    const result = align({
      elements: [
        element('P', 'IFCPUMP', 'Pump - Inline: 50mm: 312456', '', 'CHWP-1'),
        element('Q', 'IFCPUMP', 'Pump - Inline: 50mm: 312457', '', 'HWP-1'),
      ],
      entities: [entity('HWP-1', 'Hot_Water_Pump'), entity('CHWP-1', 'Chilled_Water_Pump')],
      matches,
    });
    expect(result.proposals.map((p) => [p.globalId, p.entityId])).toEqual(
      [
        ['P', 'CHWP-1'],
        ['Q', 'HWP-1'],
      ].sort(),
    );
    expect(result.proposals[0]!.evidence.some((e) => e.kind === 'tag')).toBe(true);
  });

  it('takes connectivity through the ports against feeds', () => {
    // Two unnamed pumps: only what they connect to tells them apart.
    const result = align({
      elements: [
        element('B', 'IFCBOILER', 'B-1'),
        element('C', 'IFCCHILLER', 'CH-1'),
        element('P1', 'IFCPUMP', 'Pump'),
        element('P2', 'IFCPUMP', 'Pump'),
      ],
      entities: [
        entity('B-1', 'Boiler', { connected: ['urn:x:HWP-1'] }),
        entity('CH-1', 'Chiller', { connected: ['urn:x:CHWP-1'] }),
        entity('HWP-1', 'Hot_Water_Pump', { connected: ['urn:x:B-1'] }),
        entity('CHWP-1', 'Chilled_Water_Pump', { connected: ['urn:x:CH-1'] }),
      ],
      connections: [
        [F, 'P1', 'C'],
        [F, 'P2', 'B'],
      ],
      matches,
    });
    const pumps = Object.fromEntries(
      result.proposals.filter((p) => p.ifcClass === 'IFCPUMP').map((p) => [p.globalId, p.entityId]),
    );
    expect(pumps).toEqual({ P1: 'CHWP-1', P2: 'HWP-1' });
    expect(result.proposals.find((p) => p.globalId === 'P1')!.evidence.some((e) => e.kind === 'connectivity')).toBe(
      true,
    );
  });

  it('keeps links the graph states as accepted and proposes nothing else for them', () => {
    const result = align({
      elements: [element('V1', 'IFCAIRTERMINALBOX', 'VAV-1'), element('V2', 'IFCAIRTERMINALBOX', 'VAV-2')],
      entities: [entity('VAV-1', 'VAV', { ifcIds: ['V1'] }), entity('VAV-2', 'VAV')],
      matches,
    });
    expect(result.proposals.map((p) => [p.globalId, p.entityId, p.status])).toEqual([
      ['V1', 'VAV-1', 'accepted'],
      ['V2', 'VAV-2', 'proposed'],
    ]);
  });

  it('never proposes a rejected pair again, and lists it as rejected', () => {
    const input = {
      elements: [element('V1', 'IFCAIRTERMINALBOX', 'VAV-1')],
      entities: [entity('VAV-1', 'VAV'), entity('VAV-9', 'VAV')],
      matches,
    };
    const rejected = new Set([pairKey(F, 'V1', 'urn:x:VAV-1')]);
    const result = align({ ...input, rejected });
    expect(result.proposals.map((p) => [p.entityId, p.status])).toEqual([['VAV-1', 'rejected']]);
  });

  it('gives a pair the same id every call', () => {
    const input = {
      elements: [element('V1', 'IFCAIRTERMINALBOX', 'VAV-1')],
      entities: [entity('VAV-1', 'VAV')],
      matches,
    };
    expect(align(input).proposals[0]!.id).toBe(align(input).proposals[0]!.id);
    expect(align(input).proposals[0]!.id).toBe(proposalId(F, 'V1', 'urn:x:VAV-1'));
  });

  it('scores a large building from an index of names, not every pair', () => {
    const n = 2000;
    const elements = Array.from({ length: n }, (_, i) =>
      element(`V${i}`, 'IFCAIRTERMINALBOX', `VAV ${Math.floor(i / 100)}-${i % 100}`),
    );
    const entities = Array.from({ length: n }, (_, i) =>
      entity(`VAV-${Math.floor(i / 100)}-${String(i % 100).padStart(2, '0')}`, 'VAV'),
    );
    const started = performance.now();
    const result = align({ elements, entities, matches });
    expect(performance.now() - started).toBeLessThan(2000);
    expect(
      result.proposals.filter((p) => `VAV-${p.ifcName.slice(4).replace(/-(\d)$/, '-0$1')}` === p.entityId),
    ).toHaveLength(n);
  });
});

describe('coverage()', () => {
  it('counts elements mapped, proposed and unmatched per class and storey, and lists entities without an element', () => {
    const report = coverage(
      align({
        elements: [
          element('V1', 'IFCAIRTERMINALBOX', 'VAV-1', 'L1'),
          element('V2', 'IFCAIRTERMINALBOX', 'VAV-2', 'L1'),
          element('X', 'IFCAIRTERMINALBOX', 'Diffuser 7', 'L2'),
          element('W', 'IFCWALL', 'Wall', 'L1'),
        ],
        entities: [
          entity('VAV-1', 'VAV', { ifcIds: ['V1'] }),
          entity('VAV-2', 'VAV'),
          entity('HWP-1', 'Hot_Water_Pump', { floor: floor2 }),
        ],
        matches,
      }),
    );
    expect(report.elements.map((e) => [e.globalId, e.status, e.entityId])).toEqual([
      ['V1', 'mapped', 'VAV-1'],
      ['V2', 'proposed', 'VAV-2'],
      ['X', 'unmatched', null],
    ]);
    expect(report.byClass).toEqual({ IFCAIRTERMINALBOX: { mapped: 1, proposed: 1, unmatched: 1 } });
    expect(report.byStorey).toEqual({
      L1: { mapped: 1, proposed: 1, unmatched: 0 },
      L2: { mapped: 0, proposed: 0, unmatched: 1 },
    });
    expect(report.entitiesWithoutElement).toEqual([
      { entityId: 'HWP-1', entityType: 'Hot_Water_Pump', storey: 'Floor 2' },
    ]);
  });
});

describe('proposal ids', () => {
  it('are 22 hex digits, stable for a pair, and never start with a dash (a command line would read an option)', () => {
    const ids = Array.from({ length: 2000 }, (_, i) => proposalId(`file-${i}`, `G${i}`, `urn:x:e${i}`));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(proposalId('f', 'g', 'urn:x:e')).toBe(proposalId('f', 'g', 'urn:x:e'));
  });
});
