/**
 * The setup the GraphQL suites share: their fixtures, a harness with the file's sites loaded
 * before its tests and closed after them, and the helpers that read answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { createHarness, type GraphQLResult, type Harness } from './harness.ts';

/** The Turtle of fixtures/small/<name>.ttl. */
export const smallFixture = (name: string): string =>
  readFileSync(new URL(`../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

/** The Turtle of the demo site, fixtures/demo.ttl. */
export const demoFixture = (): string => readFileSync(new URL('../../fixtures/demo.ttl', import.meta.url), 'utf8');

/** The `name`s of a list of entities, sorted. */
export const names = (list: Array<{ name: string }>): string[] => list.map((x) => x.name).sort();

export interface GraphqlSuite {
  /** The harness, once the file's tests run. */
  harness(): Harness;
  /** Sends a GraphQL request as the admin and returns its whole result, errors included. */
  graphql(query: string, variables?: Record<string, unknown>): Promise<GraphQLResult>;
  /** Runs a GraphQL query that must succeed and returns its data. */
  ok(query: string, variables?: Record<string, unknown>): Promise<any>;
}

/** Loads the sites (id → Turtle) before the file's tests, and closes them after. */
export function graphqlSuite(sites: Record<string, string>): GraphqlSuite {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness({ sites });
  });
  afterAll(async () => {
    await h?.close();
  });
  const harness = () => h!;
  const graphql = (query: string, variables?: Record<string, unknown>) => harness().graphql(query, variables);
  return {
    harness,
    graphql,
    async ok(query, variables) {
      const res = await graphql(query, variables);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data;
    },
  };
}
