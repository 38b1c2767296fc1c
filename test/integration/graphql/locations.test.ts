// Acceptance tests for buildings and locations (docs/brick-mapping.md, "Rule by rule") on
// fixtures/small/locations.ttl, where each relationship is stated in one direction only.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, names, smallFixture } from '../../support/graphql-suite.ts';

const { ok } = graphqlSuite({ loc: smallFixture('locations') });

/** The named location's field `field`, selected with `args`, as sorted names. */
async function under(locationId: string, field: string, args = ''): Promise<string[]> {
  const sel = args ? `${field}(${args})` : field;
  const data = await ok(`{ location(siteId: "loc", locationId: "${locationId}") { ${sel} { name } } }`);
  return names(data.location[field]);
}

/** Headquarters' field `field`, selected with `args`, as sorted names. */
async function ofHq(field: string, args = ''): Promise<string[]> {
  const sel = args ? `${field}(${args})` : field;
  const data = await ok(`{ building(siteId: "loc", id: "HQ") { ${sel} { name } } }`);
  expect(data.building).toHaveLength(1);
  return names(data.building[0][field]);
}

const HQ_EQUIPMENT = ['AHU-1', 'Boiler-1', 'FCU-201', 'VAV-101', 'VAV-102'];
const HQ_POINTS = [
  'AHU-1 SAT',
  'Boiler-1 HWST',
  'FCU-201 Fan Status',
  'Outside Air Temp',
  'Room 101 Temp',
  'Room 102 Lux',
  'Room 201 CO2',
  'VAV-101 Airflow',
  'VAV-102 Damper',
];

describe('building', () => {
  it('lists every building of the site, rec:Building and brick:Building alike', async () => {
    const data = await ok('{ building(siteId: "loc") { name } }');
    expect(names(data.building)).toEqual(['Annex', 'Headquarters']);
  });

  it('returns uri, id, name and type', async () => {
    const data = await ok('{ building(siteId: "loc", id: "HQ") { uri id name type ifcId } }');
    expect(data.building).toEqual([
      { uri: 'https://example.org/f#HQ', id: 'HQ', name: 'Headquarters', type: 'Building', ifcId: null },
    ]);
  });

  it('finds a building by full IRI as well as by id', async () => {
    const data = await ok('{ building(siteId: "loc", id: "https://example.org/f#Annex") { id } }');
    expect(data.building).toEqual([{ id: 'Annex' }]);
  });

  it('returns an empty list for an unknown id', async () => {
    const data = await ok('{ building(siteId: "loc", id: "Nowhere") { id } }');
    expect(data.building).toEqual([]);
  });

  it('matches name case-insensitively by substring by default', async () => {
    const data = await ok('{ building(siteId: "loc", name: "HEAD") { name } }');
    expect(names(data.building)).toEqual(['Headquarters']);
  });

  it('matches name exactly and case-sensitively with nameMatch EXACT', async () => {
    const exact = await ok('{ building(siteId: "loc", name: "Annex", nameMatch: EXACT) { name } }');
    expect(names(exact.building)).toEqual(['Annex']);
    const wrongCase = await ok('{ building(siteId: "loc", name: "annex", nameMatch: EXACT) { name } }');
    expect(wrongCase.building).toEqual([]);
    const partial = await ok('{ building(siteId: "loc", name: "Head", nameMatch: EXACT) { name } }');
    expect(partial.building).toEqual([]);
  });

  it('has an empty properties list when only a label is stated', async () => {
    const data = await ok('{ building(siteId: "loc", id: "HQ") { properties { name value unit } } }');
    expect(data.building[0].properties).toEqual([]);
  });
});

