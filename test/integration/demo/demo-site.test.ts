// The demo site (fixtures/demo.ttl): the example shapes a client sends, each with
// the full answer a person reading fixtures/demo.ttl would give, and the triplestore round trips each
// costs (one for the root field plus one per relation field selected).
//
// Every expected value below was read off fixtures/demo.ttl (and fixtures/demo-ifc-ids.json), not
// copied from the service's output. Lists of entities are compared without regard to order unless
// the API promises one (upstream/downstream: nearest first).
import { beforeAll, describe, expect, it } from 'vitest';
import { demoFixture, graphqlSuite } from '../../support/graphql-suite.ts';

const { graphql, harness } = graphqlSuite({ demo: demoFixture() });
beforeAll(async () => {
  // Touch class filters, type names, traversal and media once, so that anything the service loads
  // once per process is loaded before round trips are counted.
  await graphql(`
    {
      point(siteId: "demo", is: "Temperature_Sensor", equipmentIs: "VAV") {
        typeHierarchy
      }
      equipment(siteId: "demo", is: "Chiller") {
        downstream(medium: "CHILLED_WATER", is: "Equipment") {
          name
        }
      }
    }
  `);
});

let runs = 0;
/**
 * Runs `query`, fails on any GraphQL error, and returns data with the round trips it cost. Each
 * run's text is its own (a comment numbers it): the query runs, rather than its answer being
 * given from the answers kept of an earlier run.
 */
async function run(query: string, variables?: Record<string, unknown>): Promise<{ data: any; trips: number }> {
  harness().resetRoundTrips();
  const res = await graphql(`${query}\n# run ${++runs}`, variables);
  const trips = harness().roundTrips();
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return { data: res.data, trips };
}

const sortByName = <T extends { name: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.name.localeCompare(b.name));

/**
 * `actual` cut into groups of the sizes of `layers`, each group sorted: equal to the sorted `layers`
 * exactly when `actual` lists the layers nearest first (any order within one depth).
 */
function asLayers(actual: string[], layers: string[][]): string[][] {
  const out: string[][] = [];
  let i = 0;
  for (const layer of layers) {
    out.push(actual.slice(i, i + layer.length).sort());
    i += layer.length;
  }
  if (i < actual.length) out.push(actual.slice(i).sort());
  return out;
}
function expectNearestFirst(actual: string[], layers: string[][]): void {
  expect(asLayers(actual, layers)).toEqual(layers.map((l) => [...l].sort()));
}

// --- Example 1: equipment(is: "AHU") with its points ---------------------------------------------

/** [label, asserted point class, unit (QUDT local name), timeseries id] per point, from demo.ttl. */
type PointRow = [string, string, string | null, string | null];

const AHU_POINTS = (ahu: 'AHU-1' | 'AHU-2'): PointRow[] => [
  [`${ahu} Supply Air Temp`, 'Supply_Air_Temperature_Sensor', 'DEG_C', `demo:${ahu}-SAT`],
  [`${ahu} Supply Air Temp Setpoint`, 'Supply_Air_Temperature_Setpoint', 'DEG_C', `demo:${ahu}-SAT-SP`],
  [`${ahu} Return Air Temp`, 'Return_Air_Temperature_Sensor', 'DEG_C', `demo:${ahu}-RAT`],
  [`${ahu} Mixed Air Temp`, 'Mixed_Air_Temperature_Sensor', 'DEG_C', `demo:${ahu}-MAT`],
  [`${ahu} Outside Air Temp`, 'Outside_Air_Temperature_Sensor', 'DEG_C', `demo:${ahu}-OAT`],
  [`${ahu} Supply Air Static Pressure`, 'Supply_Air_Static_Pressure_Sensor', 'PA', `demo:${ahu}-SAP`],
  [`${ahu} Supply Air Static Pressure Setpoint`, 'Supply_Air_Static_Pressure_Setpoint', 'PA', `demo:${ahu}-SAP-SP`],
  [`${ahu} Filter Differential Pressure`, 'Filter_Differential_Pressure_Sensor', 'PA', `demo:${ahu}-FLT-DP`],
  [`${ahu} Outside Air Humidity`, 'Outside_Air_Humidity_Sensor', 'PERCENT_RH', `demo:${ahu}-OAH`],
  [`${ahu} Return Air Humidity`, 'Return_Air_Humidity_Sensor', 'PERCENT_RH', `demo:${ahu}-RAH`],
  [`${ahu} Outside Air Damper Command`, 'Damper_Position_Command', 'PERCENT', `demo:${ahu}-OAD-CMD`],
  [`${ahu} Supply Air Flow`, 'Supply_Air_Flow_Sensor', 'M3-PER-SEC', `demo:${ahu}-SAF`],
];
const asPoints = (rows: PointRow[]) =>
  rows.map(([name, type, unit, timeseriesId]) => ({ name, type, unit, timeseriesId }));

