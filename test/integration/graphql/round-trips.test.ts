// Round trips (docs/architecture.md, "Query shapes"): a query costs one triplestore round trip
// for its root field plus one per relation field it selects (properties included), whatever the
// size of the site. The same generated building is loaded with 3 floors and with 60.
import { beforeAll, describe, expect, it } from 'vitest';
import { generateBuilding } from '../../support/generated-building.ts';
import { graphqlSuite } from '../../support/graphql-suite.ts';

const { graphql, harness } = graphqlSuite({ small: generateBuilding(3), large: generateBuilding(60) });
beforeAll(async () => {
  // One query that touches class filters and type hierarchies, so that anything loaded once per
  // process (the class closure, say) is loaded before counting starts.
  await graphql('{ point(siteId: "small", is: "Temperature_Sensor", equipmentIs: "VAV") { typeHierarchy } }');
});

/** Runs `query` on `site` and returns its data and the round trips it cost. */
async function measure(query: string, site: string): Promise<{ data: any; trips: number }> {
  harness().resetRoundTrips();
  const res = await graphql(query, { site });
  const trips = harness().roundTrips();
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return { data: res.data, trips };
}

// [what the query asks, the query, root + relation fields]
const shapes: Array<[string, string, number]> = [
  [
    'building → locations(recursive) → equipment → points',
    `query ($site: String!) { building(siteId: $site) {
      locations(recursive: true) { name equipment { name points { name } } }
    } }`,
    1 + 3,
  ],
  [
    'building with properties, locations with properties, equipment(recursive)',
    `query ($site: String!) { building(siteId: $site) {
      name properties { name value unit }
      locations { name properties { name value } equipment(recursive: true) { name } }
    } }`,
    1 + 4,
  ],
  [
    'building zones, systems and points, all recursive and filtered',
    `query ($site: String!) { building(siteId: $site) {
      zones(recursive: true, is: "HVAC_Zone") { name }
      systems(recursive: true) { name }
      points(recursive: true, is: "Temperature_Sensor") { name }
    } }`,
    1 + 3,
  ],
  [
    'equipment(is:) with every relation field of Equipment',
    `query ($site: String!) { equipment(siteId: $site, is: "VAV") {
      name type typeHierarchy ifcId
      points { name unit timeseriesId writable valueType }
      parts { name } partOf { name } feeds { name } fedBy { name }
      upstream { name } downstream(maxDepth: 2) { name }
      location { name } systems { name } properties { name value }
    } }`,
    1 + 10,
  ],
  [
    'the same relation field twice under aliases',
    `query ($site: String!) { equipment(siteId: $site, name: "VAV") {
      near: upstream(maxDepth: 1) { name } all: upstream { name }
    } }`,
    1 + 2,
  ],
  [
    'point(is:) with its equipment and locations',
    `query ($site: String!) { point(siteId: $site, is: "Temperature_Sensor") {
      name unit timeseriesId equipmentId writable
      equipment { name location { name } } location { name }
    } }`,
    1 + 3,
  ],
  [
    'zone with every relation field of Zone',
    `query ($site: String!) { zone(siteId: $site) {
      name typeHierarchy
      locations { name } fedBy { name } upstream(maxDepth: 2) { name } points { name } properties { name }
    } }`,
    1 + 5,
  ],
  [
    'system → equipment(recursive) → points, and system points',
    `query ($site: String!) { system(siteId: $site) {
      equipment(recursive: true) { name points { name } } points(recursive: true) { name }
    } }`,
    1 + 3,
  ],
  [
    'location(locationId:) with every relation field of Location',
    `query ($site: String!) { location(siteId: $site, locationId: "B") {
      parent { name } zones { name }
      locations(recursive: true) { name zones { name } }
      equipment(recursive: true) { name } points(recursive: true) { name } properties { name }
    } }`,
    1 + 7,
  ],
  [
    'filtered root queries',
    `query ($site: String!) {
      equipment(siteId: $site, locationName: "Floor", is: "VAV", hasProperty: "controllerName") { name }
    }`,
    1,
  ],
];

describe('round trips', () => {
  it.each(shapes)('%s: the same on 3 floors and on 60', async (_shape, query, expected) => {
    const small = await measure(query, 'small');
    const large = await measure(query, 'large');
    expect(JSON.stringify(large.data).length).toBeGreaterThan(JSON.stringify(small.data).length);
    expect({ small: small.trips, large: large.trips }).toEqual({ small: expected, large: expected });
  });

  it('point(locationName:, equipmentIs:, is:) costs one round trip', async () => {
    const query = `query ($site: String!) {
      point(siteId: $site, locationName: "Floor 1", nameMatch: EXACT, equipmentIs: "VAV", is: "Setpoint") { name }
    }`;
    const small = await measure(query, 'small');
    const large = await measure(query, 'large');
    expect(small.data.point).toHaveLength(2);
    expect(large.data.point).toHaveLength(2);
    expect([small.trips, large.trips]).toEqual([1, 1]);
  });

  it('currentValue costs no triplestore round trip', async () => {
    const without = await measure('query ($site: String!) { point(siteId: $site) { name timeseriesId } }', 'large');
    const withValue = await measure(
      'query ($site: String!) { point(siteId: $site) { name timeseriesId currentValue { value quality } } }',
      'large',
    );
    expect(withValue.trips).toBe(without.trips);
  });

  it('roundTrips() counts from the last reset', async () => {
    harness().resetRoundTrips();
    expect(harness().roundTrips()).toBe(0);
    await graphql('query ($site: String!) { building(siteId: $site) { name } }', { site: 'small' });
    await graphql('query ($site: String!) { building(siteId: $site) { name id } }', { site: 'small' });
    expect(harness().roundTrips()).toBe(2);
  });

  it('the same query again on an unchanged graph costs no round trip: its answer is kept', async () => {
    const query = 'query ($site: String!) { building(siteId: $site) { name uri } }';
    const first = await graphql(query, { site: 'small' });
    harness().resetRoundTrips();
    expect(await graphql(query, { site: 'small' })).toEqual(first);
    expect(harness().roundTrips()).toBe(0);
  });
});
