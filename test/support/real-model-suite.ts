/**
 * The setup of a test file on real-model fixtures: the GraphQL suite (test/support/graphql-suite.ts)
 * with the file's sites loaded, and for one fixture its Turtle and plain SPARQL reference store.
 */
import { readFileSync } from 'node:fs';
import type oxigraph from 'oxigraph';
import { graphqlSuite, type GraphqlSuite } from './graphql-suite.ts';
import { referenceStore } from './sparql-reference.ts';

/** The Turtle of fixtures/real-models/<name>.ttl. */
export const realModel = (name: string): string =>
  readFileSync(new URL(`../../fixtures/real-models/${name}.ttl`, import.meta.url), 'utf8');

export interface RealModelSuite extends GraphqlSuite {
  readonly turtle: string;
  readonly reference: oxigraph.Store;
}

/** Loads fixtures/real-models/<fixture>.ttl as site `siteId` before the file's tests, with its reference store. */
export function realModelSuite(siteId: string, fixture: string): RealModelSuite {
  const turtle = realModel(fixture);
  return { ...graphqlSuite({ [siteId]: turtle }), turtle, reference: referenceStore(turtle) };
}

/** The `uri`s of a list, sorted as `referenceColumn` sorts its answers. */
export const sortedUris = (list: Array<{ uri: string }>) => list.map((x) => x.uri).sort();
