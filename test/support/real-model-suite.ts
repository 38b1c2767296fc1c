/**
 * The setup of a test file on one real-model fixture (issue #19): the fixture's Turtle, a harness
 * with it loaded as one site for the file's tests, and its plain SPARQL reference store.
 */
import { readFileSync } from 'node:fs';
import type oxigraph from 'oxigraph';
import { afterAll, beforeAll, expect } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { referenceStore } from './sparql-reference.ts';

export interface RealModelSuite {
  readonly turtle: string;
  readonly reference: oxigraph.Store;
  /** Runs a GraphQL query that must succeed and returns its data. */
  ok(query: string): Promise<any>;
}

/** Loads fixtures/real-models/<fixture>.ttl as site `siteId` before the file's tests, and closes it after. */
export function realModelSuite(siteId: string, fixture: string): RealModelSuite {
  const turtle = readFileSync(new URL(`../../fixtures/real-models/${fixture}.ttl`, import.meta.url), 'utf8');
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness({ sites: { [siteId]: turtle } });
  });
  afterAll(async () => {
    await h?.close();
  });
  return {
    turtle,
    reference: referenceStore(turtle),
    async ok(query) {
      const res = await h!.graphql(query);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data;
    },
  };
}

/** The `uri`s of a list, sorted as `referenceColumn` sorts its answers. */
export const sortedUris = (list: Array<{ uri: string }>) => list.map((x) => x.uri).sort();