describe('Building.locations', () => {
  it('lists direct child locations only by default, excluding zones', async () => {
    expect(await ofHq('locations')).toEqual(['Floor 1', 'Floor 2']);
    expect(await ofHq('locations', 'recursive: false')).toEqual(['Floor 1', 'Floor 2']);
  });

  it('follows hasPart and isPartOf transitively with recursive', async () => {
    expect(await ofHq('locations', 'recursive: true')).toEqual([
      'Floor 1',
      'Floor 2',
      'Room 101',
      'Room 102',
      'Room 201',
    ]);
  });

  it('filters by class, matching brick: and rec: classes alike', async () => {
    const rooms = ['Room 101', 'Room 102', 'Room 201'];
    expect(await ofHq('locations', 'recursive: true, is: "Room"')).toEqual(rooms);
    expect(await ofHq('locations', 'recursive: true, is: "rec:Room"')).toEqual(rooms);
    expect(await ofHq('locations', 'recursive: true, is: "https://w3id.org/rec#Room"')).toEqual(rooms);
    expect(await ofHq('locations', 'is: "Floor"')).toEqual(['Floor 1', 'Floor 2']);
    expect(await ofHq('locations', 'is: "rec:Level"')).toEqual(['Floor 1', 'Floor 2']);
  });

  it('applies is to direct children only without recursive', async () => {
    expect(await ofHq('locations', 'is: "Room"')).toEqual([]);
  });

  it('filters by name, CONTAINS by default and EXACT on request', async () => {
    expect(await ofHq('locations', 'recursive: true, name: "room 1"')).toEqual(['Room 101', 'Room 102']);
    expect(await ofHq('locations', 'recursive: true, name: "Room 101", nameMatch: EXACT')).toEqual(['Room 101']);
    expect(await ofHq('locations', 'recursive: true, name: "room 101", nameMatch: EXACT')).toEqual([]);
  });
});

describe('Building.equipment', () => {
  it('lists equipment located on the building itself by default', async () => {
    expect(await ofHq('equipment')).toEqual(['Boiler-1']);
  });

  it('lists equipment anywhere in the building with recursive, located either way', async () => {
    expect(await ofHq('equipment', 'recursive: true')).toEqual(HQ_EQUIPMENT);
  });

  it('filters by class including subclasses', async () => {
    expect(await ofHq('equipment', 'recursive: true, is: "VAV"')).toEqual(['VAV-101', 'VAV-102']);
    expect(await ofHq('equipment', 'recursive: true, is: "Terminal_Unit"')).toEqual(['FCU-201', 'VAV-101', 'VAV-102']);
  });

  it('filters by name', async () => {
    expect(await ofHq('equipment', 'recursive: true, name: "vav"')).toEqual(['VAV-101', 'VAV-102']);
    expect(await ofHq('equipment', 'recursive: true, name: "VAV-101", nameMatch: EXACT')).toEqual(['VAV-101']);
  });
});

describe('Building.points', () => {
  it('lists points of the building and of its own equipment by default', async () => {
    expect(await ofHq('points')).toEqual(['Boiler-1 HWST', 'Outside Air Temp']);
  });

  it('lists points of every location and equipment under the building with recursive', async () => {
    expect(await ofHq('points', 'recursive: true')).toEqual(HQ_POINTS);
  });

  it('filters by class including subclasses', async () => {
    expect(await ofHq('points', 'recursive: true, is: "Temperature_Sensor"')).toEqual([
      'AHU-1 SAT',
      'Boiler-1 HWST',
      'Outside Air Temp',
      'Room 101 Temp',
    ]);
    expect(await ofHq('points', 'recursive: true, is: "Air_Temperature_Sensor"')).toEqual([
      'AHU-1 SAT',
      'Outside Air Temp',
      'Room 101 Temp',
    ]);
  });

  it('filters by name', async () => {
    expect(await ofHq('points', 'recursive: true, name: "room"')).toEqual([
      'Room 101 Temp',
      'Room 102 Lux',
      'Room 201 CO2',
    ]);
  });
});

describe('Building.zones', () => {
  it('lists zones linked to the building itself by default', async () => {
    expect(await ofHq('zones')).toEqual(['Zone A']);
  });

  it('adds zones linked to any location under the building with recursive, without duplicates', async () => {
    expect(await ofHq('zones', 'recursive: true')).toEqual(['Zone A', 'Zone B']);
  });

  it('filters by class and name', async () => {
    expect(await ofHq('zones', 'recursive: true, is: "HVAC_Zone"')).toEqual(['Zone A', 'Zone B']);
    expect(await ofHq('zones', 'recursive: true, name: "zone b"')).toEqual(['Zone B']);
    expect(await ofHq('zones', 'recursive: true, name: "Zone", nameMatch: EXACT')).toEqual([]);
  });
});

