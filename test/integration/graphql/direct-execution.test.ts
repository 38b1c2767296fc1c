// Query operations made of the service's own root fields are answered without graphql-js
// executing them (src/graphql/direct-execution.ts); an operation with anything else beside them
// (here an introspection field) is executed by graphql-js. Every shape of selection answers the
// same, byte for byte, both ways: fields and aliases in selection order, fragments, __typename,
// value types cut to their selections, @skip/@include, variables, unions, counts and errors.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateBuilding } from '../../support/generated-building.ts';
import { graphqlSuite, smallFixture } from '../../support/graphql-suite.ts';

const { graphql } = graphqlSuite({
  g: generateBuilding(4),
  ifc: smallFixture('ifc'),
  props: smallFixture('labels-props'),
  equipment: smallFixture('equipment'),
});

/**
 * The same operation with an introspection field last at its root: graphql-js executes that one.
 * Added last (before the operation's closing brace), so that the locations of errors stay the same.
 */
function viaGraphqlJs(query: string): string {
  const fragments = query.indexOf('fragment ');
  const close = query.lastIndexOf('}', fragments === -1 ? query.length : fragments);
  return `${query.slice(0, close)} __schema { queryType { name } } ${query.slice(close)}`;
}

async function bothWays(query: string, variables?: Record<string, unknown>): Promise<[string, string]> {
  const direct = await graphql(query, variables);
  const executed = await graphql(viaGraphqlJs(query), variables);
  if (executed.data) delete (executed.data as Record<string, unknown>).__schema;
  return [JSON.stringify(direct), JSON.stringify(executed)];
}

const CASES: Array<[string, string, Record<string, unknown>?]> = [
  [
    'scalars, aliases and __typename at every level',
    '{ __typename all: point(siteId: "g") { __typename id n: name type typeHierarchy unit timeseriesId writable valueType equipmentId uri } }',
  ],
  [
    'nested lists, single relations and repeated fields',
    '{ equipment(siteId: "g") { id location { id type } points { id name } also: points(is: "Setpoint") { id } feeds { id } upstream { id } systems { name } } }',
  ],
  [
    'a building tree',
    '{ building(siteId: "g") { name locations(recursive: true) { id name equipment { id points { id } } zones { id } } } }',
  ],
  [
    'named and inline fragments',
    'query { zone(siteId: "g") { ...Z ... on Zone { points { ...P } } } } fragment Z on Zone { id name locations { id } } fragment P on Point { id unit }',
  ],
  [
    'properties cut to their selection',
    '{ equipment(siteId: "props") { id properties { name v: value __typename } } location(siteId: "props", locationId: "R101") { properties { unit name } } }',
  ],
  [
    'currentValue cut to its selection',
    '{ point(siteId: "g", is: "Temperature_Sensor") { id currentValue { quality __typename } } }',
  ],
  [
    '@skip and @include with variables',
    'query ($on: Boolean!) { point(siteId: "g", limit: 3) { id name @include(if: $on) unit @skip(if: $on) } }',
    { on: true },
  ],
  [
    'the KgEntity union',
    '{ a: entityByIfcId(siteId: "ifc", ifcId: "1hOSvn6df7F8_7GcBWlR72") { __typename ... on Equipment { id points { id } } ... on Location { name } } b: entityByIfcId(siteId: "ifc", ifcId: "3cUkl32yn9qRSPvBJVyWYp") { __typename ... on Location { name } } c: entityByIfcId(siteId: "ifc", ifcId: "0000000000000000000000") { __typename } }',
  ],
  [
    'counts and pages',
    '{ pointCount(siteId: "g") equipmentCount(siteId: "g", is: "VAV") point(siteId: "g", limit: 2, offset: 3) { id } }',
  ],
  ['a location that is not there', '{ location(siteId: "g", locationId: "nowhere") { id } }'],
  [
    'every field of Equipment',
    readFileSync(new URL('../../../fixtures/queries/equipment-ahu1.graphql', import.meta.url), 'utf8'),
  ],
  [
    'an unknown class (an error of a non-null root field)',
    '{ point(siteId: "g", is: "Temprature_Sensor") { id } building(siteId: "g") { id } }',
  ],
  ['an unknown site beside a nullable field', '{ location(siteId: "nowhere", locationId: "F1") { id } }'],
  ['an argument out of range', '{ equipment(siteId: "g") { points(limit: -1) { id } } }'],
];

describe('direct execution answers as graphql-js does', () => {
  it.each(CASES)('%s', async (_name, query, variables) => {
    const [direct, executed] = await bothWays(query, variables);
    expect(direct).toEqual(executed);
    expect(direct.length).toBeGreaterThan(20);
  });
});
