// The demo site's entities, locations, zones and class names as fixtures/demo.ttl states them,
// including its deliberately messy parts (fixtures/README.md "Deliberately messy"; docs/brick-mapping.md): old and
// equivalent class names, relations stated backwards, the Brick 1.4 links that would make rooms
// equipment. Expected answers are read off fixtures/demo.ttl.
import { describe, expect, it } from 'vitest';
import { demoFixture, graphqlSuite } from '../../support/graphql-suite.ts';

const { graphql, ok: run } = graphqlSuite({ demo: demoFixture() });

const names = (xs: Array<{ name: string }>): string[] => xs.map((x) => x.name);
const sorted = (xs: string[]): string[] => [...xs].sort();
const byName = <T extends { name: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.name.localeCompare(b.name));

const FLOORS = [1, 2, 3, 4];
const ROOMS = [
  ...FLOORS.flatMap((f) => ['01', '02', '03', '04', '05', '06', '07', '08'].map((n) => `Room ${f}-${n}`)),
  'Mechanical Room',
];
const LEVELS = ['Floor 1', 'Floor 2', 'Floor 3', 'Floor 4', 'Roof'];
const ZONES = FLOORS.flatMap((f) => [1, 2, 3, 4, 5].map((n) => `Zone ${f}-0${n}`));
const VAVS = FLOORS.flatMap((f) => [1, 2, 3, 4].map((n) => `VAV-${f}-0${n}`));
const FCUS = ['FCU-1-1', 'FCU-2-1', 'FCU-3-1', 'FCU-4-1'];
const EQUIPMENT = [
  'AHU-1',
  'AHU-1-SF',
  'AHU-1-CC',
  'AHU-1-HC',
  'AHU-2',
  'AHU-2-SF',
  'AHU-2-CC',
  'AHU-2-HC',
  ...VAVS,
  ...FCUS,
  'CH-1',
  'B-1',
  'CT-1',
  'CWP-1',
  'CHWP-1',
  'HWP-1',
  'HX-1',
  'EM-MAIN',
  'VM-HVAC',
  'VM-CHW',
  'WS-1',
];

describe('kinds of entity', () => {
  it('one building, Demo Tower, typed brick:Building (the pre-1.4 name)', async () => {
    const data = await run(`{ building(siteId: "demo") { id name type uri } }`);
    expect(data.building).toEqual([
      { id: 'Demo-Tower', name: 'Demo Tower', type: 'Building', uri: 'https://example.org/buildings/demo#Demo-Tower' },
    ]);
  });

  it('39 pieces of equipment, and no room among them (rec:Room stays a Location despite Brick 1.4 replacement links)', async () => {
    const data = await run(`{ equipment(siteId: "demo") { name } }`);
    expect(sorted(names(data.equipment))).toEqual(sorted(EQUIPMENT));
  });

  it('20 zones (16 brick:HVAC_Zone, 4 rec:HVACZone), and no office among them', async () => {
    const data = await run(`{ zone(siteId: "demo") { name } }`);
    expect(sorted(names(data.zone))).toEqual(sorted(ZONES));
  });

  it('334 points, each named once', async () => {
    const data = await run(`{ point(siteId: "demo") { id } }`);
    expect(data.point).toHaveLength(334);
    expect(new Set(data.point.map((p: any) => p.id)).size).toBe(334);
  });

  it('5 systems', async () => {
    expect((await run(`{ system(siteId: "demo") { id } }`)).system).toHaveLength(5);
  });
});

