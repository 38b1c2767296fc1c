// Pages: every root list and every list relation field takes `limit` and `offset`, in
// IRI order (upstream and downstream: hop count, then IRI), and pages concatenate to exactly the
// answer without them. Each root list has a count field with the same filters.
import { describe, expect, it } from 'vitest';
import { generateBuilding } from '../../support/generated-building.ts';
import { graphqlSuite } from '../../support/graphql-suite.ts';

// An entity whose name sorts first and whose IRI sorts last (lists are in IRI order, not by name),
// and more of what the generated building has one of, so that every list field has a list to page.
const EXTRA = `
ex:ZZ_Pump a brick:Pump ; rdfs:label "A pump" ; brick:hasLocation ex:F1 ; brick:isPartOf ex:AirSys ; brick:hasPoint ex:ZZ_Pump_Cmd .
ex:ZZ_Pump_Cmd a brick:Start_Stop_Command ; rdfs:label "A pump command" .
ex:CHW a brick:Chilled_Water_System ; rdfs:label "Chilled water" ; brick:hasPart ex:AHU .
ex:HW a brick:Hot_Water_System ; rdfs:label "Hot water" ; brick:hasPart ex:AHU .
ex:AHU_RF a brick:Return_Fan ; rdfs:label "AHU Return Fan" ; brick:isPartOf ex:AHU .
ex:AHU_CC a brick:Cooling_Coil ; rdfs:label "AHU Cooling Coil" ; brick:isPartOf ex:AHU .
ex:Chiller a brick:Chiller ; rdfs:label "Chiller" ; brick:feeds ex:AHU ; brick:hasLocation ex:B .
ex:Boiler a brick:Boiler ; rdfs:label "Boiler" ; brick:feeds ex:AHU ; brick:hasLocation ex:B .
ex:F3 brick:hasPart ex:Z3b, ex:Z3c .
ex:Z3b a brick:HVAC_Zone ; rdfs:label "Zone 3b" ; brick:hasPoint ex:Z3b_T, ex:Z3b_H .
ex:Z3c a brick:HVAC_Zone ; rdfs:label "Zone 3c" .
ex:Z3b_T a brick:Zone_Air_Temperature_Sensor ; rdfs:label "Zone 3b Temp" .
ex:Z3b_H a brick:Zone_Air_Humidity_Sensor ; rdfs:label "Zone 3b Humidity" .
`;

const PAGE = 4;

const { ok: data, graphql, harness } = graphqlSuite({ s: generateBuilding(5) + EXTRA });

type Entity = { uri: string; name: string };
type Parent = { uri: string; f: Entity[] };

/** `args` with a page appended: `root(args)` becomes `root(args, limit: …, offset: …)`. */
const paged = (args: string, limit: number, offset: number) =>
  `${args}${args ? ', ' : ''}limit: ${limit}, offset: ${offset}`;

const uris = (list: Entity[]) => list.map((e) => e.uri);
const inIriOrder = (list: string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** The root lists, with the filters they are paged under. */
const ROOTS: Array<[string, string]> = [
  ['building', 'siteId: "s"'],
  ['equipment', 'siteId: "s"'],
  ['equipment', 'siteId: "s", is: "HVAC_Equipment", locationName: "Floor"'],
  ['point', 'siteId: "s"'],
  ['point', 'siteId: "s", is: "Temperature_Sensor", equipmentIs: "VAV"'],
  ['point', 'siteId: "s", name: "Setpoint"'],
  ['zone', 'siteId: "s"'],
  ['system', 'siteId: "s"'],
];

describe('root lists', () => {
  it.each(ROOTS)(
    '%s(%s): pages of 4 concatenate to the whole list, in IRI order, and the count says how many',
    async (root, args) => {
      const whole: Entity[] = (await data(`{ r: ${root}(${args}) { uri name } }`)).r;
      expect(whole.length).toBeGreaterThan(0);
      expect(uris(whole)).toEqual(inIriOrder(uris(whole)));
      expect((await data(`{ n: ${root}Count(${args}) }`)).n).toBe(whole.length);
      const pages: Entity[][] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page: Entity[] = (await data(`{ r: ${root}(${paged(args, PAGE, offset)}) { uri name } }`)).r;
        if (page.length === 0) break;
        expect(page.length).toBeLessThanOrEqual(PAGE);
        pages.push(page);
      }
      expect(pages.flat()).toEqual(whole);
    },
  );

  it('orders by IRI, not by name: the entity named "A pump" comes last', async () => {
    const equipment: Entity[] = (await data('{ equipment(siteId: "s") { uri name } }')).equipment;
    expect(equipment.at(-1)).toEqual({ uri: 'https://example.org/f#ZZ_Pump', name: 'A pump' });
  });

  it('offset alone skips; limit alone cuts; limit 0 and an offset past the end answer []', async () => {
    const whole = uris((await data('{ r: point(siteId: "s") { uri name } }')).r);
    expect(uris((await data('{ r: point(siteId: "s", offset: 5) { uri name } }')).r)).toEqual(whole.slice(5));
    expect(uris((await data('{ r: point(siteId: "s", limit: 5) { uri name } }')).r)).toEqual(whole.slice(0, 5));
    expect((await data('{ r: point(siteId: "s", limit: 0) { uri } }')).r).toEqual([]);
    expect((await data(`{ r: point(siteId: "s", offset: ${whole.length}) { uri } }`)).r).toEqual([]);
  });

  it('a count with a filter that matches nothing is 0, and an unknown class is refused as in the list', async () => {
    expect((await data('{ n: pointCount(siteId: "s", name: "no such point") }')).n).toBe(0);
    expect((await data('{ n: equipmentCount(siteId: "s", id: "https://example.org/f#missing") }')).n).toBe(0);
    const result = await graphql('{ n: pointCount(siteId: "s", is: "Temperature_Sensr") }');
    expect(result.errors?.[0]?.extensions?.code).toBe('UNKNOWN_CLASS');
  });

  it.each([
    ['limit', '{ point(siteId: "s", limit: -1) { uri } }'],
    ['offset', '{ point(siteId: "s", offset: -3) { uri } }'],
    ['limit', '{ equipment(siteId: "s") { points(limit: -1) { uri } } }'],
  ])('a negative %s is BAD_USER_INPUT naming the argument', async (argument, query) => {
    const result = await graphql(query);
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument });
  });
});

