// Acceptance tests for equipment (docs/brick-mapping.md, "Rule by rule",
// "Output substances") on fixtures/small/equipment.ttl.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, names, smallFixture } from '../../support/graphql-suite.ts';

const { ok } = graphqlSuite({ eq: smallFixture('equipment') });

/** Root equipment names matching `args`. */
async function equipment(args = ''): Promise<string[]> {
  const data = await ok(`{ equipment(siteId: "eq"${args ? `, ${args}` : ''}) { name } }`);
  return names(data.equipment);
}

/** One equipment's field `field`, selected with `args`, as sorted names. */
async function of(id: string, field: string, args = ''): Promise<string[]> {
  const sel = args ? `${field}(${args})` : field;
  const data = await ok(`{ equipment(siteId: "eq", id: "${id}") { ${sel} { name } } }`);
  expect(data.equipment).toHaveLength(1);
  return names(data.equipment[0][field]);
}

/** Zone 1's field `field`, selected with `args`, as sorted names. */
async function ofZone(field: string, args = ''): Promise<string[]> {
  const sel = args ? `${field}(${args})` : field;
  const data = await ok(`{ zone(siteId: "eq", id: "Zone1") { ${sel} { name } } }`);
  expect(data.zone).toHaveLength(1);
  return names(data.zone[0][field]);
}

const HVAC = [
  'AHU-1',
  'AHU-1 Cooling Coil',
  'AHU-1 Return Fan',
  'AHU-1 Supply Fan',
  'AHU-2',
  'Boiler-1',
  'CHW Pump-1',
  'Chiller-1',
  'Cycle A',
  'Cycle B',
  'Cycle C',
  'HW Pump-1',
  'HX-1',
  'RTU-1',
  'VAV-1',
  'VAV-2',
  'VAV-3',
];

describe('equipment', () => {
  it('lists every equipment of the site and nothing else (no locations, zones, systems or points)', async () => {
    expect(await equipment()).toEqual([...HVAC, 'Gizmo'].sort());
  });

  it('returns uri, id, name, type and typeHierarchy', async () => {
    const data = await ok('{ equipment(siteId: "eq", id: "AHU1") { uri id name type typeHierarchy ifcId } }');
    expect(data.equipment).toEqual([
      {
        uri: 'https://example.org/f#AHU1',
        id: 'AHU1',
        name: 'AHU-1',
        type: 'AHU',
        typeHierarchy: ['AHU', 'HVAC_Equipment', 'Equipment'],
        ifcId: null,
      },
    ]);
  });

  it('finds equipment by full IRI', async () => {
    expect(await equipment('id: "https://example.org/f#AHU2"')).toEqual(['AHU-2']);
  });

  it('returns an empty list for an unknown id', async () => {
    expect(await equipment('id: "Nothing"')).toEqual([]);
  });

  it('matches name CONTAINS case-insensitively by default and EXACT on request', async () => {
    expect(await equipment('name: "ahu-1"')).toEqual([
      'AHU-1',
      'AHU-1 Cooling Coil',
      'AHU-1 Return Fan',
      'AHU-1 Supply Fan',
    ]);
    expect(await equipment('name: "AHU-1", nameMatch: CONTAINS')).toHaveLength(4);
    expect(await equipment('name: "AHU-1", nameMatch: EXACT')).toEqual(['AHU-1']);
    expect(await equipment('name: "ahu-1", nameMatch: EXACT')).toEqual([]);
  });

  it('matches locationId for equipment located there or below', async () => {
    expect(await equipment('locationId: "Plant"')).toEqual(['AHU-1 Return Fan', 'CHW Pump-1', 'Chiller-1']);
    expect(await equipment('locationId: "L1"')).toEqual(['VAV-1']);
  });

  it('matches systemId for members of the system, stated either way', async () => {
    expect(await equipment('systemId: "CHWS"')).toEqual(['CHW Pump-1', 'Chiller-1']);
    expect(await equipment('systemId: "AirSys1"')).toEqual(['AHU-1']);
    expect(await equipment('systemId: "https://example.org/f#CHWS", is: "Pump"')).toEqual(['CHW Pump-1']);
  });
});