describe('locations', () => {
  it('the building has the five levels as direct children', async () => {
    const data = await run(`{ building(siteId: "demo") { locations { name } } }`);
    expect(sorted(names(data.building[0].locations))).toEqual(LEVELS);
  });

  it('recursively, the five levels and 33 rooms (Room-4-02 stated as isPartOf Floor-4), no zones', async () => {
    const data = await run(`{ building(siteId: "demo") { locations(recursive: true) { name } } }`);
    expect(sorted(names(data.building[0].locations))).toEqual(sorted([...LEVELS, ...ROOMS]));
  });

  it('Floor 4 has its eight rooms, Room 4-02 among them', async () => {
    const data = await run(
      `{ location(siteId: "demo", locationId: "Floor-4") { name type locations { name } parent { name } } }`,
    );
    expect({ ...data.location, locations: sorted(names(data.location.locations)) }).toEqual({
      name: 'Floor 4',
      type: 'Level',
      locations: ['01', '02', '03', '04', '05', '06', '07', '08'].map((n) => `Room 4-${n}`),
      parent: { name: 'Demo Tower' },
    });
  });

  it('Room 2-04: a conference room on Floor 2, in Zone 2-03, with VAV-2-03 and their points (its CO2 stated by isPointOf)', async () => {
    const data = await run(`{ location(siteId: "demo", locationId: "Room-2-04") {
      id name type parent { name } zones { name } points { name } equipment { name } } }`);
    // Location points: the room's own three and those of the equipment located in it (docs/brick-mapping.md).
    const vav203 = [
      'Zone Air Temp',
      'Zone Air Temp Setpoint',
      'Supply Air Flow',
      'Supply Air Flow Setpoint',
      'Damper Command',
      'Damper Position',
      'Zone Air Humidity',
      'Occupancy',
    ].map((w) => `VAV-2-03 ${w}`);
    expect({ ...data.location, points: sorted(names(data.location.points)) }).toEqual({
      id: 'Room-2-04',
      name: 'Room 2-04',
      type: 'ConferenceRoom',
      parent: { name: 'Floor 2' },
      zones: [{ name: 'Zone 2-03' }],
      points: sorted(['Room 2-04 CO2', 'Room 2-04 Occupancy', 'Room 2-04 People Count', ...vav203]),
      equipment: [{ name: 'VAV-2-03' }],
    });
  });

  it("a room's own points only: filtered by class, the CO2 sensor of Room 2-04", async () => {
    const data = await run(
      `{ location(siteId: "demo", locationId: "Room-2-04") { points(is: "CO2_Sensor") { name } } }`,
    );
    expect(names(data.location.points)).toEqual(['Room 2-04 CO2']);
  });

  it('location accepts the full IRI as locationId', async () => {
    const data = await run(
      `{ location(siteId: "demo", locationId: "https://example.org/buildings/demo#Room-1-MER") { name } }`,
    );
    expect(data.location).toEqual({ name: 'Mechanical Room' });
  });

  it('Floor 2 recursively: five pieces of equipment, and 45 points (5 on rooms, 32 on VAVs, 8 on FCU-2-1)', async () => {
    const data = await run(`{ location(siteId: "demo", locationId: "Floor-2") {
      equipment(recursive: true) { name } points(recursive: true) { name } } }`);
    expect(sorted(names(data.location.equipment))).toEqual(['FCU-2-1', 'VAV-2-01', 'VAV-2-02', 'VAV-2-03', 'VAV-2-04']);
    expect(data.location.points).toHaveLength(45);
    expect(names(data.location.points)).toEqual(
      expect.arrayContaining(['Room 2-01 CO2', 'Room 2-04 CO2', 'VAV-2-02 Zone Air Temp', 'FCU-2-1 Operating Mode']),
    );
  });

  it('the building has no zone of its own, and all 20 recursively (each zone holds rooms, Zone-3-03 by Room-3-04 isPartOf)', async () => {
    const data = await run(
      `{ building(siteId: "demo") { direct: zones { name } all: zones(recursive: true) { name } } }`,
    );
    expect(data.building[0].direct).toEqual([]);
    expect(sorted(names(data.building[0].all))).toEqual(sorted(ZONES));
  });

  it('a room answers the zone that holds it', async () => {
    const data = await run(`{
      a: location(siteId: "demo", locationId: "Room-2-06") { zones { name } }
      b: location(siteId: "demo", locationId: "Room-3-04") { zones { name } }
      c: location(siteId: "demo", locationId: "Room-2-08") { zones { name } }
    }`);
    expect(data).toEqual({
      a: { zones: [{ name: 'Zone 2-04' }] },
      b: { zones: [{ name: 'Zone 3-03' }] },
      c: { zones: [] },
    });
  });

  it('equipment(locationName:) and (locationId:) take everything located under the match', async () => {
    const data = await run(`{
      mer: equipment(siteId: "demo", locationId: "Room-1-MER") { name }
      roof: equipment(siteId: "demo", locationName: "Roof") { name }
      floor4: equipment(siteId: "demo", locationName: "Floor 4", nameMatch: EXACT) { name }
    }`);
    expect(sorted(names(data.mer))).toEqual(['AHU-1', 'B-1', 'CH-1', 'CHWP-1', 'CWP-1', 'EM-MAIN', 'HWP-1', 'HX-1']);
    expect(sorted(names(data.roof))).toEqual(['AHU-2', 'CT-1', 'WS-1']);
    // VAV-4-04 is located by Room-4-05 brick:isLocationOf VAV-4-04.
    expect(sorted(names(data.floor4))).toEqual(['FCU-4-1', 'VAV-4-01', 'VAV-4-02', 'VAV-4-03', 'VAV-4-04']);
  });

  it('equipment answers its location, whichever way it is stated', async () => {
    const data = await run(`{ equipment(siteId: "demo", name: "VAV-") { name location { name } } }`);
    const where = Object.fromEntries(data.equipment.map((e: any) => [e.name, e.location?.name ?? null]));
    // Each VAV in the first room of its zone: -01 → -01, -02 → -02, -03 → -04, -04 → -05.
    for (const f of FLOORS) {
      expect(where[`VAV-${f}-01`]).toBe(`Room ${f}-01`);
      expect(where[`VAV-${f}-02`]).toBe(`Room ${f}-02`);
      expect(where[`VAV-${f}-03`]).toBe(`Room ${f}-04`);
      expect(where[`VAV-${f}-04`]).toBe(`Room ${f}-05`);
    }
  });

  it('virtual meters have no location', async () => {
    const data = await run(`{ equipment(siteId: "demo", name: "VM-") { name location { name } } }`);
    expect(byName(data.equipment)).toEqual([
      { name: 'VM-CHW', location: null },
      { name: 'VM-HVAC', location: null },
    ]);
  });
});

