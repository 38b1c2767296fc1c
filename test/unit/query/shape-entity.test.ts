import { beforeAll, describe, expect, it } from 'vitest';
import type { EntityRecord } from '../../../src/query/entity-records.ts';
import type { EntityKind, FieldPlan, ScalarField, Selection } from '../../../src/compiler/plan.ts';
import { kindsOf, nameOf, shapeEntity } from '../../../src/query/shape-entity.ts';
import { SiteIds } from '../../../src/compiler/site-ids.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { BRICK, REC, loadDerivedOntology } from '../ontology/derived-ontology.ts';

const EX = 'http://example.org/site#';
const OWL = 'http://www.w3.org/2002/07/owl#';
const UNIT = 'http://qudt.org/vocab/unit/';

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

interface Facts {
  types?: string[];
  rdfsLabels?: string[];
  prefLabels?: string[];
  brickLabels?: string[];
  tag?: string;
  ifcIds?: string[];
  timeseriesIds?: string[];
  units?: string[];
  literals?: Record<string, string[]>;
  owners?: Record<string, string[]>;
}

/** An entity record as the records stage would fold it. */
function record(local: string, facts: Facts = {}): EntityRecord {
  return {
    iri: `${EX}${local}`,
    types: new Set(facts.types ?? []),
    labels: [facts.rdfsLabels ?? [], facts.prefLabels ?? [], facts.brickLabels ?? []],
    tag: facts.tag ?? '',
    ifcIds: new Set(facts.ifcIds ?? []),
    timeseriesIds: new Set(facts.timeseriesIds ?? []),
    units: new Set(facts.units ?? []),
    literals: new Map(Object.entries(facts.literals ?? {})),
    owners: new Map(Object.entries(facts.owners ?? {}).map(([owner, types]) => [owner, new Set(types)])),
    outputs: new Set(),
  };
}

const selection = (kind: EntityKind, fields: FieldPlan[]): Selection => ({ kind, attributes: new Set(), fields });
const scalars = (...names: ScalarField[]): FieldPlan[] => names.map((field) => ({ key: field, type: 'scalar', field }));
/** One scalar field of a record shaped as `kind`. */
const scalar = (field: ScalarField, r: EntityRecord, kind: EntityKind) =>
  shapeEntity(r, selection(kind, scalars(field)), ontology, SiteIds.UNIQUE)[field];

describe('name', () => {
  it('prefers rdfs:label over skos:prefLabel and brick:label', () => {
    expect(nameOf(record('R1', { rdfsLabels: ['Room 1'], prefLabels: ['Pref'], brickLabels: ['Brick'] }))).toBe(
      'Room 1',
    );
  });

  it('falls back to skos:prefLabel, then brick:label', () => {
    expect(nameOf(record('R1', { prefLabels: ['Pref'], brickLabels: ['Brick'] }))).toBe('Pref');
    expect(nameOf(record('R1', { brickLabels: ['Brick'] }))).toBe('Brick');
  });

  it('falls back to the id', () => {
    expect(nameOf(record('Room_101'))).toBe('Room_101');
  });

  it('picks the alphabetically first of several labels of one kind, whatever their order', () => {
    expect(nameOf(record('R1', { rdfsLabels: ['Zulu', 'Alpha'] }))).toBe('Alpha');
  });

  it('is the name field', () => {
    const object = shapeEntity(
      record('R1', { prefLabels: ['Pref'] }),
      selection('Location', scalars('name')),
      ontology,
      SiteIds.UNIQUE,
    );
    expect(object).toMatchObject({ name: 'Pref' });
  });
});