describe('equipment(is:)', () => {
  const AHUS = ['AHU-1', 'AHU-2', 'RTU-1'];

  it('matches AHU and Air_Handling_Unit instances with either name', async () => {
    expect(await equipment('is: "AHU"')).toEqual(AHUS);
    expect(await equipment('is: "Air_Handling_Unit"')).toEqual(AHUS);
  });

  it('accepts a prefixed name and a full IRI', async () => {
    expect(await equipment('is: "brick:AHU"')).toEqual(AHUS);
    expect(await equipment('is: "https://brickschema.org/schema/Brick#Air_Handling_Unit"')).toEqual(AHUS);
  });

  it('matches subclasses of equivalent classes (RTU is a Rooftop_Unit, a kind of Air_Handling_Unit)', async () => {
    expect(await equipment('is: "Rooftop_Unit"')).toEqual(['RTU-1']);
  });

  it('matches subclasses of HVAC_Equipment', async () => {
    expect(await equipment('is: "HVAC_Equipment"')).toEqual(HVAC);
  });

  it('matches VAV and Variable_Air_Volume_Box alike', async () => {
    expect(await equipment('is: "VAV"')).toEqual(['VAV-1', 'VAV-2', 'VAV-3']);
    expect(await equipment('is: "Variable_Air_Volume_Box"')).toEqual(['VAV-1', 'VAV-2', 'VAV-3']);
    expect(await equipment('is: "Terminal_Unit"')).toEqual(['VAV-1', 'VAV-2', 'VAV-3']);
  });

  it('matches every kind of fan', async () => {
    expect(await equipment('is: "Fan"')).toEqual([
      'AHU-1 Return Fan',
      'AHU-1 Supply Fan',
      'Cycle A',
      'Cycle B',
      'Cycle C',
    ]);
  });

  it('combines with name', async () => {
    expect(await equipment('is: "Fan", name: "cycle"')).toEqual(['Cycle A', 'Cycle B', 'Cycle C']);
  });
});

describe('equipment outside the ontology', () => {
  it('appears as Equipment with its asserted class as type when it has points', async () => {
    const data = await ok('{ equipment(siteId: "eq", name: "Gizmo") { id type points { name } } }');
    expect(data.equipment).toEqual([{ id: 'Gizmo', type: 'CustomThing', points: [{ name: 'Gizmo Temp' }] }]);
  });

  it('does not appear when it has no points', async () => {
    expect(await equipment('name: "Widget"')).toEqual([]);
  });

  it('is the equipment of its points', async () => {
    const data = await ok('{ point(siteId: "eq", name: "Gizmo Temp") { equipmentId equipment { name } } }');
    expect(data.point).toEqual([{ equipmentId: 'Gizmo', equipment: { name: 'Gizmo' } }]);
  });
});

describe('Equipment.points', () => {
  it('lists points stated by hasPoint and by isPointOf, not those of its parts', async () => {
    expect(await of('AHU1', 'points')).toEqual(['AHU-1 RAT', 'AHU-1 SAT']);
  });

  it('filters by class and name', async () => {
    expect(await of('AHU1', 'points', 'is: "Supply_Air_Temperature_Sensor"')).toEqual(['AHU-1 SAT']);
    expect(await of('AHU1', 'points', 'is: "Temperature_Sensor"')).toEqual(['AHU-1 RAT', 'AHU-1 SAT']);
    expect(await of('AHU1', 'points', 'name: "rat"')).toEqual(['AHU-1 RAT']);
    expect(await of('AHU1', 'points', 'name: "AHU-1", nameMatch: EXACT')).toEqual([]);
  });

  it('is an empty list for equipment without points', async () => {
    expect(await of('VAV3', 'points')).toEqual([]);
  });
});

describe('Equipment.parts and partOf', () => {
  it('lists parts stated by hasPart and by isPartOf', async () => {
    expect(await of('AHU1', 'parts')).toEqual(['AHU-1 Cooling Coil', 'AHU-1 Return Fan', 'AHU-1 Supply Fan']);
  });

  it('filters parts by class and name', async () => {
    expect(await of('AHU1', 'parts', 'is: "Fan"')).toEqual(['AHU-1 Return Fan', 'AHU-1 Supply Fan']);
    expect(await of('AHU1', 'parts', 'name: "FAN"')).toEqual(['AHU-1 Return Fan', 'AHU-1 Supply Fan']);
    expect(await of('AHU1', 'parts', 'name: "AHU-1 Supply Fan", nameMatch: EXACT')).toEqual(['AHU-1 Supply Fan']);
  });

  it('gives the whole from either direction', async () => {
    const data = await ok('{ equipment(siteId: "eq", name: "AHU-1 ") { name partOf { id } } }');
    const byName = Object.fromEntries(data.equipment.map((e: any) => [e.name, e.partOf]));
    expect(byName).toEqual({
      'AHU-1 Cooling Coil': { id: 'AHU1' },
      'AHU-1 Return Fan': { id: 'AHU1' },
      'AHU-1 Supply Fan': { id: 'AHU1' },
    });
  });

  it('is null when the equipment is part of no equipment, even when it is part of a system', async () => {
    const data = await ok('{ equipment(siteId: "eq", id: "AHU1") { partOf { id } } }');
    expect(data.equipment[0].partOf).toBeNull();
  });
});

