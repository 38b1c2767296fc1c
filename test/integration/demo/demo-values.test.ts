// The demo site's properties and point values as fixtures/demo.ttl states them, including its
// deliberately messy parts (fixtures/README.md "Deliberately messy"; docs/brick-mapping.md,
// `timeseriesId`): three timeseries styles, a legacy hasUnits, an overridden writable, points stated by
// isPointOf. Expected answers are read off fixtures/demo.ttl.
import { describe, expect, it } from 'vitest';
import { demoFixture, graphqlSuite } from '../../support/graphql-suite.ts';

const { ok: run } = graphqlSuite({ demo: demoFixture() });

const names = (xs: Array<{ name: string }>): string[] => xs.map((x) => x.name);
const sorted = (xs: string[]): string[] => [...xs].sort();
const byName = <T extends { name: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.name.localeCompare(b.name));

describe('properties', () => {
  const props = (xs: Array<{ name: string; value: string; unit: string | null }>) => byName(xs);

  it('AHU-1: controllerName, pointCount and virtual', async () => {
    const data = await run(`{ equipment(siteId: "demo", id: "AHU-1") { properties { name value unit } } }`);
    expect(props(data.equipment[0].properties)).toEqual([
      { name: 'controllerName', value: 'DDC-AHU-1', unit: null },
      { name: 'pointCount', value: '12', unit: null },
      { name: 'virtual', value: 'false', unit: null },
    ]);
  });

  it("CH-1 also has its Brick cooling capacity, 650 kW in W (a unit Brick's shape allows)", async () => {
    const data = await run(`{ equipment(siteId: "demo", id: "CH-1") { properties { name value unit } } }`);
    const actual = props(data.equipment[0].properties);
    expect(actual.map((p) => [p.name, p.unit])).toEqual([
      ['controllerName', null],
      ['coolingCapacity', 'W'],
      ['pointCount', null],
      ['virtual', null],
    ]);
    // The value as a number here; its exact lexical form is checked on its own below.
    expect(actual.map((p) => (p.name === 'coolingCapacity' ? Number(p.value) : p.value))).toEqual([
      'DDC-PLANT-1',
      650_000,
      '11',
      'false',
    ]);
  });

  it('Room 2-04: its area, 30.4 M2', async () => {
    const data = await run(`{ location(siteId: "demo", locationId: "Room-2-04") { properties { name value unit } } }`);
    expect(data.location.properties).toEqual([{ name: 'area', value: '30.4', unit: 'M2' }]);
  });

  it('the building: gross area 2640 M2 and year built 2011', async () => {
    const data = await run(`{ building(siteId: "demo") { properties { name value unit } } }`);
    const actual = props(data.building[0].properties);
    expect(actual.map((p) => [p.name, p.name === 'grossArea' ? Number(p.value) : p.value, p.unit])).toEqual([
      ['grossArea', 2640, 'M2'],
      ['yearBuilt', '2011', null],
    ]);
  });

  // A property's value could be the literal's lexical form. Triplestores keep
  // numbers as numbers (Oxigraph and Virtuoso both drop the text they were written as), so the
  // service answers the datatype's canonical form, as docs/brick-mapping.md says. demo.ttl states
  // "650000.0"^^xsd:decimal, "2640.0"^^xsd:decimal and Room-1-06's area "20.0"^^xsd:decimal.
  it('a decimal is answered in its canonical form ("650000", as xsd:decimal canonicalizes "650000.0")', async () => {
    const data = await run(`{
      ch1: equipment(siteId: "demo", id: "CH-1") { properties { name value } }
      building(siteId: "demo") { properties { name value } }
      room: location(siteId: "demo", locationId: "Room-1-06") { properties { name value unit } }
    }`);
    expect({
      coolingCapacity: data.ch1[0].properties.find((p: any) => p.name === 'coolingCapacity')?.value,
      grossArea: data.building[0].properties.find((p: any) => p.name === 'grossArea')?.value,
      room106: data.room.properties,
    }).toEqual({ coolingCapacity: '650000', grossArea: '2640', room106: [{ name: 'area', value: '20', unit: 'M2' }] });
  });

  it("every equipment's pointCount is the number of its points, whichever way each link is stated", async () => {
    const data = await run(`{ equipment(siteId: "demo") { name points { id } properties { name value } } }`);
    expect(data.equipment).toHaveLength(39);
    const mismatches = data.equipment
      .map((e: any) => [e.name, e.properties.find((p: any) => p.name === 'pointCount')?.value, String(e.points.length)])
      .filter(([, stated, counted]: string[]) => stated !== counted);
    expect(mismatches).toEqual([]);
  });

  it('hasProperty / propertyValue filter equipment', async () => {
    const data = await run(`{
      virtual: equipment(siteId: "demo", hasProperty: "virtual", propertyValue: "true") { name }
      plant: equipment(siteId: "demo", hasProperty: "controllerName", propertyValue: "DDC-PLANT-1") { name }
      anyProp: equipment(siteId: "demo", propertyValue: "DDC-AHU-2") { name }
      withCapacity: equipment(siteId: "demo", hasProperty: "coolingCapacity") { name }
    }`);
    expect(sorted(names(data.virtual))).toEqual(['VM-CHW', 'VM-HVAC']);
    expect(sorted(names(data.plant))).toEqual(['B-1', 'CH-1', 'CHWP-1', 'CT-1', 'CWP-1', 'HWP-1', 'HX-1']);
    expect(sorted(names(data.anyProp))).toEqual(['AHU-2', 'AHU-2-CC', 'AHU-2-HC', 'AHU-2-SF']);
    expect(names(data.withCapacity)).toEqual(['CH-1']);
  });
});

