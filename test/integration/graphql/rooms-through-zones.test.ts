// Location trees that pass through zones (docs/brick-mapping.md, "Location trees through zones") on
// fixtures/real-models/rooms-through-hvac-zones.ttl, where rooms reach their floor only through an
// HVAC zone. Every answer is also compared with a plain SPARQL reference on the same fixture.
import { describe, expect, it } from 'vitest';
import { names } from '../../support/graphql-suite.ts';
import { realModelSuite, sortedUris as uris } from '../../support/real-model-suite.ts';
import { REFERENCE_PATHS, referenceColumn, referenceIsA } from '../../support/sparql-reference.ts';

const { reference, ok } = realModelSuite('zoned', 'rooms-through-hvac-zones');
const EX = 'https://example.org/zoned#';

// The reference's vocabulary: a part link either way, and the kinds by the Brick hierarchy
// (brick:Zone is a brick:Location in Brick, but zones are no locations in the API).
const { part: PART, point: POINT, located: LOCATED } = REFERENCE_PATHS;
const isZone = (v: string) => referenceIsA(v, 'Zone');
const isLocation = (v: string) => `${referenceIsA(v, 'Location')} FILTER NOT EXISTS { ${isZone(v)} }`;
/** `child` is a location part of `whole`, directly or through a zone when it is part of no location directly. */
const childOf = (whole: string, child: string) => `
  { ${whole} ${PART} ${child} }
  UNION
  { ${whole} ${PART} ?via . ${isZone('?via')} ?via ${PART} ${child} .
    FILTER NOT EXISTS { ?direct ${PART} ${child} . ${isLocation('?direct')} } }
  ${isLocation(child)}`;

interface TreeNode {
  uri: string;
  name: string;
  parent: { uri: string } | null;
  locations: Array<{ uri: string }>;
}

/** The building's direct children, and every location under it with its parent and direct children, in one request. */
async function tree(): Promise<{ top: string[]; nodes: TreeNode[] }> {
  const data = await ok(`{ building(siteId: "zoned") {
    top: locations { uri }
    locations(recursive: true) { uri name parent { uri } locations { uri } } } }`);
  return { top: uris(data.building[0].top), nodes: data.building[0].locations };
}

describe('Location.locations through zones', () => {
  it('lists the rooms of a floor whose zones hold them, without the zones', async () => {
    const data = await ok('{ location(siteId: "zoned", locationId: "Floor1") { locations { name } } }');
    expect(names(data.location.locations)).toEqual(['Office 102', 'Room 101', 'Room 103']);
  });

  it('keeps a room that names its own floor under that floor, not under the building its lighting zone is part of', async () => {
    const data = await ok(`{ building(siteId: "zoned") { locations { name } }
      location(siteId: "zoned", locationId: "Floor2") { locations { name } } }`);
    expect(names(data.building[0].locations)).toEqual(['Floor 1', 'Floor 2']);
    expect(names(data.location.locations)).toEqual(['Room 201', 'Room 202']);
  });

  it('matches the reference for the direct children of every location', async () => {
    const { top, nodes } = await tree();
    const childrenIn = (uri: string) =>
      referenceColumn(reference, `SELECT DISTINCT ?c WHERE { ${childOf(`<${uri}>`, '?c')} }`, 'c');
    expect(top).toEqual(childrenIn(`${EX}Bldg`));
    for (const node of nodes) expect(uris(node.locations), node.uri).toEqual(childrenIn(node.uri));
    expect(nodes.map((n) => n.uri).sort()).toEqual(
      referenceColumn(reference, `SELECT DISTINCT ?l WHERE { <${EX}Bldg> ${PART}+ ?l . ${isLocation('?l')} }`, 'l'),
    );
  });

  it('agrees with recursive: every location under the building is a direct child of its parent, and no zone is among them', async () => {
    const { top, nodes } = await tree();
    const byUri = new Map(nodes.map((n) => [n.uri, n]));
    const childrenOf = (uri: string) => (uri === `${EX}Bldg` ? top : uris(byUri.get(uri)!.locations));
    for (const node of nodes) {
      // Floors name the building, which is a location too.
      expect(node.parent, node.name).not.toBeNull();
      expect(childrenOf(node.parent!.uri), node.name).toContain(node.uri);
    }
    // The closure of direct children from the building is the recursive answer.
    const reached = new Set<string>();
    const queue = childrenOf(`${EX}Bldg`);
    while (queue.length > 0) {
      const uri = queue.shift()!;
      if (!reached.has(uri)) queue.push(...childrenOf((reached.add(uri), uri)));
    }
    expect([...reached].sort()).toEqual(nodes.map((n) => n.uri).sort());
    expect(nodes.map((n) => n.name)).not.toContain('HVAC Zone North');
  });
});