describe('Equipment.feeds and fedBy', () => {
  it('lists direct downstream equipment stated by feeds and by isFedBy', async () => {
    expect(await of('AHU1', 'feeds')).toEqual(['VAV-1', 'VAV-2']);
  });

  it('lists direct upstream equipment stated by feeds and by isFedBy', async () => {
    expect(await of('AHU1', 'fedBy')).toEqual(['CHW Pump-1', 'HW Pump-1']);
    expect(await of('CHWP1', 'fedBy')).toEqual(['Chiller-1']);
  });

  it('leaves out locations and zones that are fed', async () => {
    expect(await of('VAV1', 'feeds')).toEqual([]);
    expect(await of('VAV2', 'feeds')).toEqual([]);
  });

  it('filters by class and name', async () => {
    expect(await of('AHU1', 'feeds', 'is: "Variable_Air_Volume_Box"')).toEqual(['VAV-1', 'VAV-2']);
    expect(await of('AHU1', 'feeds', 'name: "vav-2"')).toEqual(['VAV-2']);
    expect(await of('AHU1', 'fedBy', 'name: "HW Pump-1", nameMatch: EXACT')).toEqual(['HW Pump-1']);
    expect(await of('AHU1', 'fedBy', 'is: "Chilled_Water_Pump"')).toEqual(['CHW Pump-1']);
  });
});

describe('Equipment.upstream and downstream', () => {
  it('follow feeds transitively, stated either way', async () => {
    expect(await of('AHU1', 'upstream')).toEqual(['Boiler-1', 'CHW Pump-1', 'Chiller-1', 'HW Pump-1']);
    expect(await of('CH1', 'downstream')).toEqual(['AHU-1', 'CHW Pump-1', 'VAV-1', 'VAV-2']);
  });

  it('are empty at the ends of a chain', async () => {
    expect(await of('CH1', 'upstream')).toEqual([]);
    expect(await of('VAV3', 'downstream')).toEqual([]);
  });

  it('stop after maxDepth hops', async () => {
    expect(await of('CH1', 'downstream', 'maxDepth: 1')).toEqual(['CHW Pump-1']);
    expect(await of('CH1', 'downstream', 'maxDepth: 2')).toEqual(['AHU-1', 'CHW Pump-1']);
    expect(await of('CH1', 'downstream', 'maxDepth: 3')).toEqual(['AHU-1', 'CHW Pump-1', 'VAV-1', 'VAV-2']);
    expect(await of('VAV1', 'upstream', 'maxDepth: 1')).toEqual(['AHU-1']);
  });

  it('filter the result by class without cutting the chain', async () => {
    expect(await of('CH1', 'downstream', 'is: "VAV"')).toEqual(['VAV-1', 'VAV-2']);
    expect(await of('VAV1', 'upstream', 'is: "Chiller"')).toEqual(['Chiller-1']);
    expect(await of('VAV1', 'upstream', 'is: "Pump", maxDepth: 2')).toEqual(['CHW Pump-1', 'HW Pump-1']);
  });
});

describe('Equipment.upstream and downstream (medium:)', () => {
  it('follow only chilled-water edges for CHILLED_WATER (class default and stated output)', async () => {
    expect(await of('AHU1', 'upstream', 'medium: "CHILLED_WATER"')).toEqual(['CHW Pump-1', 'Chiller-1']);
  });

  it('follow only hot-water edges for HOT_WATER', async () => {
    expect(await of('AHU1', 'upstream', 'medium: "HOT_WATER"')).toEqual(['Boiler-1', 'HW Pump-1']);
  });

  it('take narrower substances for a broader medium', async () => {
    expect(await of('AHU1', 'upstream', 'medium: "WATER"')).toEqual([
      'Boiler-1',
      'CHW Pump-1',
      'Chiller-1',
      'HW Pump-1',
    ]);
  });

  it('take an edge of plain water for a narrower water medium', async () => {
    expect(await of('AHU2', 'upstream', 'medium: "HOT_WATER"')).toEqual(['HX-1']);
    expect(await of('AHU2', 'upstream', 'medium: "CHILLED_WATER"')).toEqual(['HX-1']);
  });

  it('stop at the first edge that carries another medium', async () => {
    expect(await of('CH1', 'downstream', 'medium: "CHILLED_WATER"')).toEqual(['AHU-1', 'CHW Pump-1']);
    expect(await of('CH1', 'downstream', 'medium: "AIR"')).toEqual([]);
    expect(await of('VAV3', 'upstream', 'medium: "AIR"')).toEqual(['AHU-2']);
    expect(await of('AHU1', 'upstream', 'medium: "AIR"')).toEqual([]);
  });

  it('follow air edges from air handlers', async () => {
    expect(await of('AHU1', 'downstream', 'medium: "AIR"')).toEqual(['VAV-1', 'VAV-2']);
  });

  it('accept the medium in any case', async () => {
    expect(await of('AHU1', 'upstream', 'medium: "chilled_water"')).toEqual(['CHW Pump-1', 'Chiller-1']);
  });

  it('combine medium, maxDepth and is', async () => {
    expect(await of('AHU1', 'upstream', 'medium: "CHILLED_WATER", maxDepth: 1')).toEqual(['CHW Pump-1']);
    expect(await of('AHU1', 'upstream', 'medium: "WATER", is: "Boiler"')).toEqual(['Boiler-1']);
  });
});

