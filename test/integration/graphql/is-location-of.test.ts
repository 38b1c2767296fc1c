// isLocationOf (brick: and rec:) works like hasLocation everywhere (docs/brick-mapping.md,
// `isLocationOf`), on fixtures/real-models/brick-1.0-is-location-of.ttl,
// a Brick 1.0-style model that states no hasLocation at all. Each answer is also compared with a
// plain SPARQL reference over the fixture that reads the links only the way the model states them.
import { describe, expect, it } from 'vitest';
import { names } from '../../support/graphql-suite.ts';
import { realModelSuite } from '../../support/real-model-suite.ts';
import { referenceColumn } from '../../support/sparql-reference.ts';

const { reference, ok } = realModelSuite('soda', 'brick-1.0-is-location-of');
/** The plain SPARQL reference's answer: the sorted values of `?name`. */
const expected = (where: string) => referenceColumn(reference, `SELECT ?name WHERE { ${where} }`, 'name');

// The reference's vocabulary: the location link as the model states it, and the kinds by class.
const HOLDS = '(brick:isLocationOf|rec:isLocationOf)';
const EQUIPMENT = 'a/rdfs:subClassOf* brick:Equipment';
const POINT = 'a/rdfs:subClassOf* brick:Point';

/** The named location's field `field` (with `args`), as sorted names. */
async function under(locationId: string, field: string, args = ''): Promise<string[]> {
  const data = await ok(
    `{ location(siteId: "soda", locationId: "${locationId}") { ${field}${args ? `(${args})` : ''} { name } } }`,
  );
  return names(data.location[field]);
}

describe('Building and Location fields', () => {
  it('equipment: what a location isLocationOf, with recursive what every location under it is', async () => {
    expect(await under('Floor-1', 'equipment')).toEqual(['AHU-1']);
    expect(await under('Floor-1', 'equipment')).toEqual(
      expected(`<https://example.org/soda#Floor-1> ${HOLDS} ?e . ?e ${EQUIPMENT} ; rdfs:label ?name`),
    );
    const data = await ok('{ building(siteId: "soda") { equipment(recursive: true) { name } } }');
    expect(names(data.building[0].equipment)).toEqual(['AHU-1', 'VAV-101', 'VAV-102', 'VAV-201', 'VAV-202']);
    expect(names(data.building[0].equipment)).toEqual(
      expected(
        `<https://example.org/soda#Soda> brick:hasPart* ?l . ?l ${HOLDS} ?e . ?e ${EQUIPMENT} ; rdfs:label ?name`,
      ),
    );
  });

  it('equipment follows rec:isLocationOf, and a location of a class outside Brick known by its isLocationOf', async () => {
    expect(await under('Floor-2', 'equipment')).toEqual(['VAV-201']);
    expect(await under('Floor-2', 'equipment', 'recursive: true')).toEqual(['VAV-201', 'VAV-202']);
    const wing = await ok(
      '{ location(siteId: "soda", locationId: "Wing-2E") { name type parent { name } equipment { name } } }',
    );
    expect(wing.location).toEqual({
      name: 'Wing 2E',
      type: 'Wing',
      parent: { name: 'Floor 2' },
      equipment: [{ name: 'VAV-202' }],
    });
    const floor = await ok('{ location(siteId: "soda", locationId: "Floor-2") { locations { name } } }');
    expect(names(floor.location.locations)).toEqual(['Wing 2E']);
  });

  it('points: a location’s own points by isLocationOf, and its equipment’s', async () => {
    expect(await under('Room-101', 'points')).toEqual(['Room 101 Temp', 'VAV-101 Airflow']);
    const data = await ok('{ building(siteId: "soda") { points(recursive: true) { name } } }');
    const points = names(data.building[0].points);
    expect(points).toEqual(['AHU-1 SAT', 'Room 101 Temp', 'VAV-101 Airflow', 'VAV-201 Damper', 'VAV-202 Airflow']);
    expect(points).toEqual(
      expected(
        `<https://example.org/soda#Soda> brick:hasPart* ?l . ?l ${HOLDS}/(^brick:isPointOf)? ?p . ?p ${POINT} ; rdfs:label ?name`,
      ),
    );
  });

  it('systems: the systems of the equipment located in the building', async () => {
    const data = await ok('{ building(siteId: "soda") { systems(recursive: true) { name } } }');
    expect(names(data.building[0].systems)).toEqual(['HVAC System 1']);
  });
});