describe('point values and references', () => {
  const point = async (id: string, fields: string): Promise<any> => {
    const data = await run(`query ($id: String) { point(siteId: "demo", id: $id) { ${fields} } }`, { id });
    expect(data.point, id).toHaveLength(1);
    return data.point[0];
  };

  it('timeseriesId in each of the three styles', async () => {
    // ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId … ]
    expect(await point('VAV-2-04-ZAT', 'timeseriesId unit')).toEqual({
      timeseriesId: 'demo:VAV-2-04-ZAT',
      unit: 'DEG_C',
    });
    // ref:hasTimeseriesReference
    expect(await point('CT-1-LCWT', 'timeseriesId')).toEqual({ timeseriesId: 'demo:CT-1-LCWT' });
    expect(await point('CT-1-ECWT', 'timeseriesId')).toEqual({ timeseriesId: 'demo:CT-1-ECWT' });
    // Brick 1.2: brick:timeseries [ brick:hasTimeseriesId … ]
    expect(await point('EM-MAIN-PWR', 'timeseriesId')).toEqual({ timeseriesId: 'demo:EM-MAIN-PWR' });
    expect(await point('EM-MAIN-ENERGY', 'timeseriesId')).toEqual({ timeseriesId: 'demo:EM-MAIN-ENERGY' });
    expect(await point('EM-MAIN-VOLT', 'timeseriesId')).toEqual({ timeseriesId: 'demo:EM-MAIN-VOLT' });
  });

  it('every point has timeseriesId "demo:<id>", except the four with none, which answer null', async () => {
    const none = ['AHU-2-SF-FAULT', 'Room-3-04-OCC-CNT', 'VAV-4-03-MAXF', 'VAV-4-03-MINF'];
    const data = await run(`{ point(siteId: "demo") { id timeseriesId } }`);
    expect(data.point).toHaveLength(334);
    const wrong = data.point.filter((p: any) => p.timeseriesId !== (none.includes(p.id) ? null : `demo:${p.id}`));
    expect(wrong).toEqual([]);
  });

  it('the legacy brick:hasUnits gives EM-MAIN-CURR its unit A; statuses have none', async () => {
    expect(await point('EM-MAIN-CURR', 'unit timeseriesId')).toEqual({ unit: 'A', timeseriesId: 'demo:EM-MAIN-CURR' });
    expect(await point('CH-1-FAULT', 'unit')).toEqual({ unit: null });
  });

  it('CH-1-LCHWT-SP: a setpoint whose stated writable "false" overrides the class default', async () => {
    expect(await point('CH-1-LCHWT-SP', 'writable valueType unit')).toEqual({
      writable: 'false',
      valueType: 'float',
      unit: 'DEG_C',
    });
  });

  it('writable: stated, else true for commands, setpoints and parameters, false for sensors and statuses', async () => {
    const rows = await Promise.all(
      [
        'AHU-1-SAT-SP',
        'B-1-LHWT-SP',
        'AHU-2-SAT-SP',
        'CH-1-EN-CMD',
        'VAV-1-01-DPR-CMD',
        'VAV-4-02-MINF',
        'CH-1-LCHWT',
        'AHU-1-SF-STS',
        'CH-1-FAULT',
      ].map(async (id) => [id, await point(id, 'writable valueType')]),
    );
    expect(Object.fromEntries(rows)).toEqual({
      'AHU-1-SAT-SP': { writable: 'true', valueType: 'float' }, // stated
      'B-1-LHWT-SP': { writable: 'true', valueType: 'float' }, // stated
      'AHU-2-SAT-SP': { writable: 'true', valueType: null }, // Setpoint
      'CH-1-EN-CMD': { writable: 'true', valueType: 'boolean' }, // Command, valueType stated
      'VAV-1-01-DPR-CMD': { writable: 'true', valueType: 'float' }, // Command, valueType stated
      'VAV-4-02-MINF': { writable: 'true', valueType: null }, // Min_Air_Flow_Setpoint_Limit: a Parameter
      'CH-1-LCHWT': { writable: 'false', valueType: null }, // Sensor
      'AHU-1-SF-STS': { writable: 'false', valueType: 'boolean' }, // Status, valueType stated
      'CH-1-FAULT': { writable: 'false', valueType: null }, // Status
    });
  });

  it('a point answers its equipment (stated either way) and location', async () => {
    expect(await point('CH-1-RUN', 'equipmentId equipment { name } location { name }')).toEqual({
      equipmentId: 'CH-1',
      equipment: { name: 'CH-1' },
      location: { name: 'Mechanical Room' },
    });
    expect(await point('VAV-2-04-ZAT', 'equipmentId equipment { name } location { name }')).toEqual({
      equipmentId: 'VAV-2-04',
      equipment: { name: 'VAV-2-04' },
      location: { name: 'Room 2-05' },
    });
    expect(await point('Room-2-04-CO2', 'equipmentId equipment { name } location { name }')).toEqual({
      equipmentId: '',
      equipment: null,
      location: { name: 'Room 2-04' },
    });
  });

  it('the example point VAV-2-04-ZAT by name', async () => {
    const data = await run(
      `{ point(siteId: "demo", name: "VAV-2-04 Zone Air Temp", nameMatch: EXACT) { id name type unit timeseriesId writable } }`,
    );
    expect(data.point).toEqual([
      {
        id: 'VAV-2-04-ZAT',
        name: 'VAV-2-04 Zone Air Temp',
        type: 'Zone_Air_Temperature_Sensor',
        unit: 'DEG_C',
        timeseriesId: 'demo:VAV-2-04-ZAT',
        writable: 'false',
      },
    ]);
  });

  it('typeHierarchy: the asserted class, then its Brick ancestors up to the root, nearest first', async () => {
    const data = await run(`{
      point(siteId: "demo", id: "VAV-2-04-ZAT") { typeHierarchy }
      equipment(siteId: "demo", id: "VAV-2-04") { typeHierarchy }
    }`);
    expect(data.point[0].typeHierarchy).toEqual([
      'Zone_Air_Temperature_Sensor',
      'Air_Temperature_Sensor',
      'Temperature_Sensor',
      'Sensor',
      'Point',
    ]);
    expect(data.equipment[0].typeHierarchy).toEqual(['VAV', 'Terminal_Unit', 'HVAC_Equipment', 'Equipment']);
  });

  it('location(locationId:) of an id that is not in the graph is null', async () => {
    expect(await run(`{ location(siteId: "demo", locationId: "Room-9-99") { name } }`)).toEqual({ location: null });
  });

  it('name matching: CONTAINS is case-insensitive, EXACT is not', async () => {
    const data = await run(`{
      contains: equipment(siteId: "demo", name: "ahu-1") { name }
      exact: equipment(siteId: "demo", name: "AHU-1", nameMatch: EXACT) { name }
      exactLower: equipment(siteId: "demo", name: "ahu-1", nameMatch: EXACT) { name }
    }`);
    expect(sorted(names(data.contains))).toEqual(['AHU-1', 'AHU-1-CC', 'AHU-1-HC', 'AHU-1-SF']);
    expect(names(data.exact)).toEqual(['AHU-1']);
    expect(data.exactLower).toEqual([]);
  });
});
