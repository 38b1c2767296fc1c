/**
 * The setup of a test file on real-model fixtures: a harness with the sites loaded for
 * the file's tests, an `ok` that runs a GraphQL query that must succeed, and for one fixture its
 * Turtle and plain SPARQL reference store.
 */
import { readFileSync } from 'node:fs';
import type oxigraph from 'oxigraph';
import { afterAll, beforeAll, expect } from 'vitest';
import { createHarness, type Harness } from './harness.ts';
import { referenceStore } from './sparql-reference.ts';

/** The Turtle of fixtures/real-models/<name>.ttl. */
export const realModel = (name: string): string =>
  readFileSync(new URL(`../../fixtures/real-models/${name}.ttl`, import.meta.url), 'utf8');

export interface ModelSites {
  /** The harness, once the file's tests run. */
  harness(): Harness;
  /** Runs a GraphQL query that must succeed and returns its data. */
  ok(query: string): Promise<any>;
}

/** Loads the sites (id → Turtle) before the file's tests, and closes them after. */
export function modelSites(sites: Record<string, string>): ModelSites {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await createHarness({ sites });
  });
  afterAll(async () => {
    await h?.close();
  });
  return {
    harness: () => h!,
    async ok(query) {
      const res = await h!.graphql(query);
      expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
      return res.data;
    },
  };
}

export interface RealModelSuite extends ModelSites {
  readonly turtle: string;
  readonly reference: oxigraph.Store;
}

/** Loads fixtures/real-models/<fixture>.ttl as site `siteId` before the file's tests, with its reference store. */
export function realModelSuite(siteId: string, fixture: string): RealModelSuite {
  const turtle = realModel(fixture);
  return { ...modelSites({ [siteId]: turtle }), turtle, reference: referenceStore(turtle) };
}

/** The `uri`s of a list, sorted as `referenceColumn` sorts its answers. */
export const sortedUris = (list: Array<{ uri: string }>) => list.map((x) => x.uri).sort();
