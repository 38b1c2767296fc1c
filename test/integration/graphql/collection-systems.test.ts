// Collections as systems (docs/brick-mapping.md, "Collections as systems") on
// fixtures/real-models/hot-water-loop.ttl: a brick:Hot_Water_Loop, which Brick 1.4 puts under
// brick:Collection beside brick:System, with equipment and sensors as its parts. Every answer is
// also compared with a plain SPARQL reference on the same fixture.
import { describe, expect, it } from 'vitest';
import { realModelSuite, sortedUris as uris } from '../../support/real-model-suite.ts';
import { REFERENCE_PATHS, referenceColumn, referenceIsA as isA } from '../../support/sparql-reference.ts';

const { reference, ok } = realModelSuite('hw', 'hot-water-loop');
const EX = 'https://example.org/hw#';
const { part: PART, point: POINT, located: LOCATED } = REFERENCE_PATHS;
/** A system or a collection (a loop). */
const isSystem = (v: string) => `{ ${isA(v, 'System')} } UNION { ${isA(v, 'Collection')} }`;
/** The members of `system` that are equipment. */
const equipmentOf = (system: string) => `SELECT DISTINCT ?e WHERE { ${system} ${PART} ?e . ${isA('?e', 'Equipment')} }`;
/** The points of `system`: its own, those that are its members, and those of its member equipment. */
const pointsOf = (system: string) => `SELECT DISTINCT ?p WHERE {
  { ${system} ${POINT} ?p } UNION { ${system} ${PART} ?p } UNION { ${system} ${PART} ?e . ${isA('?e', 'Equipment')} ?e ${POINT} ?p }
  ${isA('?p', 'Point')} }`;

const ids = (...local: string[]) => local.map((id) => EX + id).sort();

describe('a hot-water loop is a system', () => {
  it('is listed among the systems, with its Brick type', async () => {
    const data = await ok(
      '{ system(siteId: "hw") { uri } loop: system(siteId: "hw", name: "Hot Water Loop") { id type } }',
    );
    expect(uris(data.system)).toEqual(
      referenceColumn(reference, `SELECT DISTINCT ?s WHERE { ${isSystem('?s')} }`, 's'),
    );
    expect(uris(data.system)).toEqual(ids('HWL', 'Heating'));
    expect(data.loop).toEqual([{ id: 'HWL', type: 'Hot_Water_Loop' }]);
  });

  it('is found by its Brick classes', async () => {
    const data = await ok(
      '{ loop: system(siteId: "hw", is: "Loop") { id } water: system(siteId: "hw", is: "Hot_Water_Loop") { id } }',
    );
    expect(data).toEqual({ loop: [{ id: 'HWL' }], water: [{ id: 'HWL' }] });
  });

  it('is found by is: "System" too, so that the kind adds up', async () => {
    const data = await ok(
      '{ all: system(siteId: "hw") { uri } systems: system(siteId: "hw", is: "System") { uri } count: systemCount(siteId: "hw", is: "System") }',
    );
    expect(uris(data.systems)).toEqual(uris(data.all));
    expect(data.count).toBe(2);
  });

  it('has its member equipment, stated by hasPart or isPartOf, and not its sensor', async () => {
    const data = await ok('{ system(siteId: "hw", name: "Hot Water Loop") { equipment { uri } } }');
    expect(uris(data.system[0].equipment)).toEqual(ids('Boiler1', 'HX1', 'Pump1'));
    expect(uris(data.system[0].equipment)).toEqual(referenceColumn(reference, equipmentOf(`<${EX}HWL>`), 'e'));
  });

  it('has as points its own, its member sensors and its equipment’s', async () => {
    const data = await ok('{ system(siteId: "hw", name: "Hot Water Loop") { points { uri } } }');
    expect(uris(data.system[0].points)).toEqual(
      ids('Boiler1_Status', 'HWR_Temp', 'HWS_Setpoint', 'HWS_Temp', 'Pump1_Speed'),
    );
    expect(uris(data.system[0].points)).toEqual(referenceColumn(reference, pointsOf(`<${EX}HWL>`), 'p'));
  });

  it('answers systemId on the equipment and point roots as its own fields do', async () => {
    const data = await ok(
      '{ equipment(siteId: "hw", systemId: "HWL") { uri } point(siteId: "hw", systemId: "HWL") { uri } }',
    );
    expect(uris(data.equipment)).toEqual(referenceColumn(reference, equipmentOf(`<${EX}HWL>`), 'e'));
    expect(uris(data.point)).toEqual(referenceColumn(reference, pointsOf(`<${EX}HWL>`), 'p'));
  });

  it('checks membership by systemId for a point or equipment given by id as it finds it', async () => {
    const all = uris((await ok(`{ point(siteId: "hw") { uri } }`)).point);
    const aliases = all.map((uri, i) => `p${i}: point(siteId: "hw", id: "${uri}", systemId: "HWL") { uri }`);
    const data = await ok(`{ ${aliases.join(' ')} hx: equipment(siteId: "hw", id: "HX1", systemId: "HWL") { uri } }`);
    const members = all.filter((_, i) => data[`p${i}`].length === 1);
    expect(members).toEqual(referenceColumn(reference, pointsOf(`<${EX}HWL>`), 'p'));
    expect(uris(data.hx)).toEqual(ids('HX1'));
  });

  it('is among the systems of its equipment and of the building its equipment is in', async () => {
    const data = await ok(`{ equipment(siteId: "hw", id: "Boiler1") { systems { uri } }
      building(siteId: "hw") { systems(recursive: true) { uri } } }`);
    expect(uris(data.equipment[0].systems)).toEqual(
      referenceColumn(reference, `SELECT DISTINCT ?s WHERE { ?s ${PART} <${EX}Boiler1> . ${isSystem('?s')} }`, 's'),
    );
    expect(uris(data.equipment[0].systems)).toEqual(ids('HWL'));
    // Systems with a member among the equipment located in the building.
    expect(uris(data.building[0].systems)).toEqual(
      referenceColumn(
        reference,
        `SELECT DISTINCT ?s WHERE { ?e ${LOCATED} <${EX}Plant> . ?s ${PART} ?e . ${isSystem('?s')} }`,
        's',
      ),
    );
  });
});

describe('a system that has the loop as a sub-system', () => {
  it('takes the loop’s members and points only with recursive', async () => {
    const data = await ok(`{ system(siteId: "hw", name: "Heating Hot Water System", nameMatch: EXACT) {
      equipment { uri } points { uri }
      all: equipment(recursive: true) { uri } allPoints: points(recursive: true) { uri } }
      point(siteId: "hw", systemId: "Heating") { uri } }`);
    const [heating] = data.system;
    expect(heating.equipment).toEqual([]);
    expect(heating.points).toEqual([]);
    expect(data.point).toEqual([]);
    const below = `<${EX}Heating> ${PART}+ ?m .`;
    expect(uris(heating.all)).toEqual(
      referenceColumn(reference, `SELECT DISTINCT ?m WHERE { ${below} ${isA('?m', 'Equipment')} }`, 'm'),
    );
    expect(uris(heating.allPoints)).toEqual(
      referenceColumn(
        reference,
        `SELECT DISTINCT ?p WHERE { { <${EX}Heating> ${POINT} ?p } UNION { ${below} ?m ${POINT}? ?p } ${isA('?p', 'Point')} }`,
        'p',
      ),
    );
    expect(uris(heating.allPoints)).toEqual(
      ids('Boiler1_Status', 'HWR_Temp', 'HWS_Setpoint', 'HWS_Temp', 'Pump1_Speed'),
    );
  });
});
