// Ids that tell entities apart (docs/brick-mapping.md, "Ids"): on a portfolio that names
// its IRIs per building (fixtures/real-models/per-building-iris.ttl), every root query and relation
// field answers one id per entity, each id selects its entity back through the argument that takes
// it, and the full IRI does too. A site whose local names are all unique keeps them as its ids.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, smallFixture } from '../../support/graphql-suite.ts';
import { realModel } from '../../support/real-model-suite.ts';
import { referenceColumn, referenceStore } from '../../support/sparql-reference.ts';

const PORTFOLIO = realModel('per-building-iris');
const UNIQUE = smallFixture('locations');

const P = 'https://example.org/portfolio/';
const AX = 'https://example.org/annex/b1/';

const { ok } = graphqlSuite({ pb: PORTFOLIO, uniq: UNIQUE });

type Entity = { uri: string; id: string };
const uris = (list: Entity[]) => list.map((e) => e.uri).sort();
const byUri = (list: Entity[]) => Object.fromEntries(list.map((e) => [e.uri, e.id]));

/** Every object with a uri and an id anywhere in an answer. */
function entitiesIn(value: unknown, found: Entity[] = []): Entity[] {
  if (Array.isArray(value)) for (const item of value) entitiesIn(item, found);
  else if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.uri === 'string' && typeof object.id === 'string') found.push({ uri: object.uri, id: object.id });
    for (const child of Object.values(object)) entitiesIn(child, found);
  }
  return found;
}

/** The site's entities as the reference sees them: typed subjects, and the untyped ends of point and location links. */
const ENTITIES = `SELECT DISTINCT ?e WHERE {
  { ?e a ?t } UNION { ?e brick:hasPoint ?x } UNION { ?x brick:isPointOf ?e } UNION { ?x brick:hasPoint ?e } UNION { ?e brick:isPointOf ?x }
  UNION { ?x brick:hasLocation ?e } FILTER(isIRI(?e)) FILTER(!STRSTARTS(STR(?e), "https://brickschema.org/") && !STRSTARTS(STR(?e), "https://w3id.org/rec#") && !STRSTARTS(STR(?e), "urn:bkg:")) }`;