describe('Building.systems', () => {
  it("lists systems with a member among the building's own equipment by default", async () => {
    expect(await ofHq('systems')).toEqual(['Hot Water System']);
  });

  it('lists systems with a member anywhere in the building with recursive', async () => {
    expect(await ofHq('systems', 'recursive: true')).toEqual(['Air System', 'Hot Water System']);
  });

  it('filters by class and name', async () => {
    expect(await ofHq('systems', 'recursive: true, is: "Water_System"')).toEqual(['Hot Water System']);
    expect(await ofHq('systems', 'recursive: true, name: "AIR"')).toEqual(['Air System']);
  });
});

describe('location(locationId:)', () => {
  it('finds a location by id and by full IRI', async () => {
    const byId = await ok('{ location(siteId: "loc", locationId: "R101") { uri id name type } }');
    expect(byId.location).toEqual({
      uri: 'https://example.org/f#R101',
      id: 'R101',
      name: 'Room 101',
      type: 'Room',
    });
    const byIri = await ok('{ location(siteId: "loc", locationId: "https://example.org/f#R101") { id } }');
    expect(byIri.location).toEqual({ id: 'R101' });
  });

  it('gives the asserted class as type: Level for rec:Level, Floor for brick:Floor', async () => {
    const f1 = await ok('{ location(siteId: "loc", locationId: "F1") { type } }');
    const f2 = await ok('{ location(siteId: "loc", locationId: "F2") { type } }');
    expect([f1.location.type, f2.location.type]).toEqual(['Level', 'Floor']);
  });

  it('finds a building as a location', async () => {
    const data = await ok('{ location(siteId: "loc", locationId: "HQ") { id name } }');
    expect(data.location).toEqual({ id: 'HQ', name: 'Headquarters' });
  });

  it('returns null, not an error, for an unknown id', async () => {
    const data = await ok('{ location(siteId: "loc", locationId: "Nowhere") { id } }');
    expect(data.location).toBeNull();
  });

  it('returns null for the id of an entity that is not a location', async () => {
    const data = await ok('{ location(siteId: "loc", locationId: "VAV101") { id } }');
    expect(data.location).toBeNull();
  });
});

describe('Location.parent', () => {
  it('reads isPartOf and hasPart alike', async () => {
    const r101 = await ok('{ location(siteId: "loc", locationId: "R101") { parent { id name } } }');
    expect(r101.location.parent).toEqual({ id: 'F1', name: 'Floor 1' });
    const r102 = await ok('{ location(siteId: "loc", locationId: "R102") { parent { id } } }');
    expect(r102.location.parent).toEqual({ id: 'F1' });
  });

  it('is the building for a floor', async () => {
    const data = await ok('{ location(siteId: "loc", locationId: "F2") { parent { id name } } }');
    expect(data.location.parent).toEqual({ id: 'HQ', name: 'Headquarters' });
  });

  it('is the floor, not the zone, for a room that is part of both', async () => {
    const data = await ok('{ location(siteId: "loc", locationId: "R201") { parent { id } } }');
    expect(data.location.parent).toEqual({ id: 'F2' });
  });

  it('is null for a building', async () => {
    const data = await ok('{ location(siteId: "loc", locationId: "HQ") { parent { id } } }');
    expect(data.location.parent).toBeNull();
  });
});

describe('Location.locations', () => {
  it('lists children stated by either direction', async () => {
    expect(await under('F1', 'locations')).toEqual(['Room 101', 'Room 102']);
  });

  it('is empty for a room', async () => {
    expect(await under('R101', 'locations')).toEqual([]);
  });

  it('follows the tree with recursive and filters with is and name', async () => {
    expect(await under('HQ', 'locations', 'recursive: true, is: "Floor", name: "2"')).toEqual(['Floor 2']);
    expect(await under('F2', 'locations', 'recursive: true')).toEqual(['Room 201']);
  });
});