describe('zones', () => {
  it('Zone 2-04 holds Room 2-05 and Room 2-06 and is fed by VAV-2-04', async () => {
    const data = await run(`{ zone(siteId: "demo", name: "Zone 2-04") { id type locations { name } fedBy { name } } }`);
    expect(data.zone).toHaveLength(1);
    expect({ ...data.zone[0], locations: sorted(names(data.zone[0].locations)) }).toEqual({
      id: 'Zone-2-04',
      type: 'HVAC_Zone',
      locations: ['Room 2-05', 'Room 2-06'],
      fedBy: [{ name: 'VAV-2-04' }],
    });
  });

  it('Zone 3-03 holds Room 3-04 (stated as Room-3-04 isPartOf Zone-3-03)', async () => {
    const data = await run(`{ zone(siteId: "demo", id: "Zone-3-03") { locations { name } } }`);
    expect(data.zone).toEqual([{ locations: [{ name: 'Room 3-04' }] }]);
  });

  it('zone points, whichever way stated', async () => {
    const data = await run(`{
      z1: zone(siteId: "demo", id: "Zone-1-02") { points { name } }
      z2: zone(siteId: "demo", id: "Zone-2-02") { points { name } }
      z3: zone(siteId: "demo", id: "Zone-2-04") { points { name } }
    }`);
    expect(sorted(names(data.z1[0].points))).toEqual(['Zone 1-02 Average Air Temp', 'Zone 1-02 Occupancy Status']);
    expect(sorted(names(data.z2[0].points))).toEqual(['Zone 2-02 Average Air Temp', 'Zone 2-02 Occupancy Status']);
    expect(data.z3[0].points).toEqual([]);
  });

  it('a point of a zone has no equipment and equipmentId ""', async () => {
    const data = await run(
      `{ point(siteId: "demo", id: "Zone-1-02-AVG-ZAT") { equipmentId equipment { name } location { name } } }`,
    );
    expect(data.point).toEqual([{ equipmentId: '', equipment: null, location: { name: 'Zone 1-02' } }]);
  });

  it('point(zoneId:) answers the points of the zone and of the equipment feeding it directly', async () => {
    const data = await run(`{
      a: point(siteId: "demo", zoneId: "Zone-2-04") { name }
      b: point(siteId: "demo", zoneId: "Zone-2-02") { name }
    }`);
    expect(data.a).toHaveLength(7);
    expect(names(data.a).every((n) => n.startsWith('VAV-2-04 '))).toBe(true);
    expect(sorted(names(data.b))).toEqual(
      sorted([
        'Zone 2-02 Average Air Temp',
        'Zone 2-02 Occupancy Status',
        ...[
          'Zone Air Temp',
          'Zone Air Temp Setpoint',
          'Supply Air Flow',
          'Supply Air Flow Setpoint',
          'Damper Command',
          'Damper Position',
          'Occupancy',
        ].map((w) => `VAV-2-02 ${w}`),
      ]),
    );
  });
});

