// A namespace changes the graph names the service uses, and nothing else of a query.
import { describe, expect, it } from 'vitest';
import type { GraphStore } from '../../../src/store/graph-store.ts';
import { NamespacedStore } from '../../../src/store/namespaced-store.ts';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import type { SelectQuery } from '../../../src/rdf/sparql-algebra.ts';
import { selectQuery } from '../../support/select-query.ts';

/** The store and the queries it passed on. */
function namespaced() {
  const sent: string[] = [];
  const inner = {
    name: 'sparql',
    select: async (query: SelectQuery) => (sent.push(serialize(query)), []),
  } as unknown as GraphStore;
  return { store: new NamespacedStore(inner, 'urn:acme:staging:'), sent };
}

describe('NamespacedStore', () => {
  it('names the service’s graphs under the namespace, once', () => {
    const { store } = namespaced();
    expect(store.graph('urn:bkg:site:a')).toBe('urn:acme:staging:site:a');
    expect(store.graph('urn:bkg:ontology')).toBe('urn:acme:staging:ontology');
    expect(store.graph(store.graph('urn:bkg:site:a'))).toBe('urn:acme:staging:site:a');
    expect(store.graph('https://example.org/g')).toBe('https://example.org/g');
  });

  it('renames the IRIs after GRAPH, FROM and FROM NAMED, not terms, strings, comments or a variable named graph', async () => {
    const { store, sent } = namespaced();
    await store.select(
      selectQuery(`PREFIX bkg: <urn:bkg:vocab#>
SELECT * FROM <urn:bkg:site:a> FROM NAMED <urn:bkg:site:b> WHERE {
  ?graph <urn:bkg:site:x> ?o . GRAPH<urn:bkg:site:a>{ ?s bkg:kind "GRAPH <urn:bkg:site:c>" } # GRAPH <urn:bkg:site:d>
  FILTER EXISTS { GRAPH <urn:bkg:ontology> { ?s ?p """ " GRAPH <urn:bkg:site:e> """ } } FILTER(?o != 'from <urn:bkg:site:f>')
}`),
    );
    const expected = selectQuery(`PREFIX bkg: <urn:bkg:vocab#>
SELECT * FROM <urn:acme:staging:site:a> FROM NAMED <urn:acme:staging:site:b> WHERE {
  ?graph <urn:bkg:site:x> ?o . GRAPH<urn:acme:staging:site:a>{ ?s bkg:kind "GRAPH <urn:bkg:site:c>" }
  FILTER EXISTS { GRAPH <urn:acme:staging:ontology> { ?s ?p """ " GRAPH <urn:bkg:site:e> """ } } FILTER(?o != 'from <urn:bkg:site:f>')
}`);
    expect(sent[0]).toBe(serialize(expected));
  });
});
