// Acceptance tests for the tenant boundary (docs/access.md, "Tenancy"): two sites loaded side by side share IRIs
// (fixtures/small/tenant-a.ttl and tenant-b.ttl) but never each other's data.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, names, smallFixture } from '../../support/graphql-suite.ts';

const { ok } = graphqlSuite({ a: smallFixture('tenant-a'), b: smallFixture('tenant-b') });

describe('sites', () => {
  it("each root list query returns only the named site's entities", async () => {
    const query = `query ($s: String!) {
      building(siteId: $s) { name }
      equipment(siteId: $s) { name }
      point(siteId: $s) { name }
      zone(siteId: $s) { name }
      system(siteId: $s) { name }
    }`;
    const a = await ok(query, { s: 'a' });
    const b = await ok(query, { s: 'b' });
    expect(Object.fromEntries(Object.entries(a).map(([k, v]) => [k, names(v as any)]))).toEqual({
      building: ['Alpha Building'],
      equipment: ['Alpha AHU', 'Alpha Chiller'],
      point: ['Alpha SAT'],
      zone: ['Alpha Zone'],
      system: ['Alpha Air System'],
    });
    expect(Object.fromEntries(Object.entries(b).map(([k, v]) => [k, names(v as any)]))).toEqual({
      building: ['Beta Building'],
      equipment: ['Beta AHU'],
      point: ['Beta RAT'],
      zone: ['Beta Zone'],
      system: [],
    });
  });

  it("an entity with the same IRI in both sites has each site's own relations", async () => {
    const query = `query ($s: String!) {
      equipment(siteId: $s, id: "AHU1") {
        name points { name } upstream { name } fedBy { name } location { name } systems { name } ifcId
      }
    }`;
    expect((await ok(query, { s: 'a' })).equipment).toEqual([
      {
        name: 'Alpha AHU',
        points: [{ name: 'Alpha SAT' }],
        upstream: [{ name: 'Alpha Chiller' }],
        fedBy: [{ name: 'Alpha Chiller' }],
        location: { name: 'Alpha Room' },
        systems: [{ name: 'Alpha Air System' }],
        ifcId: '1AlphaAHUGlobalId00001',
      },
    ]);
    expect((await ok(query, { s: 'b' })).equipment).toEqual([
      {
        name: 'Beta AHU',
        points: [{ name: 'Beta RAT' }],
        upstream: [],
        fedBy: [],
        location: { name: 'Beta Building' },
        systems: [],
        ifcId: null,
      },
    ]);
  });

  it("a building with the same IRI has each site's own tree", async () => {
    const query = `query ($s: String!) {
      building(siteId: $s, id: "Bldg") { name locations(recursive: true) { name } equipment(recursive: true) { name } zones(recursive: true) { name } }
    }`;
    expect((await ok(query, { s: 'a' })).building).toEqual([
      {
        name: 'Alpha Building',
        locations: [{ name: 'Alpha Room' }],
        equipment: [{ name: 'Alpha AHU' }],
        zones: [{ name: 'Alpha Zone' }],
      },
    ]);
    expect((await ok(query, { s: 'b' })).building).toEqual([
      { name: 'Beta Building', locations: [], equipment: [{ name: 'Beta AHU' }], zones: [] },
    ]);
  });

  it('lookups by id or GlobalId do not reach into the other site', async () => {
    const data = await ok(`{
      location(siteId: "b", locationId: "Room1") { name }
      entityByIfcId(siteId: "b", ifcId: "1AlphaAHUGlobalId00001") { __typename }
      point(siteId: "b", locationId: "Room1") { name }
      equipment(siteId: "b", locationName: "Alpha") { name }
    }`);
    expect(data).toEqual({ location: null, entityByIfcId: null, point: [], equipment: [] });
  });

  it("a site's own GlobalId is found in that site", async () => {
    const data = await ok(
      '{ entityByIfcId(siteId: "a", ifcId: "1AlphaAHUGlobalId00001") { __typename ... on Equipment { name } } }',
    );
    expect(data.entityByIfcId).toEqual({ __typename: 'Equipment', name: 'Alpha AHU' });
  });
});