describe('feeds cycles', () => {
  it('list each member of a cycle once and do not list the start', async () => {
    expect(await of('CycA', 'downstream')).toEqual(['Cycle B', 'Cycle C']);
    expect(await of('CycA', 'upstream')).toEqual(['Cycle B', 'Cycle C']);
    expect(await of('CycB', 'downstream', 'maxDepth: 10')).toEqual(['Cycle A', 'Cycle C']);
  });

  it('give direct neighbours in a cycle', async () => {
    expect(await of('CycA', 'feeds')).toEqual(['Cycle B']);
    expect(await of('CycA', 'fedBy')).toEqual(['Cycle C']);
  });
});

describe('Equipment.location', () => {
  const locationOf = async (id: string) =>
    (await ok(`{ equipment(siteId: "eq", id: "${id}") { location { id name } } }`)).equipment[0].location;

  it("is the equipment's own location", async () => {
    expect(await locationOf('AHU1')).toEqual({ id: 'Roof', name: 'Roof' });
    expect(await locationOf('VAV1')).toEqual({ id: 'Office', name: 'Office' });
  });

  it('falls back to the location of the equipment it is part of', async () => {
    expect(await locationOf('AHU1_SF')).toEqual({ id: 'Roof', name: 'Roof' });
  });

  it("prefers a part's own location to its whole's", async () => {
    expect(await locationOf('AHU1_RF')).toEqual({ id: 'Plant', name: 'Plant Room' });
  });

  it('is null when neither is stated', async () => {
    expect(await locationOf('VAV3')).toBeNull();
  });
});

describe('Equipment.systems', () => {
  it('lists systems that have the equipment as a part, stated either way', async () => {
    expect(await of('CH1', 'systems')).toEqual(['Chilled Water System']);
    expect(await of('AHU1', 'systems')).toEqual(['Air System 1']);
  });

  it('is an empty list for equipment in no system', async () => {
    expect(await of('VAV3', 'systems')).toEqual([]);
  });
});

describe('Zone.fedBy and upstream', () => {
  it('fedBy lists equipment feeding the zone or one of its rooms', async () => {
    expect(await ofZone('fedBy')).toEqual(['VAV-1', 'VAV-2']);
  });

  it('fedBy filters by class and name', async () => {
    expect(await ofZone('fedBy', 'name: "VAV-1", nameMatch: EXACT')).toEqual(['VAV-1']);
    expect(await ofZone('fedBy', 'is: "Variable_Air_Volume_Box"')).toEqual(['VAV-1', 'VAV-2']);
    expect(await ofZone('fedBy', 'is: "AHU"')).toEqual([]);
  });

  it('upstream follows the chain from the zone', async () => {
    expect(await ofZone('upstream')).toEqual([
      'AHU-1',
      'Boiler-1',
      'CHW Pump-1',
      'Chiller-1',
      'HW Pump-1',
      'VAV-1',
      'VAV-2',
    ]);
  });

  it('upstream honours maxDepth, medium and is', async () => {
    expect(await ofZone('upstream', 'maxDepth: 1')).toEqual(['VAV-1', 'VAV-2']);
    expect(await ofZone('upstream', 'maxDepth: 2')).toEqual(['AHU-1', 'VAV-1', 'VAV-2']);
    expect(await ofZone('upstream', 'medium: "AIR"')).toEqual(['AHU-1', 'VAV-1', 'VAV-2']);
    expect(await ofZone('upstream', 'medium: "CHILLED_WATER"')).toEqual([]);
    expect(await ofZone('upstream', 'is: "AHU"')).toEqual(['AHU-1']);
  });

  it("Zone.locations lists the zone's rooms", async () => {
    expect(await ofZone('locations')).toEqual(['Office']);
  });
});
