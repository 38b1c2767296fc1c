// Acceptance tests for points (docs/brick-mapping.md, `timeseriesId`; docs/readings.md,
// "The current value") on fixtures/small/points.ttl.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, names, smallFixture } from '../../support/graphql-suite.ts';

const { ok } = graphqlSuite({ pt: smallFixture('points') });

/** Root point names matching `args`. */
async function points(args = ''): Promise<string[]> {
  const data = await ok(`{ point(siteId: "pt"${args ? `, ${args}` : ''}) { name } }`);
  return names(data.point);
}

/** The fields `selection` of the point with id `id`. */
async function point(id: string, selection: string): Promise<any> {
  const data = await ok(`{ point(siteId: "pt", id: "${id}") { ${selection} } }`);
  expect(data.point).toHaveLength(1);
  return data.point[0];
}

/** `field` of every point, keyed by point name. */
async function byName(field: string): Promise<Record<string, unknown>> {
  const data = await ok(`{ point(siteId: "pt") { name ${field} } }`);
  return Object.fromEntries(data.point.map((p: any) => [p.name, p[field]]));
}

const VAV1_POINTS = ['VAV-1 Airflow', 'VAV-1 Damper Command', 'VAV-1 Zone Setpoint', 'VAV-1 Zone Temp'];
const AHU1_POINTS = [
  'AHU-1 Enable',
  'AHU-1 Fan Status',
  'AHU-1 High Temp Alarm',
  'AHU-1 Legacy Setpoint',
  'AHU-1 SAT',
  'AHU-1 Temp Parameter',
];
const FCU1_POINTS = ['FCU-1 Occupancy', 'FCU-1 Remote Sensor'];
const CH1_POINTS = ['Chiller-1 CHWST', 'Chiller-1 Leaving CHW Temp', 'Chiller-1 Vendor Point'];

describe('point', () => {
  it('lists every point of the site, including one known only by hasPoint', async () => {
    expect(await points()).toEqual(
      [...VAV1_POINTS, ...AHU1_POINTS, ...FCU1_POINTS, ...CH1_POINTS, 'Room B Humidity', 'Zone 1 Temp'].sort(),
    );
  });

  it('returns uri, id, name, type and typeHierarchy nearest first', async () => {
    expect(await point('VAV1_ZAT', 'uri id name type typeHierarchy')).toEqual({
      uri: 'https://example.org/f#VAV1_ZAT',
      id: 'VAV1_ZAT',
      name: 'VAV-1 Zone Temp',
      type: 'Zone_Air_Temperature_Sensor',
      typeHierarchy: ['Zone_Air_Temperature_Sensor', 'Air_Temperature_Sensor', 'Temperature_Sensor', 'Sensor', 'Point'],
    });
  });

  it('gives a point typed outside the ontology its asserted class as type', async () => {
    expect(await point('CH1_Vendor', 'type equipmentId')).toEqual({ type: 'VendorPoint', equipmentId: 'CH1' });
  });

  it('finds a point by full IRI and by name', async () => {
    expect(await points('id: "https://example.org/f#AHU1_SAT"')).toEqual(['AHU-1 SAT']);
    expect(await points('name: "zone"')).toEqual(['VAV-1 Zone Setpoint', 'VAV-1 Zone Temp', 'Zone 1 Temp']);
    expect(await points('name: "Zone 1 Temp", nameMatch: EXACT')).toEqual(['Zone 1 Temp']);
    expect(await points('name: "zone 1 temp", nameMatch: EXACT')).toEqual([]);
  });
});

describe('Point.unit', () => {
  it('is the QUDT local name from hasUnit, or legacy hasUnits, else null', async () => {
    const units = await byName('unit');
    expect(units['VAV-1 Zone Temp']).toBe('DEG_C');
    expect(units['VAV-1 Airflow']).toBe('L-PER-SEC');
    expect(units['VAV-1 Damper Command']).toBe('PERCENT');
    expect(units['VAV-1 Zone Setpoint']).toBeNull();
  });
});

describe('Point.unitSymbol', () => {
  it('is the unit’s symbol from QUDT’s data, else null', async () => {
    const symbols = await byName('unitSymbol');
    expect(symbols['VAV-1 Zone Temp']).toBe('°C');
    expect(symbols['VAV-1 Airflow']).toBe('L/s');
    expect(symbols['VAV-1 Damper Command']).toBe('%');
    expect(symbols['VAV-1 Zone Setpoint']).toBeNull();
  });
});

