// Acceptance tests for systems (docs/brick-mapping.md, "System members", "Collections as systems") on
// fixtures/small/systems.ttl.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, names, smallFixture } from '../../support/graphql-suite.ts';

const { ok } = graphqlSuite({ sys: smallFixture('systems') });

/** Root system names matching `args`. */
async function systems(args = ''): Promise<string[]> {
  const data = await ok(`{ system(siteId: "sys"${args ? `, ${args}` : ''}) { name } }`);
  return names(data.system);
}

/** The field `field` (with `args`) of the system named exactly `name`, as sorted names. */
async function of(name: string, field: string, args = ''): Promise<string[]> {
  const sel = args ? `${field}(${args})` : field;
  const data = await ok(`{ system(siteId: "sys", name: "${name}", nameMatch: EXACT) { ${sel} { name } } }`);
  expect(data.system).toHaveLength(1);
  return names(data.system[0][field]);
}

/** The building's `systems` field with `args`, as sorted names. */
async function buildingSystems(args = ''): Promise<string[]> {
  const data = await ok(`{ building(siteId: "sys") { systems${args ? `(${args})` : ''} { name } } }`);
  return names(data.building[0].systems);
}

describe('system', () => {
  it('lists every system of the site', async () => {
    expect(await systems()).toEqual(['Air System', 'Chilled Water System', 'HVAC', 'Lighting']);
  });

  it('returns uri, id, name and type', async () => {
    const data = await ok('{ system(siteId: "sys", name: "Chilled", nameMatch: CONTAINS) { uri id name type ifcId } }');
    expect(data.system).toEqual([
      {
        uri: 'https://example.org/f#CHWS',
        id: 'CHWS',
        name: 'Chilled Water System',
        type: 'Chilled_Water_System',
        ifcId: null,
      },
    ]);
  });

  it('filters by name', async () => {
    expect(await systems('name: "system"')).toEqual(['Air System', 'Chilled Water System']);
    expect(await systems('name: "HVAC", nameMatch: EXACT')).toEqual(['HVAC']);
    expect(await systems('name: "hvac", nameMatch: EXACT')).toEqual([]);
  });

  it('filters by class including subclasses of equivalent classes', async () => {
    expect(await systems('is: "Water_System"')).toEqual(['Chilled Water System']);
    expect(await systems('is: "HVAC_System"')).toEqual(['Air System', 'Chilled Water System', 'HVAC']);
    expect(await systems('is: "Lighting_System"')).toEqual(['Lighting']);
  });
});

describe('System.equipment', () => {
  it('lists direct members stated by hasPart or isPartOf, not sub-systems', async () => {
    expect(await of('Chilled Water System', 'equipment')).toEqual(['CHW Pump-1', 'Chiller-1']);
    expect(await of('HVAC', 'equipment')).toEqual(['Plant Meter']);
    expect(await of('HVAC', 'equipment', 'recursive: false')).toEqual(['Plant Meter']);
  });

  it("adds sub-systems' members and equipment parts with recursive", async () => {
    expect(await of('HVAC', 'equipment', 'recursive: true')).toEqual([
      'AHU-1',
      'AHU-1 Supply Fan',
      'CHW Pump-1',
      'Chiller-1',
      'Plant Meter',
    ]);
    expect(await of('Air System', 'equipment', 'recursive: true')).toEqual(['AHU-1', 'AHU-1 Supply Fan']);
  });

  it('filters by class and name', async () => {
    expect(await of('HVAC', 'equipment', 'recursive: true, is: "Pump"')).toEqual(['CHW Pump-1']);
    expect(await of('HVAC', 'equipment', 'recursive: true, name: "chiller"')).toEqual(['Chiller-1']);
    expect(await of('HVAC', 'equipment', 'recursive: true, name: "AHU-1", nameMatch: EXACT')).toEqual(['AHU-1']);
  });
});