describe('type', () => {
  it('is the most specific class in the kind: VAV, not owl:NamedIndividual', () => {
    expect(scalar('type', record('VAV1', { types: [`${OWL}NamedIndividual`, `${BRICK}VAV`] }), 'Equipment')).toBe(
      'VAV',
    );
  });

  it('is the most specific of a class and its ancestors', () => {
    const types = [`${BRICK}Point`, `${BRICK}Temperature_Sensor`, `${BRICK}Air_Temperature_Sensor`];
    expect(scalar('type', record('T1', { types }), 'Point')).toBe('Air_Temperature_Sensor');
  });

  it('depends on the kind the entity is shaped as', () => {
    const both = record('RZ', { types: [`${BRICK}Room`, `${BRICK}HVAC_Zone`] });
    expect(scalar('type', both, 'Zone')).toBe('HVAC_Zone');
    expect(scalar('type', both, 'Location')).toBe('Room');
  });

  it('is the local name of a rec: class', () => {
    expect(scalar('type', record('R1', { types: [`${REC}Room`] }), 'Location')).toBe('Room');
  });

  it('is the asserted class’s local name for a class outside the ontology', () => {
    expect(scalar('type', record('X1', { types: ['http://example.org/schema#Custom'], tag: 'hp' }), 'Equipment')).toBe(
      'Custom',
    );
  });

  // Brick models often type instances with owl:NamedIndividual as well (see the VAV case above).
  it('ignores owl:NamedIndividual beside a class outside the ontology', () => {
    expect(
      scalar(
        'type',
        record('X1', { types: ['http://example.org/schema#Widget', `${OWL}NamedIndividual`], tag: 'hp' }),
        'Equipment',
      ),
    ).toBe('Widget');
  });

  it('is the kind itself for an untyped entity', () => {
    expect(scalar('type', record('X1', { tag: 'hp' }), 'Equipment')).toBe('Equipment');
  });
});

describe('typeHierarchy', () => {
  it('lists the type and its ancestors up to the kind root, nearest first', () => {
    expect(
      scalar('typeHierarchy', record('VAV1', { types: [`${BRICK}VAV`, `${OWL}NamedIndividual`] }), 'Equipment'),
    ).toEqual(['VAV', 'Terminal_Unit', 'HVAC_Equipment', 'Equipment']);
    expect(scalar('typeHierarchy', record('T1', { types: [`${BRICK}Air_Temperature_Sensor`] }), 'Point')).toEqual([
      'Air_Temperature_Sensor',
      'Temperature_Sensor',
      'Sensor',
      'Point',
    ]);
  });

  it('is [Custom, Equipment] for a class outside the ontology', () => {
    expect(
      scalar('typeHierarchy', record('X1', { types: ['http://example.org/schema#Custom'], tag: 'hp' }), 'Equipment'),
    ).toEqual(['Custom', 'Equipment']);
    expect(
      scalar('typeHierarchy', record('P1', { types: ['http://example.org/schema#Custom'], tag: 'pt' }), 'Point'),
    ).toEqual(['Custom', 'Point']);
  });

  it('is just the kind for an untyped entity', () => {
    expect(scalar('typeHierarchy', record('X1', { tag: 'hp' }), 'Equipment')).toEqual(['Equipment']);
  });
});

describe('writable', () => {
  it.each([
    ['Damper_Position_Command', 'true'],
    ['Air_Temperature_Setpoint', 'true'],
    ['Proportional_Band_Parameter', 'true'],
    ['Air_Temperature_Sensor', 'false'],
    ['On_Off_Status', 'false'],
    ['High_Temperature_Alarm', 'false'],
  ])('defaults for a %s to "%s"', (cls, expected) => {
    expect(scalar('writable', record('P1', { types: [`${BRICK}${cls}`] }), 'Point')).toBe(expected);
  });

  it('is null for a point of none of those classes', () => {
    expect(scalar('writable', record('P1', { types: [`${BRICK}Point`] }), 'Point')).toBeNull();
  });

  it('takes a stated value over the class default', () => {
    const setpoint = record('SP1', {
      types: [`${BRICK}Air_Temperature_Setpoint`],
      literals: { [`${EX}writable`]: ['false'] },
    });
    expect(scalar('writable', setpoint, 'Point')).toBe('false');
    const sensor = record('S1', {
      types: [`${BRICK}Air_Temperature_Sensor`],
      literals: { [`${EX}writable`]: ['true'] },
    });
    expect(scalar('writable', sensor, 'Point')).toBe('true');
  });
});

describe('valueType', () => {
  it('is the stated value, else null', () => {
    expect(scalar('valueType', record('P1', { literals: { [`${EX}valueType`]: ['float'] } }), 'Point')).toBe('float');
    expect(scalar('valueType', record('P1', { literals: { [`${EX}writable`]: ['true'] } }), 'Point')).toBeNull();
  });
});

