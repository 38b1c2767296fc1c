// Acceptance tests for IFC cross-references (docs/ifc-alignment.md; docs/brick-mapping.md,
// `externalReferences`) on fixtures/small/ifc.ttl.
import { describe, expect, it } from 'vitest';
import { graphqlSuite, smallFixture } from '../../support/graphql-suite.ts';

const { graphql, ok } = graphqlSuite({ ifc: smallFixture('ifc') });

const BY_IFC = `query ($ifcId: String!) {
  entityByIfcId(siteId: "ifc", ifcId: $ifcId) {
    __typename
    ... on Building { id name type ifcId }
    ... on Location { id name type ifcId }
    ... on Equipment { id name type ifcId }
    ... on Zone { id name type ifcId }
    ... on System { id name type ifcId }
  }
}`;

/** The entity with GlobalId `ifcId`, with its type name and common fields. */
async function byIfc(ifcId: string): Promise<unknown> {
  return (await ok(BY_IFC, { ifcId })).entityByIfcId;
}

describe('entityByIfcId', () => {
  it('returns a building as Building', async () => {
    expect(await byIfc('2O2Fr$t4X7Zf8NOew3FLOH')).toEqual({
      __typename: 'Building',
      id: 'Bldg',
      name: 'IFC Building',
      type: 'Building',
      ifcId: '2O2Fr$t4X7Zf8NOew3FLOH',
    });
  });

  it('returns a room as Location', async () => {
    expect(await byIfc('3cUkl32yn9qRSPvBJVyWYp')).toEqual({
      __typename: 'Location',
      id: 'R1',
      name: 'Room 1',
      type: 'Room',
      ifcId: '3cUkl32yn9qRSPvBJVyWYp',
    });
  });

  it('returns an AHU as Equipment', async () => {
    expect(await byIfc('1hOSvn6df7F8_7GcBWlR72')).toEqual({
      __typename: 'Equipment',
      id: 'AHU1',
      name: 'AHU-1',
      type: 'AHU',
      ifcId: '1hOSvn6df7F8_7GcBWlR72',
    });
  });

  it('returns an HVAC zone as Zone', async () => {
    expect(await byIfc('0K7w7JzsL2Ex$hc7Tn$u1o')).toEqual({
      __typename: 'Zone',
      id: 'Zone1',
      name: 'Zone 1',
      type: 'HVAC_Zone',
      ifcId: '0K7w7JzsL2Ex$hc7Tn$u1o',
    });
  });

  it('returns a system as System', async () => {
    expect(await byIfc('2MxHu2OXP3aOi6sTvlDyYd')).toEqual({
      __typename: 'System',
      id: 'Sys1',
      name: 'Air System',
      type: 'Air_System',
      ifcId: '2MxHu2OXP3aOi6sTvlDyYd',
    });
  });

  it('returns null without an error for an unmapped GlobalId', async () => {
    const res = await graphql(BY_IFC, { ifcId: '1xS3BCk291UvhgP2dvNMQJ' });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ entityByIfcId: null });
  });

  it('does not take an id from a reference that is not an IFCReference', async () => {
    expect(await byIfc('0TimeseriesNotAnIfcId0')).toBeNull();
  });

  it('resolves relation fields selected inside a fragment', async () => {
    const data = await ok(`{
      entityByIfcId(siteId: "ifc", ifcId: "1hOSvn6df7F8_7GcBWlR72") {
        ... on Equipment { points { name } location { name } systems { name } }
      }
    }`);
    expect(data.entityByIfcId).toEqual({
      points: [{ name: 'AHU-1 SAT' }],
      location: { name: 'Room 1' },
      systems: [{ name: 'Air System' }],
    });
  });
});

describe('ifcId', () => {
  it('is present on every kind of entity that has one, and null otherwise', async () => {
    const data = await ok(`{
      building(siteId: "ifc") { ifcId }
      room: location(siteId: "ifc", locationId: "R1") { ifcId }
      level: location(siteId: "ifc", locationId: "L1") { ifcId }
      equipment(siteId: "ifc") { ifcId }
      zone(siteId: "ifc") { ifcId }
      system(siteId: "ifc") { ifcId }
    }`);
    expect(data).toEqual({
      building: [{ ifcId: '2O2Fr$t4X7Zf8NOew3FLOH' }],
      room: { ifcId: '3cUkl32yn9qRSPvBJVyWYp' },
      level: { ifcId: null },
      equipment: [{ ifcId: '1hOSvn6df7F8_7GcBWlR72' }],
      zone: [{ ifcId: '0K7w7JzsL2Ex$hc7Tn$u1o' }],
      system: [{ ifcId: '2MxHu2OXP3aOi6sTvlDyYd' }],
    });
  });
});