describe('old and equivalent class names', () => {
  const pointNames = async (vars: Record<string, unknown>): Promise<string[]> => {
    const data = await run(
      `query ($is: String, $eq: String) { point(siteId: "demo", is: $is, equipmentIs: $eq) { name } }`,
      vars,
    );
    return sorted(names(data.point));
  };
  // VAVs on floors 1-2 use the deprecated Zone_Air_Temperature_Setpoint; floors 3-4 and the FCUs its
  // replacement Target_Zone_Air_Temperature_Setpoint.
  const ZAT_SETPOINTS = sorted([...VAVS, ...FCUS].map((e) => `${e} Zone Air Temp Setpoint`));

  it('is: "Target_Zone_Air_Temperature_Setpoint" also finds the floors 1-2 points typed with the deprecated class', async () => {
    const found = await pointNames({ is: 'Target_Zone_Air_Temperature_Setpoint' });
    expect(found).toContain('VAV-1-01 Zone Air Temp Setpoint');
    expect(found).toEqual(ZAT_SETPOINTS);
  });

  it('is: "Zone_Air_Temperature_Setpoint" (deprecated) also finds the points typed with its replacement', async () => {
    const found = await pointNames({ is: 'Zone_Air_Temperature_Setpoint' });
    expect(found).toContain('VAV-4-02 Zone Air Temp Setpoint');
    expect(found).toContain('FCU-1-1 Zone Air Temp Setpoint');
    expect(found).toEqual(ZAT_SETPOINTS);
  });

  // B-1-LHWT is a brick:Hot_Water_Supply_Temperature_Sensor, replaced by Leaving_Hot_Water_Temperature_Sensor.
  const LHWT = [
    'AHU-1-HC Leaving Hot Water Temp',
    'AHU-2-HC Leaving Hot Water Temp',
    'B-1 Leaving Hot Water Temp',
    'HX-1 Primary Leaving Water Temp',
  ];
  it('is: "Leaving_Hot_Water_Temperature_Sensor" finds B-1-LHWT (Hot_Water_Supply_Temperature_Sensor)', async () => {
    expect(await pointNames({ is: 'Leaving_Hot_Water_Temperature_Sensor' })).toEqual(LHWT);
  });
  it('is: "Hot_Water_Supply_Temperature_Sensor" finds the three Leaving_Hot_Water_Temperature_Sensor points too', async () => {
    expect(await pointNames({ is: 'Hot_Water_Supply_Temperature_Sensor' })).toEqual(LHWT);
  });

  it('Supply_ and Discharge_Air_Flow_Sensor are equivalent: 16 VAV air flow sensors either way', async () => {
    const expected = sorted(
      VAVS.map((v) =>
        v.startsWith('VAV-1') || v.startsWith('VAV-2') ? `${v} Supply Air Flow` : `${v} Discharge Air Flow`,
      ),
    );
    expect(await pointNames({ is: 'Discharge_Air_Flow_Sensor', eq: 'VAV' })).toEqual(expected);
    expect(await pointNames({ is: 'Supply_Air_Flow_Sensor', eq: 'VAV' })).toEqual(expected);
  });

  it('is: "Floor" finds brick:Floor, rec:Level and rec:RoofLevel; so does is: "rec:Level"', async () => {
    const data = await run(`{ building(siteId: "demo") {
      floors: locations(is: "Floor", recursive: true) { name }
      levels: locations(is: "rec:Level", recursive: true) { name } } }`);
    expect(sorted(names(data.building[0].floors))).toEqual(LEVELS);
    expect(sorted(names(data.building[0].levels))).toEqual(LEVELS);
  });

  it('is: "Room" (brick:Room, replaced by rec:Room) and is: "rec:Room" both find all 33 rooms', async () => {
    const data = await run(`{ building(siteId: "demo") {
      brickRoom: locations(is: "Room", recursive: true) { name }
      recRoom: locations(is: "rec:Room", recursive: true) { name } } }`);
    expect(sorted(names(data.building[0].brickRoom))).toEqual(sorted(ROOMS));
    expect(sorted(names(data.building[0].recRoom))).toEqual(sorted(ROOMS));
  });

  it('is: "HVAC_Zone" (replaced by rec:HVACZone) and is: "rec:HVACZone" both find all 20 zones', async () => {
    const data = await run(
      `{ a: zone(siteId: "demo", is: "HVAC_Zone") { name } b: zone(siteId: "demo", is: "rec:HVACZone") { name } }`,
    );
    expect(sorted(names(data.a))).toEqual(sorted(ZONES));
    expect(sorted(names(data.b))).toEqual(sorted(ZONES));
  });

  it('equipmentIs: "Fan_Coil_Unit" (equivalent of FCU) finds the FCUs\' points', async () => {
    const data = await run(
      `{ point(siteId: "demo", equipmentIs: "Fan_Coil_Unit", is: "Zone_Air_Temperature_Sensor") { name } }`,
    );
    expect(sorted(names(data.point))).toEqual(FCUS.map((f) => `${f} Zone Air Temp`));
  });

  it('an unknown class is an UNKNOWN_CLASS error, not an empty list', async () => {
    const res = await graphql(`
      {
        equipment(siteId: "demo", is: "Flux_Capacitor") {
          name
        }
      }
    `);
    expect(res.errors?.[0]?.extensions?.code).toBe('UNKNOWN_CLASS');
  });
});