/** List relation fields: the root that reaches parents with children, and the field's own filters. */
const FIELDS: Array<[string, string, string]> = [
  ['building(siteId: "s")', 'locations', 'recursive: true'],
  ['building(siteId: "s")', 'equipment', 'recursive: true'],
  ['building(siteId: "s")', 'zones', 'recursive: true'],
  ['building(siteId: "s")', 'systems', ''],
  ['building(siteId: "s")', 'points', 'recursive: true'],
  ['location(siteId: "s", locationId: "F2")', 'locations', ''],
  ['location(siteId: "s", locationId: "F1")', 'equipment', 'recursive: true'],
  ['location(siteId: "s", locationId: "F1")', 'points', 'recursive: true'],
  ['location(siteId: "s", locationId: "F3")', 'zones', ''],
  ['equipment(siteId: "s")', 'points', ''],
  ['equipment(siteId: "s")', 'parts', ''],
  ['equipment(siteId: "s")', 'feeds', ''],
  ['equipment(siteId: "s")', 'fedBy', ''],
  ['equipment(siteId: "s")', 'upstream', ''],
  ['equipment(siteId: "s")', 'downstream', ''],
  ['equipment(siteId: "s")', 'systems', ''],
  ['zone(siteId: "s")', 'locations', ''],
  ['zone(siteId: "s")', 'fedBy', ''],
  ['zone(siteId: "s")', 'upstream', ''],
  ['zone(siteId: "s")', 'points', ''],
  ['system(siteId: "s")', 'equipment', 'recursive: true'],
  ['system(siteId: "s")', 'points', 'recursive: true'],
];

const parentsOf = (answer: Parent[] | Parent | null): Parent[] =>
  answer === null ? [] : Array.isArray(answer) ? answer : [answer];

describe('list relation fields', () => {
  it.each(FIELDS)("%s { %s(%s) }: pages of 4 concatenate to each parent's whole list", async (root, field, args) => {
    const query = (fieldArgs: string) =>
      `{ r: ${root} { uri f: ${field}${fieldArgs ? `(${fieldArgs})` : ''} { uri name } } }`;
    const whole = parentsOf((await data(query(args))).r);
    expect(
      whole.some((parent) => parent.f.length > 1),
      'some parent has a list to page',
    ).toBe(true);
    const concatenated = new Map(whole.map((parent) => [parent.uri, [] as Entity[]]));
    for (let offset = 0; ; offset += PAGE) {
      const parents = parentsOf((await data(query(paged(args, PAGE, offset)))).r);
      expect(parents.map((p) => p.uri)).toEqual(whole.map((p) => p.uri));
      if (parents.every((parent) => parent.f.length === 0)) break;
      for (const parent of parents) {
        expect(parent.f.length).toBeLessThanOrEqual(PAGE);
        concatenated.get(parent.uri)!.push(...parent.f);
      }
    }
    for (const parent of whole) expect(concatenated.get(parent.uri), parent.uri).toEqual(parent.f);
    const ordered = field === 'upstream' || field === 'downstream' ? [] : whole;
    for (const parent of ordered) expect(uris(parent.f)).toEqual(inIriOrder(uris(parent.f)));
  });

  it("upstream is by hop count, then IRI: a zone's VAVs (1 hop), the AHU (2), then the boiler and chiller (3)", async () => {
    const ids = (list: Array<{ uri: string }>) => list.map((e) => e.uri.replace('https://example.org/f#', ''));
    const zone = (await data('{ zone(siteId: "s", id: "Z1") { upstream { uri } } }')).zone[0];
    expect(ids(zone.upstream)).toEqual(['V1a', 'V1b', 'AHU', 'Boiler', 'Chiller']);
    const page = (await data('{ zone(siteId: "s", id: "Z1") { upstream(limit: 2, offset: 2) { uri } } }')).zone[0];
    expect(ids(page.upstream)).toEqual(['AHU', 'Boiler']);
  });
});

describe('round trips', () => {
  it('a page of a root list costs two (its candidates, then its entities), a count one', async () => {
    harness().resetRoundTrips();
    await data('{ point(siteId: "s", limit: 3) { uri name unit timeseriesId } }');
    expect(harness().roundTrips()).toBe(2);
    harness().resetRoundTrips();
    await data('{ pointCount(siteId: "s", is: "Temperature_Sensor") }');
    expect(harness().roundTrips()).toBe(1);
  });

  it('a paged relation field costs two, whatever the number of parents', async () => {
    harness().resetRoundTrips();
    await data('{ equipment(siteId: "s") { points(limit: 1, offset: 1) { uri unit } } }');
    expect(harness().roundTrips()).toBe(3);
  });
});