const EXAMPLE_EQUIPMENT = `{ equipment(siteId: "demo", is: "AHU") { name type points { name type unit timeseriesId } } }`;

describe('example: equipment(is: "AHU") { name type points { name type unit timeseriesId } }', () => {
  it('answers both AHUs, brick:AHU and brick:Air_Handling_Unit, each with its twelve points', async () => {
    const { data } = await run(EXAMPLE_EQUIPMENT);
    const actual = sortByName(data.equipment).map((e: any) => ({ ...e, points: sortByName(e.points) }));
    expect(actual).toEqual([
      { name: 'AHU-1', type: 'AHU', points: sortByName(asPoints(AHU_POINTS('AHU-1'))) },
      // AHU-2-SAT and AHU-2-RAT are stated with brick:isPointOf, the other ten with brick:hasPoint.
      { name: 'AHU-2', type: 'Air_Handling_Unit', points: sortByName(asPoints(AHU_POINTS('AHU-2'))) },
    ]);
  });

  it('answers the same two for is: "Air_Handling_Unit", "brick:AHU" and the full IRI', async () => {
    for (const is of ['Air_Handling_Unit', 'brick:AHU', 'https://brickschema.org/schema/Brick#Air_Handling_Unit']) {
      const { data } = await run('query ($is: String) { equipment(siteId: "demo", is: $is) { name } }', { is });
      expect(data.equipment.map((e: any) => e.name).sort(), is).toEqual(['AHU-1', 'AHU-2']);
    }
  });

  it('costs 1 + 1 round trips (root + points)', async () => {
    expect((await run(EXAMPLE_EQUIPMENT)).trips).toBe(2);
  });
});

// --- Example 2: zone(name:) with upstream(maxDepth: 3) --------------------------------------------

const EXAMPLE_ZONE = `{ zone(siteId: "demo", name: "Zone 2-04") { name upstream(maxDepth: 3) { name type } } }`;

describe('example: zone(name: "Zone 2-04") { name upstream(maxDepth: 3) { name type } }', () => {
  // VAV-2-04 feeds Zone-2-04 (1 hop); AHU-1 feeds VAV-2-04 (2); CHWP-1 and HX-1 feed AHU-1 (3).
  // CH-1 and HWP-1 are 4 hops up and stay out.
  it('answers its VAV, the AHU and the plant equipment 3 hops up, nearest first', async () => {
    const { data } = await run(EXAMPLE_ZONE);
    expect(data.zone).toHaveLength(1);
    expect(data.zone[0].name).toBe('Zone 2-04');
    const upstream: Array<{ name: string; type: string }> = data.zone[0].upstream;
    expect(sortByName(upstream)).toEqual(
      sortByName([
        { name: 'VAV-2-04', type: 'VAV' },
        { name: 'AHU-1', type: 'AHU' },
        { name: 'CHWP-1', type: 'Chilled_Water_Pump' },
        { name: 'HX-1', type: 'Heat_Exchanger' },
      ]),
    );
    expectNearestFirst(
      upstream.map((e) => e.name),
      [['VAV-2-04'], ['AHU-1'], ['CHWP-1', 'HX-1']],
    );
  });

  it('costs 1 + 1 round trips (root + upstream)', async () => {
    expect((await run(EXAMPLE_ZONE)).trips).toBe(2);
  });
});

