// Acceptance tests for names, types and properties (docs/brick-mapping.md,
// "Names", `type`, "Property values") on fixtures/small/labels-props.ttl.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, names, smallFixture } from '../../support/graphql-suite.ts';

const byPropertyName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

const { ok } = graphqlSuite({ lp: smallFixture('labels-props') });

/** Names returned by the root list query `root` with `args`. */
async function list(root: string, args = ''): Promise<string[]> {
  const data = await ok(`{ ${root}(siteId: "lp"${args ? `, ${args}` : ''}) { name } }`);
  return names(data[root]);
}

/** The properties of the single entity the root list query `root` finds with `args`, sorted by name. */
async function properties(root: string, args: string): Promise<unknown[]> {
  const data = await ok(`{ ${root}(siteId: "lp", ${args}) { properties { name value unit } } }`);
  expect(data[root]).toHaveLength(1);
  return [...data[root][0].properties].sort(byPropertyName);
}

const ODD = 'Odd "Quoted" (O\'Brien) 50% a\\b';

describe('name', () => {
  it('is rdfs:label, else skos:prefLabel, else brick:label, else the id', async () => {
    const data = await ok('{ equipment(siteId: "lp", is: "Pump") { id name } }');
    const byId = Object.fromEntries(data.equipment.map((e: any) => [e.id, e.name]));
    expect(byId).toMatchObject({
      P1: 'Primary Pump',
      P2: 'Secondary Pump',
      P3: 'Tertiary Pump',
      Pump_4: 'Pump_4',
    });
  });

  it('follows the same order for points, zones and systems', async () => {
    expect(await list('point')).toEqual(['Mixed Temp', 'Only Brick Label']);
    expect(await list('zone')).toEqual(['North Zone', 'South Zone']);
    expect(await list('system')).toEqual(['Lighting', 'Main HVAC']);
  });

  it('is not matched against labels that lost to a preferred one', async () => {
    expect(await list('equipment', 'name: "Preferred Name Ignored"')).toEqual([]);
    expect(await list('equipment', 'name: "Brick Label Ignored"')).toEqual([]);
  });
});

describe('nameMatch', () => {
  it('CONTAINS is the default and ignores case', async () => {
    expect(await list('equipment', 'name: "PUMP"')).toEqual([
      'CHW Pump',
      'Primary Pump',
      'Pump_4',
      'Secondary Pump',
      'Tertiary Pump',
    ]);
    expect(await list('equipment', 'name: "pump_4", nameMatch: CONTAINS')).toEqual(['Pump_4']);
  });

  it('an explicit null nameMatch matches as the default CONTAINS does', async () => {
    expect(await list('equipment', 'name: "pump_4", nameMatch: null')).toEqual(['Pump_4']);
  });

  it('EXACT is case-sensitive and whole-string', async () => {
    expect(await list('equipment', 'name: "Primary Pump", nameMatch: EXACT')).toEqual(['Primary Pump']);
    expect(await list('equipment', 'name: "primary pump", nameMatch: EXACT')).toEqual([]);
    expect(await list('equipment', 'name: "Primary", nameMatch: EXACT')).toEqual([]);
  });

  it('treats quotes, apostrophes, backslashes and pattern characters literally', async () => {
    const query = 'query ($n: String, $m: NameMatch) { equipment(siteId: "lp", name: $n, nameMatch: $m) { name } }';
    const run = async (n: string, m = 'CONTAINS') => names((await ok(query, { n, m })).equipment);
    expect(await run(ODD, 'EXACT')).toEqual([ODD]);
    expect(await run('"quoted"')).toEqual([ODD]);
    expect(await run("(o'brien)")).toEqual([ODD]);
    expect(await run('50%')).toEqual([ODD]);
    expect(await run('a\\b')).toEqual([ODD]);
    expect(await run('.*')).toEqual([]);
    expect(await run('P.mp')).toEqual([]);
    expect(await run('%')).toEqual([ODD]);
    expect(await run('_4')).toEqual(['Pump_4']);
  });
});