describe('Point.timeseriesId', () => {
  it('reads hasExternalReference, hasTimeseriesReference and the Brick 1.2 timeseries form', async () => {
    const ids = await byName('timeseriesId');
    expect(ids['VAV-1 Zone Temp']).toBe('ts-vav1-zat');
    expect(ids['VAV-1 Airflow']).toBe('ts-vav1-flow');
    expect(ids['VAV-1 Damper Command']).toBe('ts-vav1-dmp');
  });

  it('is null when no reference is stated', async () => {
    const ids = await byName('timeseriesId');
    expect(ids['VAV-1 Zone Setpoint']).toBeNull();
    expect(ids['AHU-1 SAT']).toBeNull();
  });
});

describe('Point.writable and valueType', () => {
  it('follows the class when not stated: true for commands, setpoints and parameters', async () => {
    const writable = await byName('writable');
    expect(writable['VAV-1 Damper Command']).toBe('true');
    expect(writable['VAV-1 Zone Setpoint']).toBe('true');
    expect(writable['AHU-1 Legacy Setpoint']).toBe('true');
    expect(writable['AHU-1 Temp Parameter']).toBe('true');
  });

  it('follows the class when not stated: false for sensors, statuses and alarms', async () => {
    const writable = await byName('writable');
    expect(writable['VAV-1 Zone Temp']).toBe('false');
    expect(writable['AHU-1 Fan Status']).toBe('false');
    expect(writable['AHU-1 High Temp Alarm']).toBe('false');
    expect(writable['FCU-1 Occupancy']).toBe('false');
  });

  it('prefers a stated writable property to the class default, either way', async () => {
    const writable = await byName('writable');
    expect(writable['AHU-1 Enable']).toBe('false');
    expect(writable['FCU-1 Remote Sensor']).toBe('true');
  });

  it('is null for a point of no known kind', async () => {
    expect((await byName('writable'))['Chiller-1 Vendor Point']).toBeNull();
  });

  it('gives valueType only when stated', async () => {
    const valueType = await byName('valueType');
    expect(valueType['AHU-1 Enable']).toBe('boolean');
    expect(valueType['FCU-1 Remote Sensor']).toBe('float');
    expect(valueType['VAV-1 Zone Temp']).toBeNull();
  });
});

describe('Point.currentValue', () => {
  it('is null when there is no reading, with or without a timeseriesId', async () => {
    const data = await ok(`{ point(siteId: "pt", id: "VAV1_ZAT") { currentValue { value timestamp quality } }
      setpoint: point(siteId: "pt", id: "VAV1_SP") { currentValue { value } } }`);
    expect(data.point).toEqual([{ currentValue: null }]);
    expect(data.setpoint).toEqual([{ currentValue: null }]);
  });
});

describe('Point.equipment and equipmentId', () => {
  it('give the equipment the point belongs to, stated either way', async () => {
    expect(await point('VAV1_ZAT', 'equipmentId equipment { id name }')).toEqual({
      equipmentId: 'VAV1',
      equipment: { id: 'VAV1', name: 'VAV-1' },
    });
    expect(await point('CH1_Vendor', 'equipmentId equipment { id }')).toEqual({
      equipmentId: 'CH1',
      equipment: { id: 'CH1' },
    });
  });

  it('are "" and null for a point of a room or of a zone', async () => {
    expect(await point('RoomB_Hum', 'equipmentId equipment { id }')).toEqual({ equipmentId: '', equipment: null });
    expect(await point('Zone1_Temp', 'equipmentId equipment { id }')).toEqual({ equipmentId: '', equipment: null });
  });
});

describe('Point.location', () => {
  const locationOf = async (id: string) => (await point(id, 'location { id }')).location;

  it("is the point's own location when stated, over its equipment's", async () => {
    expect(await locationOf('FCU1_Remote')).toEqual({ id: 'RoomA' });
  });

  it('is the room or zone the point belongs to', async () => {
    expect(await locationOf('RoomB_Hum')).toEqual({ id: 'RoomB' });
    expect(await locationOf('Zone1_Temp')).toEqual({ id: 'Zone1' });
  });

  it("is the equipment's location otherwise", async () => {
    expect(await locationOf('VAV1_ZAT')).toEqual({ id: 'RoomA' });
    expect(await locationOf('FCU1_Occ')).toEqual({ id: 'RoomB' });
  });

  it('is null when none of those is known', async () => {
    expect(await locationOf('AHU1_SAT')).toBeNull();
  });
});