// --- Example 3: building { locations(recursive: true) { equipment } } ------------------------------

/** Locations under Demo Tower by hasPart, with their asserted type and the equipment located in each. */
function expectedBuildingLocations(): Array<{
  name: string;
  type: string;
  equipment: Array<{ name: string; type: string }>;
}> {
  const e = (name: string, type: string) => ({ name, type });
  const out = [
    { name: 'Floor 1', type: 'Level', equipment: [] },
    { name: 'Floor 2', type: 'Level', equipment: [] },
    { name: 'Floor 3', type: 'Floor', equipment: [] },
    { name: 'Floor 4', type: 'Level', equipment: [] },
    {
      name: 'Roof',
      type: 'RoofLevel',
      equipment: [e('CT-1', 'Cooling_Tower'), e('AHU-2', 'Air_Handling_Unit'), e('WS-1', 'Weather_Station')],
    },
    {
      name: 'Mechanical Room',
      type: 'UtilitiesRoom',
      equipment: [
        e('CWP-1', 'Condenser_Water_Pump'),
        e('CH-1', 'Chiller'),
        e('CHWP-1', 'Chilled_Water_Pump'),
        e('B-1', 'Boiler'),
        e('HWP-1', 'Hot_Water_Pump'),
        e('HX-1', 'Heat_Exchanger'),
        e('AHU-1', 'AHU'),
        e('EM-MAIN', 'Building_Electrical_Meter'),
      ],
    },
  ] as Array<{ name: string; type: string; equipment: Array<{ name: string; type: string }> }>;
  // Room-<f>-01..08 on each floor: the same classes on every floor (Room-1-01 is the lobby; Room-2-06
  // and Room-3-06 are brick:Room, the others rec:Room, both "Room"). VAV-<f>-01..04 sit in the first
  // room of their zone (-01, -02, -04, -05), FCU-<f>-1 in the telecom room (-07).
  for (const f of [1, 2, 3, 4]) {
    const rooms: Array<[string, string, Array<{ name: string; type: string }>]> = [
      ['01', f === 1 ? 'Lobby' : 'Office', [e(`VAV-${f}-01`, 'VAV')]],
      ['02', 'Office', [e(`VAV-${f}-02`, 'VAV')]],
      ['03', 'Room', []],
      ['04', 'ConferenceRoom', [e(`VAV-${f}-03`, 'VAV')]],
      ['05', 'Room', [e(`VAV-${f}-04`, 'VAV')]],
      ['06', 'Room', []],
      ['07', 'TelecommunicationRoom', [e(`FCU-${f}-1`, 'FCU')]],
      ['08', 'Hallway', []],
    ];
    for (const [n, type, equipment] of rooms) out.push({ name: `Room ${f}-${n}`, type, equipment });
  }
  return out;
}
const canonicalLocations = (xs: any[]) => sortByName(xs).map((l) => ({ ...l, equipment: sortByName(l.equipment) }));

const EXAMPLE_BUILDING = `{ building(siteId: "demo") { name locations(recursive: true) { name type equipment { name type } } } }`;

describe('example: building { name locations(recursive: true) { name type equipment { name type } } }', () => {
  it('answers Demo Tower with its 5 levels and 33 rooms, each with the equipment located in it, and no zones', async () => {
    const { data } = await run(EXAMPLE_BUILDING);
    expect(data.building).toHaveLength(1);
    expect(data.building[0].name).toBe('Demo Tower');
    const locations = data.building[0].locations;
    expect(locations.filter((l: any) => l.name.startsWith('Zone'))).toEqual([]);
    expect(canonicalLocations(locations)).toEqual(canonicalLocations(expectedBuildingLocations()));
  });

  it('costs 1 + 2 round trips (root + locations + equipment)', async () => {
    expect((await run(EXAMPLE_BUILDING)).trips).toBe(3);
  });
});