describe('ids on a portfolio whose IRIs are named per building', () => {
  const reference = referenceStore(PORTFOLIO);
  const entities = referenceColumn(reference, ENTITIES, 'e');
  /** True when no other entity of the site ends with `id` right after a /, # or :. */
  const namesOnly = (id: string, uri: string) =>
    entities.every(
      (other) => other === uri || !(other.endsWith(id) && '/#:'.includes(other[other.length - id.length - 1] ?? '')),
    );

  it('answers the short local name where it is unique, and a longer end of the IRI where it is shared', async () => {
    const data = await ok('{ equipment(siteId: "pb") { uri id } }');
    expect(byUri(data.equipment)).toEqual({
      [`${AX}ahu-1`]: 'annex/b1/ahu-1',
      [`${P}b1/ahu-1`]: 'portfolio/b1/ahu-1',
      [`${P}b1/chiller-1`]: 'chiller-1',
      [`${P}b1/meter-1`]: 'b1/meter-1',
      [`${P}b1/vav-1`]: 'b1/vav-1',
      [`${P}b3/ahu-1`]: 'b3/ahu-1',
      [`${P}b3/ahu-2`]: 'ahu-2',
      // Untyped: equipment by the kind fallback (docs/brick-mapping.md, "Kinds add up"), and its local name is b1's meter's.
      [`${P}b3/meter-1`]: 'b3/meter-1',
      [`${P}b3/vav-1`]: 'b3/vav-1',
    });
  });

  it('answers distinct ids in every root query, each naming only its entity, the local name where no other entity has it', async () => {
    const data = await ok(`{
      building(siteId: "pb") { uri id } equipment(siteId: "pb") { uri id } point(siteId: "pb") { uri id }
      zone(siteId: "pb") { uri id } system(siteId: "pb") { uri id } }`);
    const kinds: Record<string, string> = {
      building: '?e a/rdfs:subClassOf* ?k VALUES ?k { brick:Building rec:Building }',
      point: '?e a/rdfs:subClassOf* brick:Point',
      zone: '?e a/rdfs:subClassOf* brick:Zone',
      system: '?e a/rdfs:subClassOf* brick:System',
      equipment:
        '{ ?e a/rdfs:subClassOf* brick:Equipment } UNION { ?e brick:hasPoint ?p FILTER NOT EXISTS { ?e a ?t } }',
    };
    for (const [field, pattern] of Object.entries(kinds)) {
      const list: Entity[] = data[field];
      expect(uris(list), field).toEqual(referenceColumn(reference, `SELECT DISTINCT ?e WHERE { ${pattern} }`, 'e'));
      for (const { uri, id } of list) {
        expect(uri.endsWith(id), `${id} ends ${uri}`).toBe(true);
        expect(namesOnly(id, uri), `${id} names only ${uri}`).toBe(true);
        const shared = entities.filter((e) => e.replace(/^.*[#/]/, '') === uri.replace(/^.*[#/]/, '')).length > 1;
        if (!shared) expect(id).toBe(uri.replace(/^.*[#/]/, ''));
      }
    }
    const all = entitiesIn(data);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it('answers one id per entity across every relation field, as the root queries do', async () => {
    const roots =
      await ok(`{ building(siteId: "pb") { uri id locations(recursive: true) { uri id } } equipment(siteId: "pb") { uri id } point(siteId: "pb") { uri id }
      zone(siteId: "pb") { uri id } system(siteId: "pb") { uri id } }`);
    const data = await ok(`{
      building(siteId: "pb") { uri id locations(recursive: true) { uri id parent { uri id } equipment { uri id } }
        equipment(recursive: true) { uri id points { uri id } parts { uri id } feeds { uri id } fedBy { uri id } location { uri id } systems { uri id } }
        points(recursive: true) { uri id equipment { uri id } location { uri id } }
        zones(recursive: true) { uri id locations { uri id } fedBy { uri id } } systems(recursive: true) { uri id equipment { uri id } points { uri id } } }
      equipment(siteId: "pb") { uri id downstream { uri id } upstream { uri id } }
      zone(siteId: "pb") { uri id points { uri id } upstream { uri id } }
    }`);
    const known = byUri(entitiesIn(roots));
    const seen = entitiesIn(data);
    expect(seen.length).toBeGreaterThan(60);
    for (const { uri, id } of seen) expect(id, uri).toBe(known[uri]);
    // The relations reached every AHU, each with its own id.
    const ahus = seen.filter((e) => e.uri.endsWith('/ahu-1'));
    expect(new Set(ahus.map((e) => e.id))).toEqual(new Set(['portfolio/b1/ahu-1', 'b3/ahu-1', 'annex/b1/ahu-1']));
  });

  it("answers a point's equipmentId as its equipment's id", async () => {
    const data = await ok('{ point(siteId: "pb") { uri equipmentId equipment { id } } }');
    const owners = referenceColumn(
      reference,
      'SELECT ?p WHERE { { ?e brick:hasPoint ?p } UNION { ?p brick:isPointOf ?e } }',
      'p',
    );
    expect(
      data.point
        .filter((p: { equipmentId: string }) => p.equipmentId !== '')
        .map((p: { uri: string }) => p.uri)
        .sort(),
    ).toEqual(owners);
    for (const point of data.point) if (point.equipmentId !== '') expect(point.equipmentId).toBe(point.equipment.id);
    const sat = data.point.find((p: { uri: string }) => p.uri === `${P}b3/sat`);
    expect(sat.equipmentId).toBe('b3/ahu-1');
  });

  it('takes every id back through the argument that takes it, and the full IRI too', async () => {
    const data =
      await ok(`{ building(siteId: "pb") { uri id locations(recursive: true) { uri id } } equipment(siteId: "pb") { uri id }
      point(siteId: "pb") { uri id } zone(siteId: "pb") { uri id } system(siteId: "pb") { uri id } }`);
    for (const field of ['building', 'equipment', 'point', 'zone']) {
      for (const { uri, id } of data[field] as Entity[]) {
        for (const given of [id, uri]) {
          const back = await ok(`{ ${field}(siteId: "pb", id: ${JSON.stringify(given)}) { uri } }`);
          expect(uris(back[field]), `${field}(id: ${given})`).toEqual([uri]);
        }
      }
    }
    const locations: Entity[] = [
      ...data.building,
      ...data.building.flatMap((b: { locations: Entity[] }) => b.locations),
    ];
    expect(locations).toHaveLength(8);
    for (const { uri, id } of locations) {
      for (const given of [id, uri])
        expect(
          (await ok(`{ location(siteId: "pb", locationId: ${JSON.stringify(given)}) { uri } }`)).location.uri,
        ).toBe(uri);
    }
    // Systems are named by systemId only: each id answers its own members.
    for (const { uri, id } of data.system as Entity[]) {
      const members = referenceColumn(reference, `SELECT ?e WHERE { <${uri}> brick:hasPart ?e }`, 'e');
      for (const given of [id, uri])
        expect(
          uris((await ok(`{ equipment(siteId: "pb", systemId: ${JSON.stringify(given)}) { uri } }`)).equipment),
        ).toEqual(members);
    }
  });

  it('filters by equipmentId, locationId, zoneId and systemId given as ids of shared local names', async () => {
    const query = async (args: string) => uris((await ok(`{ point(siteId: "pb", ${args}) { uri } }`)).point);
    const pointsOf = (equipment: string) =>
      referenceColumn(
        reference,
        `SELECT ?p WHERE { { <${equipment}> brick:hasPoint ?p } UNION { ?p brick:isPointOf <${equipment}> } }`,
        'p',
      );
    expect(await query('equipmentId: "b3/ahu-1"')).toEqual(pointsOf(`${P}b3/ahu-1`));
    expect(await query('equipmentId: "annex/b1/ahu-1"')).toEqual(pointsOf(`${AX}ahu-1`));
    expect(await query(`equipmentId: "${P}b1/ahu-1"`)).toEqual(pointsOf(`${P}b1/ahu-1`));
    expect(await query(`equipmentId: "${P}b3/meter-1"`)).toEqual([`${P}b3/kwh`]);
    // A shared local name names every entity that has it.
    expect(await query('equipmentId: "ahu-1"')).toEqual([`${AX}sat`, `${P}b1/sat`, `${P}b3/sat`]);

    const inLocation = referenceColumn(
      reference,
      `SELECT DISTINCT ?p WHERE { <${P}b3/floor-1> brick:hasPart* ?l . { ?p brick:hasLocation ?l } UNION { ?e brick:hasLocation ?l . { ?e brick:hasPoint ?p } UNION { ?p brick:isPointOf ?e } }
        ?p a/rdfs:subClassOf* brick:Point }`,
      'p',
    );
    expect(await query('locationId: "b3/floor-1"')).toEqual(inLocation);
    expect(await query('zoneId: "b1/zone-1"')).toEqual([`${P}b1/zat`]);
    const equipment = async (args: string) =>
      uris((await ok(`{ equipment(siteId: "pb", ${args}) { uri } }`)).equipment);
    expect(await equipment('systemId: "b3/hvac"')).toEqual([`${P}b3/ahu-1`]);
    expect(await equipment('locationId: "portfolio/b1/floor-1"')).toEqual([
      `${P}b1/ahu-1`,
      `${P}b1/chiller-1`,
      `${P}b1/meter-1`,
      `${P}b1/vav-1`,
    ]);
  });
});

describe('ids on a site whose local names are all unique', () => {
  it('are the local names, as before', async () => {
    const reference = referenceStore(UNIQUE);
    const data =
      await ok(`{ building(siteId: "uniq") { uri id } equipment(siteId: "uniq") { uri id } point(siteId: "uniq") { uri id equipmentId }
      zone(siteId: "uniq") { uri id } }`);
    const all = entitiesIn(data);
    expect(all.length).toBeGreaterThan(10);
    const localNames = referenceColumn(
      reference,
      `SELECT ?n WHERE { { ${ENTITIES} } BIND(REPLACE(STR(?e), "^.*[#/]", "") AS ?n) }`,
      'n',
    );
    expect(new Set(localNames).size).toBe(localNames.length);
    for (const { uri, id } of all) expect(id).toBe(uri.replace(/^.*[#/]/, ''));
  });
});