describe('System.points', () => {
  it('lists points of the system itself and of its direct members', async () => {
    expect(await of('Chilled Water System', 'points')).toEqual([
      'CHW Pump-1 Run Status',
      'CHW System Enable',
      'Chiller-1 CHWST',
    ]);
    expect(await of('HVAC', 'points')).toEqual(['HVAC Mode', 'Plant Meter Power']);
    expect(await of('Air System', 'points')).toEqual(['AHU-1 SAT']);
  });

  it('adds points of sub-systems, their members and equipment parts with recursive', async () => {
    expect(await of('HVAC', 'points', 'recursive: true')).toEqual([
      'AHU-1 SAT',
      'AHU-1 SF Status',
      'CHW Pump-1 Run Status',
      'CHW System Enable',
      'Chiller-1 CHWST',
      'HVAC Mode',
      'Plant Meter Power',
    ]);
    expect(await of('Air System', 'points', 'recursive: true')).toEqual(['AHU-1 SAT', 'AHU-1 SF Status']);
  });

  it('filters by class and name', async () => {
    expect(await of('HVAC', 'points', 'recursive: true, is: "Temperature_Sensor"')).toEqual([
      'AHU-1 SAT',
      'Chiller-1 CHWST',
    ]);
    expect(await of('HVAC', 'points', 'recursive: true, name: "status"')).toEqual([
      'AHU-1 SF Status',
      'CHW Pump-1 Run Status',
    ]);
    expect(await of('HVAC', 'points', 'name: "HVAC Mode", nameMatch: EXACT')).toEqual(['HVAC Mode']);
  });
});

describe('Equipment.systems', () => {
  it('lists the systems an equipment is a direct member of', async () => {
    const data = await ok('{ equipment(siteId: "sys") { name systems { name } } }');
    const byName = Object.fromEntries(data.equipment.map((e: any) => [e.name, names(e.systems)]));
    expect(byName).toEqual({
      'AHU-1': ['Air System'],
      'AHU-1 Supply Fan': [],
      'CHW Pump-1': ['Chilled Water System'],
      'Chiller-1': ['Chilled Water System'],
      'Luminaire-1': ['Lighting'],
      'Plant Meter': ['HVAC'],
    });
  });
});

describe('Building.systems', () => {
  it('lists systems with a member located on the building itself by default', async () => {
    expect(await buildingSystems()).toEqual(['Lighting']);
  });

  it('lists systems with a member anywhere in the building with recursive', async () => {
    expect(await buildingSystems('recursive: true')).toEqual([
      'Air System',
      'Chilled Water System',
      'HVAC',
      'Lighting',
    ]);
  });

  it('filters by class and name', async () => {
    expect(await buildingSystems('recursive: true, is: "Water_System"')).toEqual(['Chilled Water System']);
    expect(await buildingSystems('recursive: true, name: "light"')).toEqual(['Lighting']);
    expect(await buildingSystems('recursive: true, name: "Air", nameMatch: EXACT')).toEqual([]);
  });
});

describe('systemId filters', () => {
  it('equipment(systemId:) takes the members of the system', async () => {
    const data = await ok('{ equipment(siteId: "sys", systemId: "CHWS") { name } }');
    expect(names(data.equipment)).toEqual(['CHW Pump-1', 'Chiller-1']);
  });

  it('point(systemId:) takes points of the members and of the system itself', async () => {
    const data = await ok('{ point(siteId: "sys", systemId: "https://example.org/f#CHWS") { name } }');
    expect(names(data.point)).toEqual(['CHW Pump-1 Run Status', 'CHW System Enable', 'Chiller-1 CHWST']);
  });
  // With an id, the id generates the candidate and the system is checked from it, a different
  // shape from the one that starts at the system (sparql-builder.ts): both must agree, point by point.
  it('point(id:, systemId:) checks the same membership as point(systemId:) finds', async () => {
    const all = (await ok('{ point(siteId: "sys") { id } }')).point.map((p: { id: string }) => p.id);
    for (const system of ['HVAC', 'CHWS', 'AirSys', 'Lighting']) {
      const found = (await ok(`{ point(siteId: "sys", systemId: "${system}") { id } }`)).point
        .map((p: { id: string }) => p.id)
        .sort();
      const checked: string[] = [];
      for (const id of all) {
        const data = await ok(`{ point(siteId: "sys", id: "${id}", systemId: "${system}") { id } }`);
        checked.push(...data.point.map((p: { id: string }) => p.id));
      }
      expect(checked.sort(), system).toEqual(found);
    }
    // The HVAC system's own point and its meter's, not the chilled water sub-system's.
    expect(
      (await ok('{ point(siteId: "sys", systemId: "HVAC") { name } }')).point.map((p: { name: string }) => p.name),
    ).toContain('HVAC Mode');
    expect((await ok('{ point(siteId: "sys", id: "CHWS_Enable", systemId: "HVAC") { name } }')).point).toEqual([]);
  });
});
