import { beforeAll, describe, expect, it } from 'vitest';
import type { FieldPlan, RootPlan, Selection, UnionSelection } from '../../../src/compiler/plan.ts';
import { AppError } from '../../../src/errors/app-error.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { BRICK, REC, loadDerivedOntology } from '../ontology/derived-ontology.ts';
import { planDocument, planOne, printConstraint, printPlan, printSelection, printUnion } from './plan-support.ts';

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

const plan = (source: string, variables?: Record<string, unknown>) => planOne(ontology, source, variables);
const selectionOf = (p: RootPlan) => p.selection as Selection;
const unionOf = (p: RootPlan) => p.selection as UnionSelection;
const relationField = (selection: Selection, key: string) => {
  const field = selection.fields.find((f) => f.key === key);
  if (field?.type !== 'relation') throw new Error(`${key} is not a relation field`);
  return field;
};
const keys = (selection: Selection) => selection.fields.map((f) => f.key);

/** The AppError a planning call throws. */
function planningError(source: string, variables?: Record<string, unknown>): AppError {
  try {
    plan(source, variables);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('Expected planning to fail');
}

describe('root plan', () => {
  it('prints as plain data: the site graph, the kind, and the selected scalars in order', () => {
    expect(printPlan(plan('{ building(siteId: "demo") { id name type } }'))).toEqual({
      key: 'building',
      query: 'building',
      siteId: 'demo',
      graph: 'urn:bkg:site:demo',
      kind: 'Building',
      answer: 'list',
      constraints: [{ type: 'kind', kind: 'Building', classes: ontology.kindClasses('Building').size }],
      selection: {
        kind: 'Building',
        attributes: ['labels'],
        fields: [
          { key: 'id', scalar: 'id' },
          { key: 'name', scalar: 'name' },
          { key: 'type', scalar: 'type' },
        ],
      },
    });
  });

  it('plans location and entityByIfcId as single results', () => {
    expect(plan('{ location(siteId: "s", locationId: "F1") { id } }').answer).toBe('one');
    expect(plan('{ entityByIfcId(siteId: "s", ifcId: "2O2Fr$t4X7Zf8NOew3FLOH") { __typename } }').answer).toBe('one');
    expect(plan('{ point(siteId: "s") { id } }').answer).toBe('list');
  });

  it('plans nested relations with the child kind and their own selection', () => {
    const p = plan('{ equipment(siteId: "s") { id points { id unit } location { name } } }');
    expect(printSelection(selectionOf(p))).toEqual({
      kind: 'Equipment',
      attributes: [],
      fields: [
        { key: 'id', scalar: 'id' },
        {
          key: 'points',
          relation: 'Equipment.points',
          args: { recursive: false },
          selection: {
            kind: 'Point',
            attributes: ['unit'],
            fields: [
              { key: 'id', scalar: 'id' },
              { key: 'unit', scalar: 'unit' },
            ],
          },
        },
        {
          key: 'location',
          relation: 'Equipment.location',
          args: { recursive: false },
          selection: { kind: 'Location', attributes: ['labels'], fields: [{ key: 'name', scalar: 'name' }] },
        },
      ],
    });
  });

  it('plans properties and currentValue as their own field types', () => {
    const p = plan('{ point(siteId: "s") { properties { name value unit } currentValue { value quality } } }');
    expect(printSelection(selectionOf(p)).fields).toEqual([
      { key: 'properties', properties: true },
      { key: 'currentValue', currentValue: true },
    ]);
  });

  it('passes recursive and name arguments through to relation args', () => {
    const p = plan('{ building(siteId: "s") { locations(recursive: true, name: "Floor", nameMatch: EXACT) { id } } }');
    expect(relationField(selectionOf(p), 'locations').args).toEqual({
      name: { value: 'Floor', match: 'EXACT' },
      classes: undefined,
      recursive: true,
      maxDepth: undefined,
      medium: undefined,
    });
  });

  it('defaults nameMatch to CONTAINS', () => {
    const p = plan('{ building(siteId: "s") { equipment(name: "ahu") { id } } }');
    expect(relationField(selectionOf(p), 'equipment').args.name).toEqual({ value: 'ahu', match: 'CONTAINS' });
  });
});

describe('aliases', () => {
  it('become separate field plans, each with its own arguments', () => {
    const p = plan(`{
      equipment(siteId: "s") {
        temps: points(is: "Temperature_Sensor") { id }
        setpoints: points(name: "SP", nameMatch: EXACT) { name }
      }
    }`);
    const fields = printSelection(selectionOf(p)).fields;
    expect(fields).toEqual([
      {
        key: 'temps',
        relation: 'Equipment.points',
        args: { recursive: false, is: 'brick:Temperature_Sensor' },
        selection: { kind: 'Point', attributes: [], fields: [{ key: 'id', scalar: 'id' }] },
      },
      {
        key: 'setpoints',
        relation: 'Equipment.points',
        args: { recursive: false, name: 'EXACT SP' },
        selection: { kind: 'Point', attributes: ['labels'], fields: [{ key: 'name', scalar: 'name' }] },
      },
    ]);
  });

  it('alias scalar fields under their response key', () => {
    const p = plan('{ point(siteId: "s") { pointId: id label: name } }');
    expect(printSelection(selectionOf(p)).fields).toEqual([
      { key: 'pointId', scalar: 'id' },
      { key: 'label', scalar: 'name' },
    ]);
  });

  it('give aliased root fields their own plans and constraints', () => {
    const plans = planDocument(
      ontology,
      '{ ahus: equipment(siteId: "s", is: "AHU") { id } vavs: equipment(siteId: "s", is: "VAV") { id } }',
    );
    expect([...plans.keys()]).toEqual(['ahus', 'vavs']);
    expect(plans.get('ahus')!.constraints.map(printConstraint)).toContainEqual({ type: 'class', is: 'brick:AHU' });
    expect(plans.get('vavs')!.constraints.map(printConstraint)).toContainEqual({ type: 'class', is: 'brick:VAV' });
  });

  it('merge repeated occurrences of one response key into one field with both selections', () => {
    const p = plan('{ equipment(siteId: "s") { points { id } points { name } } }');
    const points = relationField(selectionOf(p), 'points');
    expect(selectionOf(p).fields).toHaveLength(1);
    expect(keys(points.selection)).toEqual(['id', 'name']);
  });
});

describe('fragments', () => {
  it('collects inline fragments on the field type', () => {
    const p = plan('{ equipment(siteId: "s") { id ... on Equipment { name ifcId } } }');
    expect(keys(selectionOf(p))).toEqual(['id', 'name', 'ifcId']);
  });

  it('collects named fragments, nested ones included', () => {
    const p = plan(`
      query { equipment(siteId: "s") { ...Ids points { ...PointFacts } } }
      fragment Ids on Equipment { id name }
      fragment PointFacts on Point { id ...Unit }
      fragment Unit on Point { unit }`);
    expect(keys(selectionOf(p))).toEqual(['id', 'name', 'points']);
    const points = relationField(selectionOf(p), 'points');
    expect(keys(points.selection)).toEqual(['id', 'unit']);
    expect([...points.selection.attributes]).toEqual(['unit']);
  });

  it('plans a KgEntity selection per member type, each with only the fragments on that type', () => {
    const p = plan(`
      query {
        entityByIfcId(siteId: "s", ifcId: "abc") {
          __typename
          ... on Equipment { id points { id } }
          ...Place
          ... on KgEntity { ... on Zone { name } }
        }
      }
      fragment Place on Location { name ifcId }`);
    expect(p.kind).toBeUndefined();
    const union = printUnion(unionOf(p));
    expect(Object.keys(union).sort()).toEqual(['Building', 'Equipment', 'Location', 'System', 'Zone']);
    const typename = { key: '__typename', typename: true };
    expect(union.Building).toEqual({ kind: 'Building', attributes: [], fields: [typename] });
    expect(union.System).toEqual({ kind: 'System', attributes: [], fields: [typename] });
    expect(union.Zone).toEqual({
      kind: 'Zone',
      attributes: ['labels'],
      fields: [typename, { key: 'name', scalar: 'name' }],
    });
    expect(union.Location).toEqual({
      kind: 'Location',
      attributes: ['ifc', 'labels'],
      fields: [typename, { key: 'name', scalar: 'name' }, { key: 'ifcId', scalar: 'ifcId' }],
    });
    expect(union.Equipment!.fields.map((f) => f.key)).toEqual(['__typename', 'id', 'points']);
  });

  it('applies a fragment on the KgEntity union to every member type', () => {
    const p = plan(
      '{ entityByIfcId(siteId: "s", ifcId: "abc") { ... on KgEntity { ... on Building { id } ... on System { id } } } }',
    );
    const union = printUnion(unionOf(p));
    expect(union.Building!.fields).toEqual([{ key: 'id', scalar: 'id' }]);
    expect(union.System!.fields).toEqual([{ key: 'id', scalar: 'id' }]);
    expect(union.Equipment!.fields).toEqual([]);
  });
});

describe('@skip and @include', () => {
  const source = `query ($withPoints: Boolean!, $hideName: Boolean!) {
    equipment(siteId: "s") { id name @skip(if: $hideName) points @include(if: $withPoints) { id } }
  }`;

  it('drops fields whose @include is false and whose @skip is true', () => {
    expect(keys(selectionOf(plan(source, { withPoints: false, hideName: true })))).toEqual(['id']);
  });

  it('keeps fields whose @include is true and whose @skip is false', () => {
    expect(keys(selectionOf(plan(source, { withPoints: true, hideName: false })))).toEqual(['id', 'name', 'points']);
  });

  it('honours the directives on fragment spreads and inline fragments', () => {
    const p = plan(
      `query ($on: Boolean!) {
        point(siteId: "s") { id ...Unit @include(if: $on) ... @skip(if: $on) { name } }
      }
      fragment Unit on Point { unit }`,
      { on: true },
    );
    expect(keys(selectionOf(p))).toEqual(['id', 'unit']);
  });

  it('does not request an attribute for a skipped field', () => {
    const p = plan('query ($no: Boolean!) { point(siteId: "s") { id ts: timeseriesId @include(if: $no) } }', {
      no: false,
    });
    expect([...selectionOf(p).attributes]).toEqual([]);
  });
});

describe('is', () => {
  it('resolves a Brick local name to a closure containing its equivalents and subclasses', () => {
    const p = plan('{ equipment(siteId: "s", is: "AHU") { id } }');
    const constraint = p.constraints.find((c) => c.type === 'class');
    expect(constraint?.type === 'class' && constraint.classes.iri).toBe(`${BRICK}AHU`);
    const closure = constraint?.type === 'class' ? constraint.classes.closure : [];
    expect(closure).toContain(`${BRICK}AHU`);
    expect(closure).toContain(`${BRICK}Air_Handling_Unit`);
    expect(closure).toContain(`${BRICK}DOAS`);
    expect(closure).not.toContain(`${BRICK}VAV`);
    expect([...closure]).toEqual([...closure].sort());
  });

  it('resolves relation arguments the same way', () => {
    const p = plan('{ equipment(siteId: "s") { points(is: "Temperature_Sensor") { id } } }');
    const { classes } = relationField(selectionOf(p), 'points').args;
    expect(classes?.iri).toBe(`${BRICK}Temperature_Sensor`);
    expect(classes?.closure).toContain(`${BRICK}Air_Temperature_Sensor`);
    expect(classes?.closure).not.toContain(`${BRICK}Humidity_Sensor`);
  });

  it('accepts a prefixed name and a full IRI', () => {
    const rec = plan('{ building(siteId: "s") { locations(is: "rec:Room") { id } } }');
    expect(relationField(selectionOf(rec), 'locations').args.classes?.iri).toBe(`${REC}Room`);
    const full = plan(`{ equipment(siteId: "s", is: "${BRICK}VAV") { id } }`);
    expect(full.constraints.map(printConstraint)).toContainEqual({ type: 'class', is: 'brick:VAV' });
  });

  it('resolves equipmentIs to an equipmentClass constraint', () => {
    const p = plan('{ point(siteId: "s", equipmentIs: "VAV") { id } }');
    const constraint = p.constraints.find((c) => c.type === 'equipmentClass');
    expect(constraint?.type === 'equipmentClass' && constraint.classes.closure).toContain(`${BRICK}RVAV`);
  });
});

describe('unknown class', () => {
  it('is an UNKNOWN_CLASS error naming the argument, with suggestions', () => {
    const error = planningError('{ equipment(siteId: "s", is: "Air_Handlng_Unit") { id } }');
    expect(error.code).toBe('UNKNOWN_CLASS');
    expect(error.status).toBe(400);
    expect(error.message).toContain('"Air_Handlng_Unit"');
    expect(error.message).toContain('"is"');
    expect(error.message).toContain('Air_Handling_Unit');
    expect(error.details).toMatchObject({ argument: 'is' });
    expect(error.details?.suggestions).toContain('Air_Handling_Unit');
  });

  it('names equipmentIs when that argument is unknown', () => {
    const error = planningError('{ point(siteId: "s", equipmentIs: "VAVV") { id } }');
    expect(error.code).toBe('UNKNOWN_CLASS');
    expect(error.details).toMatchObject({ argument: 'equipmentIs' });
    expect(error.details?.suggestions).toContain('VAV');
  });

  it('is raised for a relation argument too', () => {
    const error = planningError('{ equipment(siteId: "s") { points(is: "Temprature_Sensor") { id } } }');
    expect(error.code).toBe('UNKNOWN_CLASS');
    expect(error.details).toMatchObject({ argument: 'is' });
  });

  it('is raised for an empty class name', () => {
    expect(planningError('{ equipment(siteId: "s", is: "") { id } }').code).toBe('UNKNOWN_CLASS');
  });
});

describe('medium', () => {
  it('resolves a medium, in any case, to its substance', () => {
    const p = plan('{ equipment(siteId: "s") { upstream(medium: "chilled_water") { id } } }');
    expect(relationField(selectionOf(p), 'upstream').args.medium).toBe(`${BRICK}Chilled_Water`);
  });

  it('is an UNKNOWN_MEDIUM error for an unknown value, listing the allowed ones', () => {
    const error = planningError('{ zone(siteId: "s") { upstream(medium: "LAVA") { id } } }');
    expect(error.code).toBe('UNKNOWN_MEDIUM');
    expect(error.details).toMatchObject({ argument: 'medium' });
    expect(error.details?.allowed).toContain('HOT_WATER');
  });
});

describe('maxDepth', () => {
  it.each([0, -1])('rejects %i with BAD_USER_INPUT', (depth) => {
    const error = planningError(`{ equipment(siteId: "s") { downstream(maxDepth: ${depth}) { id } } }`);
    expect(error.code).toBe('BAD_USER_INPUT');
    expect(error.details).toMatchObject({ argument: 'maxDepth' });
  });

  it('rejects a bad value passed as a variable', () => {
    expect(
      planningError('query ($d: Int) { equipment(siteId: "s") { upstream(maxDepth: $d) { id } } }', { d: 0 }).code,
    ).toBe('BAD_USER_INPUT');
  });

  it('keeps 1 and leaves an absent bound undefined', () => {
    const p = plan('{ equipment(siteId: "s") { one: downstream(maxDepth: 1) { id } all: downstream { id } } }');
    expect(relationField(selectionOf(p), 'one').args.maxDepth).toBe(1);
    expect(relationField(selectionOf(p), 'all').args.maxDepth).toBeUndefined();
  });
});

describe('attributes', () => {
  const attributesFor = (fields: string) =>
    [...selectionOf(plan(`{ point(siteId: "s") { ${fields} } }`)).attributes].sort();

  it('requests none for fields built from the IRI and types, and the labels for the name alone', () => {
    expect(attributesFor('uri id type typeHierarchy')).toEqual([]);
    expect(attributesFor('uri id name type typeHierarchy')).toEqual(['labels']);
  });

  it.each([
    ['ifcId', 'equipment', 'ifc'],
    ['currentValue { value }', 'point', 'timeseries'],
    ['timeseriesId', 'point', 'timeseries'],
    ['equipmentId', 'point', 'owner'],
    ['unit', 'point', 'unit'],
    ['writable', 'point', 'literals'],
    ['valueType', 'point', 'literals'],
  ])('%s on %s requests %s', (field, query, attribute) => {
    const p = plan(`{ ${query}(siteId: "s") { id ${field} } }`);
    expect([...selectionOf(p).attributes]).toEqual([attribute]);
  });

  it('collects each attribute once', () => {
    expect(attributesFor('currentValue { value } timeseriesId writable valueType')).toEqual(['literals', 'timeseries']);
  });

  it('keeps a child selection’s attributes on the child, not the parent', () => {
    const p = plan('{ equipment(siteId: "s") { id points { currentValue { value } equipmentId } } }');
    expect([...selectionOf(p).attributes]).toEqual([]);
    expect([...relationField(selectionOf(p), 'points').selection.attributes].sort()).toEqual(['owner', 'timeseries']);
  });

  it('does not request facts for properties (they have their own query)', () => {
    expect(attributesFor('properties { name }')).toEqual([]);
  });
});

describe('root constraints', () => {
  const constraintsOf = (source: string) =>
    plan(source)
      .constraints.map(printConstraint)
      .filter((c) => c.type !== 'kind');

  it('start with the kind of the root query', () => {
    const p = plan('{ zone(siteId: "s") { id } }');
    expect(p.constraints.map(printConstraint)).toEqual([
      { type: 'kind', kind: 'Zone', classes: ontology.kindClasses('Zone').size },
    ]);
    const kind = p.constraints[0];
    expect(kind?.type === 'kind' && kind.classes).toContain(`${BRICK}HVAC_Zone`);
  });

  it('maps id, name and nameMatch', () => {
    expect(constraintsOf('{ building(siteId: "s", id: "B1", name: "Main", nameMatch: EXACT) { id } }')).toEqual([
      { type: 'id', id: 'B1' },
      { type: 'name', name: { value: 'Main', match: 'EXACT' } },
    ]);
  });

  it('maps locationId to inLocation by id, and locationName to inLocation by name', () => {
    expect(constraintsOf('{ equipment(siteId: "s", locationId: "Floor1") { id } }')).toEqual([
      { type: 'inLocation', location: { id: 'Floor1' } },
    ]);
    expect(constraintsOf('{ equipment(siteId: "s", locationName: "Floor") { id } }')).toEqual([
      { type: 'inLocation', location: { name: { value: 'Floor', match: 'CONTAINS' } } },
    ]);
  });

  it('gives inLocation the Location kind classes to find the location among', () => {
    const c = plan('{ zone(siteId: "s", locationId: "Floor1") { id } }').constraints.find(
      (x) => x.type === 'inLocation',
    );
    expect(c?.type === 'inLocation' && c.locationClasses).toEqual([...ontology.kindClasses('Location')].sort());
  });

  it('maps systemId to inSystem and is to class', () => {
    expect(constraintsOf('{ equipment(siteId: "s", systemId: "HW", is: "Pump") { id } }')).toEqual([
      { type: 'class', is: 'brick:Pump' },
      { type: 'inSystem', system: { id: 'HW' } },
    ]);
  });

  it('maps the point arguments: equipmentId, equipmentIs, zoneId', () => {
    expect(
      constraintsOf('{ point(siteId: "s", equipmentId: "VAV1", equipmentIs: "VAV", zoneId: "Z1") { id } }'),
    ).toEqual([
      { type: 'ofEquipment', equipment: { id: 'VAV1' } },
      { type: 'equipmentClass', is: 'brick:VAV' },
      { type: 'ofZone', zone: { id: 'Z1' } },
    ]);
  });

  it('maps hasProperty and propertyValue to one property constraint, either alone or both', () => {
    expect(constraintsOf('{ system(siteId: "s", hasProperty: "area") { id } }')).toEqual([
      { type: 'property', name: { localName: 'area' }, value: undefined },
    ]);
    expect(constraintsOf('{ system(siteId: "s", propertyValue: "42") { id } }')).toEqual([
      { type: 'property', name: undefined, value: '42' },
    ]);
    expect(constraintsOf('{ zone(siteId: "s", hasProperty: "area", propertyValue: "42") { id } }')).toEqual([
      { type: 'property', name: { localName: 'area' }, value: '42' },
    ]);
  });

  it('reads hasProperty as a predicate IRI when it is one (full, or prefixed with a known prefix), else as a local name', () => {
    const nameOf = (text: string) =>
      (constraintsOf(`{ zone(siteId: "s", hasProperty: ${JSON.stringify(text)}) { id } }`)[0] as { name: unknown })
        .name;
    expect(nameOf('https://example.org/f#area')).toEqual({ iri: 'https://example.org/f#area' });
    expect(nameOf('brick:area')).toEqual({ iri: 'https://brickschema.org/schema/Brick#area' });
    expect(nameOf('ex:area')).toEqual({ iri: 'ex:area' });
    expect(nameOf('brick:area with spaces')).toEqual({ localName: 'brick:area with spaces' });
  });

  it('reads location’s locationId as the id of the location itself', () => {
    expect(constraintsOf('{ location(siteId: "s", locationId: "Room_101") { id } }')).toEqual([
      { type: 'id', id: 'Room_101' },
    ]);
  });

  it('gives entityByIfcId only the ifcId constraint, with no kind', () => {
    expect(plan('{ entityByIfcId(siteId: "s", ifcId: "3vB2YO$MX4xv5uCqZZG05x") { __typename } }').constraints).toEqual([
      { type: 'ifcId', ifcId: '3vB2YO$MX4xv5uCqZZG05x' },
    ]);
  });

  it('combines every point argument in one plan', () => {
    const types =
      plan(`{ point(siteId: "s", id: "T1", name: "temp", equipmentId: "VAV1", locationId: "F1", zoneId: "Z1",
      systemId: "AIR", is: "Sensor", equipmentIs: "VAV", hasProperty: "p", propertyValue: "v") { id } }`).constraints.map(
        (c) => c.type,
      );
    expect(types).toEqual([
      'kind',
      'id',
      'name',
      'class',
      'inLocation',
      'ofEquipment',
      'equipmentClass',
      'ofZone',
      'inSystem',
      'property',
    ]);
  });

  it('reads arguments from variables', () => {
    const p = plan('query ($loc: String, $is: String) { equipment(siteId: "s", locationId: $loc, is: $is) { id } }', {
      loc: 'F2',
      is: 'Fan',
    });
    expect(p.constraints.map(printConstraint).filter((c) => c.type !== 'kind')).toEqual([
      { type: 'class', is: 'brick:Fan' },
      { type: 'inLocation', location: { id: 'F2' } },
    ]);
  });
});

// Field plans carry no GraphQL syntax: a plan survives a JSON round trip once sets and maps are printed.
describe('printable plan', () => {
  it('contains no GraphQL AST nodes', () => {
    const p = plan('{ equipment(siteId: "s") { id points(is: "Sensor") { id } } }');
    const printed = JSON.stringify(printPlan(p));
    expect(printed).not.toContain('"loc"');
    expect(printed).not.toContain('"kind":"Field"');
    const relation: FieldPlan | undefined = selectionOf(p).fields[1];
    expect(relation && Object.keys(relation).sort()).toEqual(['args', 'key', 'relation', 'selection', 'type']);
  });
});
