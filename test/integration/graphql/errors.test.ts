// Acceptance tests for GraphQL errors (docs/errors.md): error codes in
// errors[0].extensions.code, and user input that never breaks out of its place in a query.
import { describe, expect, it } from 'vitest';
import type { GraphQLResult } from '../../support/harness.ts';
import { graphqlSuite, smallFixture } from '../../support/graphql-suite.ts';

const { graphql } = graphqlSuite({ eq: smallFixture('equipment') });

/** The code of the first error of `res`, failing when there is none. */
function code(res: GraphQLResult): unknown {
  expect(res.errors?.length, JSON.stringify(res.data)).toBeGreaterThan(0);
  return res.errors?.[0]?.extensions?.code;
}

describe('unknown siteId', () => {
  const roots = {
    building: '{ building(siteId: "nope") { id } }',
    equipment: '{ equipment(siteId: "nope") { id } }',
    point: '{ point(siteId: "nope") { id } }',
    zone: '{ zone(siteId: "nope") { id } }',
    system: '{ system(siteId: "nope") { id } }',
    location: '{ location(siteId: "nope", locationId: "Plant") { id } }',
    entityByIfcId: '{ entityByIfcId(siteId: "nope", ifcId: "1xS3BCk291UvhgP2dvNMQJ") { __typename } }',
  };

  it.each(Object.entries(roots))('%s reports NOT_FOUND', async (_root, query) => {
    expect(code(await graphql(query))).toBe('NOT_FOUND');
  });
});

describe('unknown class', () => {
  it.each([
    ['equipment(is:)', '{ equipment(siteId: "eq", is: "Flux_Capacitor") { id } }'],
    ['point(is:)', '{ point(siteId: "eq", is: "Flux_Capacitor") { id } }'],
    ['zone(is:)', '{ zone(siteId: "eq", is: "Flux_Capacitor") { id } }'],
    ['system(is:)', '{ system(siteId: "eq", is: "Flux_Capacitor") { id } }'],
    ['Building.locations(is:)', '{ building(siteId: "eq") { locations(is: "Flux_Capacitor") { id } } }'],
    ['Equipment.points(is:)', '{ equipment(siteId: "eq", id: "AHU1") { points(is: "Flux_Capacitor") { id } } }'],
    ['Equipment.upstream(is:)', '{ equipment(siteId: "eq", id: "AHU1") { upstream(is: "Flux_Capacitor") { id } } }'],
    ['a prefixed name', '{ equipment(siteId: "eq", is: "brick:Flux_Capacitor") { id } }'],
    ['a full IRI', '{ equipment(siteId: "eq", is: "https://example.org/f#NoSuchClass") { id } }'],
  ])('%s reports UNKNOWN_CLASS', async (_where, query) => {
    expect(code(await graphql(query))).toBe('UNKNOWN_CLASS');
  });

  it('point(equipmentIs:) reports UNKNOWN_CLASS naming the argument', async () => {
    const res = await graphql('{ point(siteId: "eq", equipmentIs: "Flux_Capacitor") { id } }');
    expect(code(res)).toBe('UNKNOWN_CLASS');
    expect(res.errors?.[0]?.message).toContain('equipmentIs');
  });
});

describe('unknown medium', () => {
  it.each([
    ['Equipment.upstream', '{ equipment(siteId: "eq", id: "AHU1") { upstream(medium: "PLASMA") { id } } }'],
    ['Equipment.downstream', '{ equipment(siteId: "eq", id: "AHU1") { downstream(medium: "PLASMA") { id } } }'],
    ['Zone.upstream', '{ zone(siteId: "eq") { upstream(medium: "PLASMA") { id } } }'],
  ])('%s reports UNKNOWN_MEDIUM', async (_where, query) => {
    expect(code(await graphql(query))).toBe('UNKNOWN_MEDIUM');
  });
});

describe('invalid arguments', () => {
  it('a negative maxDepth reports BAD_USER_INPUT', async () => {
    const res = await graphql('{ equipment(siteId: "eq", id: "AHU1") { upstream(maxDepth: -1) { id } } }');
    expect(code(res)).toBe('BAD_USER_INPUT');
  });

  it('an unknown nameMatch value is rejected', async () => {
    const res = await graphql('{ equipment(siteId: "eq", name: "a", nameMatch: FUZZY) { id } }');
    expect(res.errors?.length).toBeGreaterThan(0);
    expect(res.data?.equipment).toBeUndefined();
  });

  it('a missing siteId is rejected', async () => {
    const res = await graphql('{ equipment { id } }');
    expect(res.errors?.length).toBeGreaterThan(0);
  });
});

describe('hostile input', () => {
  const hostile = [
    'x> } ; DROP ALL ; SELECT * WHERE { ?s ?p ?o',
    '"} UNION { ?s ?p ?o } #',
    "AHU1' OR '1'='1",
    'https://example.org/f#AHU1> . ?s ?p ?o',
    'a\\"b\nc',
  ];

  it.each(hostile)('id %j finds nothing, or is refused as BAD_USER_INPUT', async (value) => {
    const res = await graphql('query ($v: String) { equipment(siteId: "eq", id: $v) { id } }', { v: value });
    if (res.errors) expect(res.errors[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    else expect(res.data.equipment).toEqual([]);
  });

  it.each(hostile)('name %j finds nothing and is not an error', async (value) => {
    const res = await graphql('query ($v: String) { equipment(siteId: "eq", name: $v) { id } }', { v: value });
    expect(res.errors).toBeUndefined();
    expect(res.data.equipment).toEqual([]);
  });

  it.each(hostile)('locationId %j finds nothing, or is refused as BAD_USER_INPUT', async (value) => {
    const res = await graphql('query ($v: String!) { location(siteId: "eq", locationId: $v) { id } }', { v: value });
    if (res.errors) expect(res.errors[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    else expect(res.data.location).toBeNull();
  });

  it("leaves the site's data intact", async () => {
    const res = await graphql('{ equipment(siteId: "eq", is: "AHU") { name } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.equipment).toHaveLength(3);
  });
});