describe('type and typeHierarchy', () => {
  it('type is the most specific asserted class', async () => {
    const data = await ok(`{
      chwp: equipment(siteId: "lp", id: "CHWP") { type typeHierarchy }
      t1: point(siteId: "lp", id: "T1") { type typeHierarchy }
    }`);
    expect(data.chwp).toEqual([
      {
        type: 'Chilled_Water_Pump',
        typeHierarchy: ['Chilled_Water_Pump', 'Water_Pump', 'Pump', 'HVAC_Equipment', 'Equipment'],
      },
    ]);
    expect(data.t1).toEqual([
      {
        type: 'Air_Temperature_Sensor',
        typeHierarchy: ['Air_Temperature_Sensor', 'Temperature_Sensor', 'Sensor', 'Point'],
      },
    ]);
  });

  it('breaks a tie between unrelated asserted classes alphabetically', async () => {
    const data = await ok('{ equipment(siteId: "lp", id: "Twin") { type } }');
    expect(data.equipment).toEqual([{ type: 'AHU' }]);
  });

  it("ends a zone's hierarchy at Zone, through the class Brick 1.4 replaced HVAC_Zone with", async () => {
    // brick:HVAC_Zone is deprecated for rec:HVACZone: the type stays as asserted, the hierarchy is the replacement's.
    const data = await ok('{ zone(siteId: "lp", id: "Zone1") { type typeHierarchy } }');
    expect(data.zone).toEqual([{ type: 'HVAC_Zone', typeHierarchy: ['HVAC_Zone', 'HVACZone', 'Zone'] }]);
  });

  it('gives buildings, locations and systems a type', async () => {
    const data = await ok(`{
      building(siteId: "lp") { type }
      location(siteId: "lp", locationId: "Hall") { type }
      system(siteId: "lp", name: "Main HVAC", nameMatch: EXACT) { type }
    }`);
    expect(data).toEqual({
      building: [{ type: 'Building' }],
      location: { type: 'Room' },
      system: [{ type: 'HVAC_System' }],
    });
  });
});

describe('properties', () => {
  it('lists literal triples other than labels, as predicate local name and lexical form', async () => {
    expect(await properties('equipment', 'id: "P1"')).toEqual([
      { name: 'controllerName', value: 'DDC-7', unit: null },
      { name: 'pointCount', value: '12', unit: null },
      { name: 'virtual', value: 'false', unit: null },
    ]);
    expect(await properties('equipment', 'id: "P2"')).toEqual([{ name: 'serial', value: '12', unit: null }]);
  });

  it('is an empty list when the entity has only labels', async () => {
    expect(await properties('equipment', 'id: "Pump_4"')).toEqual([]);
  });

  it('includes Brick entity properties with their unit', async () => {
    const data = await ok('{ location(siteId: "lp", locationId: "Hall") { properties { name value unit } } }');
    expect([...data.location.properties].sort(byPropertyName)).toEqual([
      { name: 'area', value: '100', unit: 'M2' },
      { name: 'capacity', value: '40', unit: null },
    ]);
    expect(await properties('zone', 'id: "Zone1"')).toEqual([
      { name: 'area', value: '250', unit: 'M2' },
      { name: 'usage', value: 'office', unit: null },
    ]);
  });

  it('gives a Brick entity property’s unit symbol from QUDT’s data', async () => {
    const data = await ok('{ location(siteId: "lp", locationId: "Hall") { properties { name unit unitSymbol } } }');
    expect([...data.location.properties].sort(byPropertyName)).toEqual([
      { name: 'area', unit: 'M2', unitSymbol: 'm²' },
      { name: 'capacity', unit: null, unitSymbol: null },
    ]);
  });

  it('is present on buildings and systems, with typed literals as lexical forms', async () => {
    expect(await properties('building', 'id: "Bldg"')).toEqual([{ name: 'yearBuilt', value: '1998', unit: null }]);
    expect(await properties('system', 'name: "Main HVAC"')).toEqual([
      { name: 'commissioned', value: '2020-01-01', unit: null },
    ]);
  });
});