describe('Location.equipment', () => {
  it('lists equipment located directly in the location by default', async () => {
    expect(await under('F1', 'equipment')).toEqual(['AHU-1']);
  });

  it('reads isLocationOf as well as hasLocation', async () => {
    expect(await under('R102', 'equipment')).toEqual(['VAV-102']);
  });

  it('includes equipment of locations below with recursive', async () => {
    expect(await under('F1', 'equipment', 'recursive: true')).toEqual(['AHU-1', 'VAV-101', 'VAV-102']);
  });

  it('filters by class and name', async () => {
    expect(await under('F1', 'equipment', 'recursive: true, is: "VAV"')).toEqual(['VAV-101', 'VAV-102']);
    expect(await under('F1', 'equipment', 'recursive: true, name: "102"')).toEqual(['VAV-102']);
  });
});

describe('Location.points', () => {
  it('lists points of the room, of its equipment, and located in it', async () => {
    expect(await under('R101', 'points')).toEqual(['Room 101 Temp', 'VAV-101 Airflow']);
    expect(await under('R102', 'points')).toEqual(['Room 102 Lux', 'VAV-102 Damper']);
    expect(await under('R201', 'points')).toEqual(['FCU-201 Fan Status', 'Room 201 CO2']);
  });

  it('lists only points of the floor and its own equipment by default', async () => {
    expect(await under('F1', 'points')).toEqual(['AHU-1 SAT']);
  });

  it('includes points of rooms and their equipment with recursive', async () => {
    expect(await under('F1', 'points', 'recursive: true')).toEqual([
      'AHU-1 SAT',
      'Room 101 Temp',
      'Room 102 Lux',
      'VAV-101 Airflow',
      'VAV-102 Damper',
    ]);
  });

  it('filters by class and name', async () => {
    expect(await under('F1', 'points', 'recursive: true, is: "Temperature_Sensor"')).toEqual([
      'AHU-1 SAT',
      'Room 101 Temp',
    ]);
    expect(await under('F1', 'points', 'recursive: true, name: "VAV-102 Damper", nameMatch: EXACT')).toEqual([
      'VAV-102 Damper',
    ]);
  });
});

describe('Location.zones', () => {
  it('lists zones that have the room as a part, stated either way', async () => {
    expect(await under('R101', 'zones')).toEqual(['Zone A']);
    expect(await under('R201', 'zones')).toEqual(['Zone B']);
  });

  it('is empty for a floor no zone is linked to', async () => {
    expect(await under('F1', 'zones')).toEqual([]);
  });
});

describe('Equipment.location and Point.location in a building', () => {
  it('reads the equipment location from either direction', async () => {
    const data = await ok('{ equipment(siteId: "loc", name: "VAV-10") { name location { id } } }');
    const byName = Object.fromEntries(data.equipment.map((e: any) => [e.name, e.location.id]));
    expect(byName).toEqual({ 'VAV-101': 'R101', 'VAV-102': 'R102' });
  });

  it('gives a point of the building the building as location', async () => {
    const data = await ok('{ point(siteId: "loc", name: "Outside Air Temp") { location { id } } }');
    expect(data.point).toEqual([{ location: { id: 'HQ' } }]);
  });
});

describe('equipment(locationId:, locationName:)', () => {
  const equipment = async (args: string) =>
    names((await ok(`{ equipment(siteId: "loc", ${args}) { name } }`)).equipment);

  it('matches equipment located in the location or anywhere under it', async () => {
    expect(await equipment('locationId: "F1"')).toEqual(['AHU-1', 'VAV-101', 'VAV-102']);
    expect(await equipment('locationId: "R102"')).toEqual(['VAV-102']);
    expect(await equipment('locationId: "HQ"')).toEqual(HQ_EQUIPMENT);
  });

  it('accepts a full IRI as locationId', async () => {
    expect(await equipment('locationId: "https://example.org/f#F1"')).toEqual(['AHU-1', 'VAV-101', 'VAV-102']);
  });

  it('returns an empty list for an unknown locationId', async () => {
    expect(await equipment('locationId: "Nowhere"')).toEqual([]);
  });

  it('matches every location whose name contains locationName, case-insensitively', async () => {
    expect(await equipment('locationName: "room 10"')).toEqual(['VAV-101', 'VAV-102']);
    expect(await equipment('locationName: "Floor"')).toEqual(['AHU-1', 'Annex VAV', 'FCU-201', 'VAV-101', 'VAV-102']);
    expect(await equipment('locationName: "Nowhere"')).toEqual([]);
  });

  it('matches locationName exactly with nameMatch EXACT', async () => {
    expect(await equipment('locationName: "Floor 1", nameMatch: EXACT')).toEqual(['AHU-1', 'VAV-101', 'VAV-102']);
    expect(await equipment('locationName: "floor 1", nameMatch: EXACT')).toEqual([]);
  });

  it('combines locationName with name and is', async () => {
    expect(await equipment('locationName: "Floor 1", nameMatch: EXACT, name: "VAV-101"')).toEqual(['VAV-101']);
    expect(await equipment('locationName: "Floor", is: "Terminal_Unit"')).toEqual([
      'Annex VAV',
      'FCU-201',
      'VAV-101',
      'VAV-102',
    ]);
    expect(await equipment('locationId: "HQ", is: "Boiler"')).toEqual(['Boiler-1']);
  });
});