// --- Example 4: point(locationName:, equipmentIs:) ------------------------------------------------

const EXAMPLE_POINT = `{ point(siteId: "demo", locationName: "Floor 2", equipmentIs: "VAV") { name equipment { name } } }`;

/** Points of floor 2's VAVs (VAV-2-01 has reheat and humidity; VAV-2-03 humidity), from demo.ttl. */
const FLOOR_2_VAV_POINTS: Record<string, string[]> = {
  'VAV-2-01': [
    'Zone Air Temp',
    'Zone Air Temp Setpoint',
    'Supply Air Flow',
    'Supply Air Flow Setpoint',
    'Damper Command',
    'Damper Position',
    'Zone Air Humidity',
    'Occupancy',
    'Reheat Valve Command',
    'Discharge Air Temp',
  ],
  'VAV-2-02': [
    'Zone Air Temp',
    'Zone Air Temp Setpoint',
    'Supply Air Flow',
    'Supply Air Flow Setpoint',
    'Damper Command',
    'Damper Position',
    'Occupancy',
  ],
  'VAV-2-03': [
    'Zone Air Temp',
    'Zone Air Temp Setpoint',
    'Supply Air Flow',
    'Supply Air Flow Setpoint',
    'Damper Command',
    'Damper Position',
    'Zone Air Humidity',
    'Occupancy',
  ],
  'VAV-2-04': [
    'Zone Air Temp',
    'Zone Air Temp Setpoint',
    'Supply Air Flow',
    'Supply Air Flow Setpoint',
    'Damper Command',
    'Damper Position',
    'Occupancy',
  ],
};

describe('example: point(locationName: "Floor 2", equipmentIs: "VAV") { name equipment { name } }', () => {
  it("answers the 32 points of floor 2's four VAVs (VAV-2-02 is located by Room-2-02 isLocationOf), and no room points", async () => {
    const { data } = await run(EXAMPLE_POINT);
    const expected = Object.entries(FLOOR_2_VAV_POINTS).flatMap(([vav, words]) =>
      words.map((w) => ({ name: `${vav} ${w}`, equipment: { name: vav } })),
    );
    expect(expected).toHaveLength(32);
    expect(sortByName(data.point)).toEqual(sortByName(expected));
  });

  it('combines with is: (the four zone air temperature sensors) and nameMatch: EXACT', async () => {
    const { data } = await run(`{ point(siteId: "demo", locationName: "Floor 2", nameMatch: EXACT, equipmentIs: "VAV",
      is: "Zone_Air_Temperature_Sensor") { name equipment { name } } }`);
    expect(sortByName(data.point)).toEqual(
      ['VAV-2-01', 'VAV-2-02', 'VAV-2-03', 'VAV-2-04'].map((v) => ({
        name: `${v} Zone Air Temp`,
        equipment: { name: v },
      })),
    );
  });

  it('costs 1 + 1 round trips (root + equipment)', async () => {
    expect((await run(EXAMPLE_POINT)).trips).toBe(2);
  });
});

// --- Example 5: entityByIfcId ---------------------------------------------------------------------

const EXAMPLE_IFC = `query ($ifcId: String!) { entityByIfcId(siteId: "demo", ifcId: $ifcId) {
  __typename ... on Equipment { name points { name } } ... on Location { name } ... on Building { name } } }`;