describe('hasProperty and propertyValue', () => {
  it('hasProperty matches entities that have a property of that name', async () => {
    expect(await list('equipment', 'hasProperty: "controllerName"')).toEqual(['Primary Pump', 'Tertiary Pump']);
    expect(await list('equipment', 'hasProperty: "nothing"')).toEqual([]);
  });

  it('propertyValue alone matches a value of any property, exactly', async () => {
    expect(await list('equipment', 'propertyValue: "12"')).toEqual(['Primary Pump', 'Secondary Pump']);
    expect(await list('equipment', 'propertyValue: "DDC-9"')).toEqual(['Tertiary Pump']);
    expect(await list('equipment', 'propertyValue: "DDC"')).toEqual([]);
  });

  it("with hasProperty, propertyValue matches that property's value only", async () => {
    expect(await list('equipment', 'hasProperty: "pointCount", propertyValue: "12"')).toEqual(['Primary Pump']);
    expect(await list('equipment', 'hasProperty: "serial", propertyValue: "12"')).toEqual(['Secondary Pump']);
    expect(await list('equipment', 'hasProperty: "controllerName", propertyValue: "DDC-7"')).toEqual(['Primary Pump']);
    expect(await list('equipment', 'hasProperty: "pointCount", propertyValue: "DDC-7"')).toEqual([]);
  });

  it("hasProperty takes the predicate's full IRI (or a prefixed name) too, matching that predicate only", async () => {
    expect(await list('equipment', 'hasProperty: "https://example.org/f#controllerName"')).toEqual([
      'Primary Pump',
      'Tertiary Pump',
    ]);
    expect(await list('equipment', 'hasProperty: "https://example.org/f#serial", propertyValue: "12"')).toEqual([
      'Secondary Pump',
    ]);
    expect(await list('equipment', 'hasProperty: "https://example.org/other#controllerName"')).toEqual([]);
    expect(
      await list('zone', 'hasProperty: "https://brickschema.org/schema/Brick#area", propertyValue: "250"'),
    ).toEqual(['North Zone']);
    expect(await list('zone', 'hasProperty: "brick:area"')).toEqual(['North Zone']);
    expect(await list('zone', 'hasProperty: "rec:area"')).toEqual([]);
  });

  it('match Brick entity properties on zones', async () => {
    expect(await list('zone', 'hasProperty: "area"')).toEqual(['North Zone']);
    expect(await list('zone', 'hasProperty: "area", propertyValue: "250"')).toEqual(['North Zone']);
    expect(await list('zone', 'propertyValue: "office"')).toEqual(['North Zone']);
  });

  it('match on systems', async () => {
    expect(await list('system', 'hasProperty: "commissioned"')).toEqual(['Main HVAC']);
    expect(await list('system', 'propertyValue: "2020-01-01"')).toEqual(['Main HVAC']);
  });

  it('combine with is and name', async () => {
    expect(await list('equipment', 'is: "Pump", name: "tertiary", hasProperty: "controllerName"')).toEqual([
      'Tertiary Pump',
    ]);
    expect(await list('equipment', 'is: "AHU", hasProperty: "controllerName"')).toEqual([]);
  });
});

describe('system', () => {
  it('filters by name, nameMatch and is', async () => {
    expect(await list('system', 'name: "hvac"')).toEqual(['Main HVAC']);
    expect(await list('system', 'name: "HVAC", nameMatch: EXACT')).toEqual([]);
    expect(await list('system', 'is: "Lighting_System"')).toEqual(['Lighting']);
  });
});

describe('zone', () => {
  it('filters by id, name, nameMatch and is', async () => {
    expect(await list('zone', 'id: "Zone2"')).toEqual(['South Zone']);
    expect(await list('zone', 'name: "north"')).toEqual(['North Zone']);
    expect(await list('zone', 'name: "North", nameMatch: EXACT')).toEqual([]);
    expect(await list('zone', 'is: "HVAC_Zone"')).toEqual(['North Zone', 'South Zone']);
  });
});