describe('equipmentId', () => {
  it('is the id of the equipment the point belongs to', () => {
    expect(scalar('equipmentId', record('T1', { owners: { [`${EX}VAV1`]: [`${BRICK}VAV`] } }), 'Point')).toBe('VAV1');
  });

  it('is "" when the owner is a room, a zone or a building', () => {
    for (const cls of [`${BRICK}Room`, `${REC}Room`, `${BRICK}HVAC_Zone`, `${BRICK}Building`]) {
      expect(scalar('equipmentId', record('T1', { owners: { [`${EX}Owner`]: [cls] } }), 'Point')).toBe('');
    }
  });

  it('is "" without an owner', () => {
    expect(scalar('equipmentId', record('T1'), 'Point')).toBe('');
  });

  it('picks the equipment among a room and an equipment owner', () => {
    const point = record('T1', { owners: { [`${EX}Room_1`]: [`${BRICK}Room`], [`${EX}VAV1`]: [`${BRICK}VAV`] } });
    expect(scalar('equipmentId', point, 'Point')).toBe('VAV1');
  });

  it('counts an owner typed with no known class as equipment (it has points)', () => {
    expect(
      scalar('equipmentId', record('T1', { owners: { [`${EX}Box`]: ['http://example.org/schema#Box'] } }), 'Point'),
    ).toBe('Box');
  });
});

describe('kindsOf', () => {
  it('reads the kinds from the classes', () => {
    expect([...kindsOf(record('VAV1', { types: [`${BRICK}VAV`] }), ontology)]).toEqual(['Equipment']);
    expect([...kindsOf(record('B1', { types: [`${BRICK}Building`] }), ontology)].sort()).toEqual([
      'Building',
      'Location',
    ]);
  });

  it.each([
    ['le', 'Location'],
    ['hp', 'Equipment'],
    ['pt', 'Point'],
  ])('falls back on tag %s to %s for an entity typed with no known class', (tag, kind) => {
    expect([...kindsOf(record('X', { types: ['http://example.org/schema#Custom'], tag }), ontology)]).toEqual([kind]);
    expect([...kindsOf(record('X', { tag }), ontology)]).toEqual([kind]);
  });

  it('ignores the tag when a class gives a kind', () => {
    expect([...kindsOf(record('R1', { types: [`${BRICK}Room`], tag: 'hp' }), ontology)]).toEqual(['Location']);
  });

  it('is empty without a known class or a tag', () => {
    expect(kindsOf(record('X', { types: ['http://example.org/schema#Custom'] }), ontology).size).toBe(0);
  });
});

describe('shapeEntity', () => {
  it('fills the scalar fields under their response keys', () => {
    const r = record('T1', {
      types: [`${BRICK}Air_Temperature_Sensor`],
      rdfsLabels: ['Supply temp'],
      ifcIds: ['ifc-b', 'ifc-a'],
      timeseriesIds: ['ts-1'],
      units: [`${UNIT}DEG_C`],
    });
    const fields: FieldPlan[] = [
      { key: 'uri', type: 'scalar', field: 'uri' },
      { key: 'localId', type: 'scalar', field: 'id' },
      { key: 'ifcId', type: 'scalar', field: 'ifcId' },
      { key: 'unit', type: 'scalar', field: 'unit' },
      { key: 'timeseriesId', type: 'scalar', field: 'timeseriesId' },
      { key: 'currentValue', type: 'currentValue', fields: [['value', 'value']] },
    ];
    expect(shapeEntity(r, selection('Point', fields), ontology, SiteIds.UNIQUE)).toEqual({
      __iri: `${EX}T1`,
      __kind: 'Point',
      // currentValue is filled later by one batched lookup for this timeseries.
      __timeseriesId: 'ts-1',
      uri: `${EX}T1`,
      localId: 'T1',
      ifcId: 'ifc-a',
      unit: 'DEG_C',
      timeseriesId: 'ts-1',
      currentValue: null,
    });
  });

  it('gives null for missing optional facts', () => {
    const object = shapeEntity(
      record('T1'),
      selection('Point', scalars('ifcId', 'unit', 'timeseriesId')),
      ontology,
      SiteIds.UNIQUE,
    );
    expect(object).toMatchObject({ ifcId: null, unit: null, timeseriesId: null });
  });

  it('leaves relation and properties fields to later stages', () => {
    const fields: FieldPlan[] = [
      { key: 'properties', type: 'properties', fields: [['name', 'name']] },
      {
        key: 'points',
        type: 'relation',
        relation: 'Equipment.points',
        args: { recursive: false },
        selection: selection('Point', []),
      },
    ];
    expect(
      Object.keys(shapeEntity(record('AHU1'), selection('Equipment', fields), ontology, SiteIds.UNIQUE)).sort(),
    ).toEqual(['__iri', '__kind']);
  });
});