describe('Location.parent through a zone', () => {
  it('is the floor for a room that is part of an HVAC zone of the floor, stated either way', async () => {
    const data = await ok(`{ r101: location(siteId: "zoned", locationId: "Room101") { parent { id } }
      r103: location(siteId: "zoned", locationId: "Room103") { parent { id } }
      r202: location(siteId: "zoned", locationId: "Room202") { parent { id } } }`);
    expect(data.r101.parent).toEqual({ id: 'Floor1' });
    expect(data.r103.parent).toEqual({ id: 'Floor1' });
    expect(data.r202.parent).toEqual({ id: 'Floor2' });
  });

  it('matches the reference for every location', async () => {
    const pairs = (await tree()).nodes.map((n) => `${n.uri} ${n.parent?.uri ?? ''}`).sort();
    // The whole it is part of directly, else the location its zone is part of.
    const expected = referenceColumn(
      reference,
      `SELECT (CONCAT(STR(?l), " ", STR(?p)) AS ?pair) WHERE {
        <${EX}Bldg> ${PART}+ ?l . ${isLocation('?l')}
        { ?p ${PART} ?l . ${isLocation('?p')} }
        UNION
        { ?p ${PART} ?z . ${isZone('?z')} ?z ${PART} ?l . ${isLocation('?p')}
          FILTER NOT EXISTS { ?direct ${PART} ?l . ${isLocation('?direct')} } }
      }`,
      'pair',
    );
    expect(pairs).toEqual(expected);
  });
});

describe('zones and contents of a location tree through zones', () => {
  it('lists the zones of a floor and of a room, and no location among them', async () => {
    const data = await ok(`{ floor: location(siteId: "zoned", locationId: "Floor1") { zones { uri } }
      room: location(siteId: "zoned", locationId: "Room101") { zones { uri } } }`);
    const zonesOf = (l: string) =>
      referenceColumn(
        reference,
        `SELECT DISTINCT ?z WHERE { { <${EX}${l}> ${PART} ?z } UNION { ?z ${PART} <${EX}${l}> } ${isZone('?z')} }`,
        'z',
      );
    expect(uris(data.floor.zones)).toEqual([`${EX}ZoneNorth`, `${EX}ZoneSouth`]);
    expect(uris(data.floor.zones)).toEqual(zonesOf('Floor1'));
    expect(uris(data.room.zones)).toEqual(zonesOf('Room101'));
  });

  it('finds equipment and points in rooms under a floor through its zones, by locationId and locationName', async () => {
    const data = await ok(`{ equipment(siteId: "zoned", locationId: "Floor1") { uri }
      point(siteId: "zoned", locationName: "Floor 1", nameMatch: EXACT) { uri }
      location(siteId: "zoned", locationId: "Floor1") { equipment(recursive: true) { uri } points(recursive: true) { uri } } }`);
    const under = `<${EX}Floor1> ${PART}* ?l .`;
    const equipment = referenceColumn(
      reference,
      `SELECT DISTINCT ?e WHERE { ${under} ?e ${LOCATED} ?l . ${referenceIsA('?e', 'Equipment')} }`,
      'e',
    );
    // A point located in it, a point of it, or a point of equipment located in it.
    const points = referenceColumn(
      reference,
      `SELECT DISTINCT ?p WHERE { ${under} { ?p ${LOCATED} ?l } UNION { ?l ${POINT} ?p } UNION { ?e ${LOCATED} ?l . ?e ${POINT} ?p } ${referenceIsA('?p', 'Point')} }`,
      'p',
    );
    expect(equipment).toEqual(['AHU1', 'VAV101', 'VAV103'].map((id) => EX + id));
    expect(uris(data.equipment)).toEqual(equipment);
    expect(uris(data.location.equipment)).toEqual(equipment);
    expect(points).toEqual(['AHU1_SAT', 'Room102_Temp', 'VAV101_Flow', 'VAV103_Damper'].map((id) => EX + id));
    expect(uris(data.point)).toEqual(points);
    expect(uris(data.location.points)).toEqual(points);
  });

  it('finds the zones under a floor by zone(locationId:)', async () => {
    const data = await ok('{ zone(siteId: "zoned", locationId: "Floor1") { uri } }');
    const expected = referenceColumn(
      reference,
      `SELECT DISTINCT ?z WHERE { <${EX}Floor1> ${PART}* ?l . { ?l ${PART} ?z } UNION { ?z ${PART} ?l } ${isZone('?z')} }`,
      'z',
    );
    expect(uris(data.zone)).toEqual(expected);
  });
});