describe('example: entityByIfcId { ... on Equipment { name points { name } } ... on Location { name } }', () => {
  it('answers AHU-1 with its twelve points for 2t4oFYgav4YgXJsMhiI4RW', async () => {
    const { data } = await run(EXAMPLE_IFC, { ifcId: '2t4oFYgav4YgXJsMhiI4RW' });
    expect(data.entityByIfcId.__typename).toBe('Equipment');
    expect(data.entityByIfcId.name).toBe('AHU-1');
    expect(data.entityByIfcId.points.map((p: any) => p.name).sort()).toEqual(
      AHU_POINTS('AHU-1')
        .map(([n]) => n)
        .sort(),
    );
  });

  it('answers AHU-2 for 07Nck6zjD1BPZbUQpI_lrO and CH-1 (its ten points, CH-1-RUN by isPointOf, and the chilled water system enable command) for 2HWO$XNpf9huQctQuMQBVs', async () => {
    const ahu2 = (await run(EXAMPLE_IFC, { ifcId: '07Nck6zjD1BPZbUQpI_lrO' })).data.entityByIfcId;
    expect([ahu2.__typename, ahu2.name, ahu2.points.length]).toEqual(['Equipment', 'AHU-2', 12]);
    const ch1 = (await run(EXAMPLE_IFC, { ifcId: '2HWO$XNpf9huQctQuMQBVs' })).data.entityByIfcId;
    expect([ch1.__typename, ch1.name]).toEqual(['Equipment', 'CH-1']);
    expect(ch1.points.map((p: any) => p.name).sort()).toEqual(
      [
        'CH-1 Leaving Chilled Water Temp',
        'CH-1 Entering Chilled Water Temp',
        'CH-1 Leaving Chilled Water Temp Setpoint',
        'CH-1 Leaving Condenser Water Temp',
        'CH-1 Entering Condenser Water Temp',
        'CH-1 Chilled Water Flow',
        'CH-1 Enable Command',
        'CH-1 Run Status',
        'CH-1 Fault',
        'CH-1 Electric Power',
        'CHW-SYS Enable Command',
      ].sort(),
    );
  });

  it.each([
    ['Room 2-04', '2wiX85WgH2CQfPPHPkClmw'],
    ['Mechanical Room', '3pxcmU4df2IOQuz2Fc9s1C'],
    ['Floor 2', '0es4oTQ9HBrw5Qa4yTX51d'],
    ['Roof', '09z9wGJe12ihLzxnnuTaUu'],
  ])('answers the location %s for %s', async (name, ifcId) => {
    const { data } = await run(EXAMPLE_IFC, { ifcId });
    expect(data.entityByIfcId).toEqual({ __typename: 'Location', name });
  });

  it('answers the building Demo Tower for 0xo6AnBMPFrAV88$ehQfjy', async () => {
    const { data } = await run(EXAMPLE_IFC, { ifcId: '0xo6AnBMPFrAV88$ehQfjy' });
    expect(data.entityByIfcId).toEqual({ __typename: 'Building', name: 'Demo Tower' });
  });

  it('answers null, with no error, for a GlobalId mapped to nothing (say, a structural column)', async () => {
    // Not among the 59 GlobalIds of fixtures/demo-ifc-ids.json.
    const res = await graphql(EXAMPLE_IFC, { ifcId: '1hOSvn6df7F8_7GcBWlR72' });
    expect(res).toEqual({ data: { entityByIfcId: null }, extensions: { versions: { demo: 0 } } });
  });

  it('reports the same GlobalIds back as ifcId', async () => {
    const { data } = await run(`{
      equipment(siteId: "demo", id: "AHU-1") { ifcId }
      building(siteId: "demo") { ifcId }
      location(siteId: "demo", locationId: "Room-2-04") { ifcId }
    }`);
    expect(data).toEqual({
      equipment: [{ ifcId: '2t4oFYgav4YgXJsMhiI4RW' }],
      building: [{ ifcId: '0xo6AnBMPFrAV88$ehQfjy' }],
      location: { ifcId: '2wiX85WgH2CQfPPHPkClmw' },
    });
  });

  it('costs 1 + 1 round trips for the AHU (root + points)', async () => {
    expect((await run(EXAMPLE_IFC, { ifcId: '2t4oFYgav4YgXJsMhiI4RW' })).trips).toBe(2);
  });

  it('costs no more than 1 + 1 round trips for a room (the points field is on Equipment only)', async () => {
    expect((await run(EXAMPLE_IFC, { ifcId: '2wiX85WgH2CQfPPHPkClmw' })).trips).toBeLessThanOrEqual(2);
  });
});