describe('point(is:)', () => {
  it('matches subclasses of Temperature_Sensor, old class names included', async () => {
    expect(await points('is: "Temperature_Sensor"')).toEqual([
      'AHU-1 SAT',
      'Chiller-1 CHWST',
      'Chiller-1 Leaving CHW Temp',
      'FCU-1 Remote Sensor',
      'VAV-1 Zone Temp',
      'Zone 1 Temp',
    ]);
  });

  it('matches subclasses of Air_Temperature_Sensor', async () => {
    expect(await points('is: "Air_Temperature_Sensor"')).toEqual([
      'AHU-1 SAT',
      'FCU-1 Remote Sensor',
      'VAV-1 Zone Temp',
      'Zone 1 Temp',
    ]);
  });

  it('matches a deprecated class and its replacement both ways', async () => {
    const chw = ['Chiller-1 CHWST', 'Chiller-1 Leaving CHW Temp'];
    expect(await points('is: "Leaving_Chilled_Water_Temperature_Sensor"')).toEqual(chw);
    expect(await points('is: "Chilled_Water_Supply_Temperature_Sensor"')).toEqual(chw);
    const setpoints = ['AHU-1 Legacy Setpoint', 'VAV-1 Zone Setpoint'];
    expect(await points('is: "Target_Zone_Air_Temperature_Setpoint"')).toEqual(setpoints);
    expect(await points('is: "Zone_Air_Temperature_Setpoint"')).toEqual(setpoints);
  });

  it('matches owl:equivalentClass (Discharge_Air_Temperature_Sensor = Supply_Air_Temperature_Sensor)', async () => {
    expect(await points('is: "Discharge_Air_Temperature_Sensor"')).toEqual(['AHU-1 SAT']);
  });

  it('matches broad kinds', async () => {
    expect(await points('is: "Setpoint"')).toEqual(['AHU-1 Legacy Setpoint', 'VAV-1 Zone Setpoint']);
    expect(await points('is: "Command"')).toEqual(['AHU-1 Enable', 'VAV-1 Damper Command']);
  });
});

describe('point(equipmentId:, equipmentIs:)', () => {
  it('equipmentId takes the points of one equipment, by id or full IRI', async () => {
    expect(await points('equipmentId: "VAV1"')).toEqual(VAV1_POINTS);
    expect(await points('equipmentId: "https://example.org/f#FCU1"')).toEqual(FCU1_POINTS);
  });

  it('equipmentIs filters by the class of the owning equipment, with subclasses', async () => {
    expect(await points('equipmentIs: "AHU"')).toEqual(AHU1_POINTS);
    expect(await points('equipmentIs: "Terminal_Unit"')).toEqual([...VAV1_POINTS, ...FCU1_POINTS].sort());
    expect(await points('equipmentIs: "Chiller"')).toEqual(CH1_POINTS);
  });

  it('combines equipmentIs with is and name', async () => {
    expect(await points('equipmentIs: "Terminal_Unit", is: "Temperature_Sensor"')).toEqual([
      'FCU-1 Remote Sensor',
      'VAV-1 Zone Temp',
    ]);
    expect(await points('equipmentIs: "AHU", name: "setpoint"')).toEqual(['AHU-1 Legacy Setpoint']);
  });
});

describe('point(zoneId:)', () => {
  it('takes points of the zone and of equipment directly feeding it', async () => {
    expect(await points('zoneId: "Zone1"')).toEqual([...VAV1_POINTS, 'Zone 1 Temp'].sort());
    expect(await points('zoneId: "https://example.org/f#Zone1"')).toEqual([...VAV1_POINTS, 'Zone 1 Temp'].sort());
  });

  it('combines with is', async () => {
    expect(await points('zoneId: "Zone1", is: "Temperature_Sensor"')).toEqual(['VAV-1 Zone Temp', 'Zone 1 Temp']);
  });
});

describe('point(systemId:)', () => {
  it("takes points of the system's members", async () => {
    expect(await points('systemId: "CHWS"')).toEqual(CH1_POINTS);
    expect(await points('systemId: "CHWS", is: "Sensor"')).toEqual(['Chiller-1 CHWST', 'Chiller-1 Leaving CHW Temp']);
  });
});

describe('point(hasProperty:, propertyValue:)', () => {
  it('filters by property name and value', async () => {
    expect(await points('hasProperty: "writable"')).toEqual(['AHU-1 Enable', 'FCU-1 Remote Sensor']);
    expect(await points('hasProperty: "valueType", propertyValue: "float"')).toEqual(['FCU-1 Remote Sensor']);
    expect(await points('propertyValue: "boolean"')).toEqual(['AHU-1 Enable']);
  });
});

describe('Zone.points', () => {
  it('lists points of the zone itself', async () => {
    const data = await ok('{ zone(siteId: "pt", id: "Zone1") { points { name } } }');
    expect(names(data.zone[0].points)).toEqual(['Zone 1 Temp']);
  });

  it('filters by class and name', async () => {
    const data = await ok(`{ zone(siteId: "pt", id: "Zone1") {
      sensors: points(is: "Temperature_Sensor") { name }
      none: points(is: "Setpoint") { name }
      exact: points(name: "Zone 1 Temp", nameMatch: EXACT) { name }
    } }`);
    expect(names(data.zone[0].sensors)).toEqual(['Zone 1 Temp']);
    expect(data.zone[0].none).toEqual([]);
    expect(names(data.zone[0].exact)).toEqual(['Zone 1 Temp']);
  });
});