describe('Equipment.location and Point.location', () => {
  it('Equipment.location is what isLocationOf it, else the location of its whole', async () => {
    const data = await ok('{ equipment(siteId: "soda") { name location { name } } }');
    const located = data.equipment.map((e: any) => `${e.name} @ ${e.location?.name ?? '-'}`).sort();
    expect(located).toEqual([
      'AHU-1 @ Floor 1',
      'AHU-1 Supply Fan @ Floor 1',
      'VAV-101 @ Room 101',
      'VAV-102 @ Room 102',
      'VAV-201 @ Floor 2',
      'VAV-202 @ Wing 2E',
    ]);
    expect(located).toEqual(
      expected(`?e ${EQUIPMENT} ; rdfs:label ?n . ?l ${HOLDS} ?w . ?w brick:hasPart* ?e . ?l rdfs:label ?ln
        FILTER NOT EXISTS { ?l2 ${HOLDS} ?e FILTER(?l2 != ?l) }
        BIND(CONCAT(?n, " @ ", ?ln) AS ?name)`),
    );
  });

  it('Point.location is its own isLocationOf link, else its equipment’s location', async () => {
    const data = await ok('{ point(siteId: "soda") { name location { name } } }');
    const located = data.point.map((p: any) => `${p.name} @ ${p.location?.name ?? '-'}`).sort();
    expect(located).toEqual([
      'AHU-1 SAT @ Floor 1',
      'Room 101 Temp @ Room 101',
      'VAV-101 Airflow @ Room 101',
      'VAV-201 Damper @ Floor 2',
      'VAV-202 Airflow @ Wing 2E',
    ]);
    expect(located).toEqual(
      expected(`?p ${POINT} ; rdfs:label ?n . { ?l ${HOLDS} ?p } UNION { ?p brick:isPointOf ?q . ?l ${HOLDS} ?q } ?l rdfs:label ?ln
        BIND(CONCAT(?n, " @ ", ?ln) AS ?name)`),
    );
  });
});

describe('root filters', () => {
  it('equipment(locationId:) and equipment(locationName:) take what is anywhere under the location', async () => {
    const byId = await ok('{ equipment(siteId: "soda", locationId: "Floor-1") { name } }');
    expect(names(byId.equipment)).toEqual(['AHU-1', 'VAV-101', 'VAV-102']);
    expect(names(byId.equipment)).toEqual(
      expected(
        `<https://example.org/soda#Floor-1> brick:hasPart* ?l . ?l ${HOLDS} ?e . ?e ${EQUIPMENT} ; rdfs:label ?name`,
      ),
    );
    const byName = await ok('{ equipment(siteId: "soda", locationName: "Floor 2", nameMatch: EXACT) { name } }');
    expect(names(byName.equipment)).toEqual(['VAV-201', 'VAV-202']);
  });

  it('point(locationId:) takes the location’s points and its equipment’s, under it too', async () => {
    const data = await ok('{ point(siteId: "soda", locationId: "Floor-1") { name } }');
    expect(names(data.point)).toEqual(['AHU-1 SAT', 'Room 101 Temp', 'VAV-101 Airflow']);
    expect(names(data.point)).toEqual(
      expected(
        `<https://example.org/soda#Floor-1> brick:hasPart* ?l . ?l ${HOLDS}/(^brick:isPointOf)? ?p . ?p ${POINT} ; rdfs:label ?name`,
      ),
    );
  });
});