describe('point(locationId:, locationName:)', () => {
  const points = async (args: string) => names((await ok(`{ point(siteId: "loc", ${args}) { name } }`)).point);

  it('matches points of the location, of its equipment, and located in it', async () => {
    expect(await points('locationId: "R101"')).toEqual(['Room 101 Temp', 'VAV-101 Airflow']);
    expect(await points('locationId: "R102"')).toEqual(['Room 102 Lux', 'VAV-102 Damper']);
  });

  it('matches points anywhere under the location', async () => {
    expect(await points('locationId: "F2"')).toEqual(['FCU-201 Fan Status', 'Room 201 CO2']);
    expect(await points('locationId: "HQ"')).toEqual(HQ_POINTS);
  });

  it('matches by locationName', async () => {
    expect(await points('locationName: "Room 2"')).toEqual(['FCU-201 Fan Status', 'Room 201 CO2']);
  });

  it('combines locationName with equipmentIs and is', async () => {
    expect(await points('locationName: "Floor 1", nameMatch: EXACT, equipmentIs: "VAV", is: "Sensor"')).toEqual([
      'VAV-101 Airflow',
    ]);
    expect(await points('locationName: "Floor", equipmentIs: "Terminal_Unit"')).toEqual([
      'Annex VAV Airflow',
      'FCU-201 Fan Status',
      'VAV-101 Airflow',
      'VAV-102 Damper',
    ]);
  });
});

describe('zone(locationId:)', () => {
  const zones = async (args: string) => names((await ok(`{ zone(siteId: "loc", ${args}) { name } }`)).zone);

  it('matches zones linked to the location or to any location under it', async () => {
    expect(await zones('locationId: "R201"')).toEqual(['Zone B']);
    expect(await zones('locationId: "F1"')).toEqual(['Zone A']);
    expect(await zones('locationId: "F2"')).toEqual(['Zone B']);
    expect(await zones('locationId: "HQ"')).toEqual(['Zone A', 'Zone B']);
  });
});

describe('Zone.locations', () => {
  // docs/brick-mapping.md, `Zone.locations`: read `hasPart` in both directions, the mirror of Building.zones and
  // Location.zones: the zone's rooms, and the building that has the zone as a part.
  it('lists locations linked to the zone by hasPart in either direction, however stated', async () => {
    const data = await ok('{ zone(siteId: "loc") { name locations { name } } }');
    const byZone = Object.fromEntries(data.zone.map((z: any) => [z.name, names(z.locations)]));
    expect(byZone).toEqual({ 'Zone A': ['Headquarters', 'Room 101', 'Room 102'], 'Zone B': ['Room 201'] });
  });
});

describe('rec: relationship predicates', () => {
  it('reads rec:hasPart, rec:isPartOf, rec:locatedIn and rec:hasPoint like their brick: equivalents', async () => {
    const data = await ok(`{
      location(siteId: "loc", locationId: "Annex") {
        locations(recursive: true) { name }
        equipment(recursive: true) { name points { name } }
      }
      room: location(siteId: "loc", locationId: "AR1") { parent { name } }
    }`);
    expect(names(data.location.locations)).toEqual(['Annex Floor 1', 'Annex Room']);
    expect(data.location.equipment).toEqual([{ name: 'Annex VAV', points: [{ name: 'Annex VAV Airflow' }] }]);
    expect(data.room.parent).toEqual({ name: 'Annex Floor 1' });
  });
});
