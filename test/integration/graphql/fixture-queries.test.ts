// Golden queries: each fixtures/queries/<name>.graphql runs against every fixtures/small/*.ttl
// loaded as a site named after its file, and must answer exactly fixtures/queries/<name>.json.
// Lists of entities are compared without regard to order; lists of strings,
// such as typeHierarchy, keep their order.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { graphqlSuite } from '../../support/graphql-suite.ts';

const smallDir = new URL('../../../fixtures/small/', import.meta.url);
const queriesDir = new URL('../../../fixtures/queries/', import.meta.url);

/** `value` with every list of objects sorted by its members' JSON, so that entity order does not matter. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    const unordered = items.every((x) => typeof x === 'object' && x !== null);
    return unordered ? items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : items;
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

const sites = Object.fromEntries(
  readdirSync(smallDir)
    .filter((f) => f.endsWith('.ttl'))
    .map((f) => [f.slice(0, -'.ttl'.length), readFileSync(new URL(f, smallDir), 'utf8')]),
);
const queries = readdirSync(queriesDir)
  .filter((f) => f.endsWith('.graphql'))
  .map((f) => f.slice(0, -'.graphql'.length))
  .sort();

const { graphql } = graphqlSuite(sites);

describe('fixtures/queries', () => {
  it('holds at least one query, each with its expected result', () => {
    expect(queries.length).toBeGreaterThan(0);
  });

  it.each(queries)('%s answers as recorded', async (name) => {
    const query = readFileSync(new URL(`${name}.graphql`, queriesDir), 'utf8');
    const expected = JSON.parse(readFileSync(new URL(`${name}.json`, queriesDir), 'utf8'));
    // The answer names the version of the graph it read (use-site-versions.ts); the recording holds the rest.
    const { extensions, ...actual } = (await graphql(query)) as { extensions?: { versions?: unknown } };
    expect(extensions?.versions).toBeDefined();
    expect(canonical(actual)).toEqual(canonical(expected));
  });
});
