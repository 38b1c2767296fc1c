// The Comunica rewrites keep a query's meaning: the embedded engine answers the rewritten query as
// it answers the original, and the rewritten one no longer has the constructs Comunica 4.5 gets wrong.
import oxigraph from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { forComunica as rewrite } from '../../../src/store/comunica-query.ts';
import { selectQuery } from '../../support/select-query.ts';

/** The rewrite of a query written as text, as the serializer prints it. */
const forComunica = (text: string) => serialize(rewrite(selectQuery(text)));

const G = 'urn:bkg:site:t';
const store = new oxigraph.Store();
store.load(
  '<urn:z> <urn:part> <urn:r> .\n<urn:v> <urn:feeds> <urn:z> .\n<urn:w> <urn:feeds> <urn:r> .\n<urn:r> <urn:point> <urn:p> .\n',
  {
    format: 'application/n-triples',
    to_graph_name: oxigraph.namedNode(G),
  },
);
const answer = (query: string) =>
  (store.query(query) as Map<string, oxigraph.Term>[])
    .map((row) =>
      [...row]
        .map(([k, v]) => `${k}=${v.value}`)
        .sort()
        .join(' '),
    )
    .sort();

describe('forComunica', () => {
  it('writes a zero-or-one path as one step or a zero-length path, with the same answer', () => {
    const query = `SELECT ?z ?e WHERE { GRAPH <${G}> { VALUES ?z { <urn:z> } ?z (<urn:part>|^<urn:part>)?/^<urn:feeds> ?e } }`;
    const rewritten = forComunica(query);
    expect(rewritten).not.toMatch(/\)\?|>\?/);
    expect(answer(rewritten)).toEqual(answer(query));
    expect(answer(query)).toEqual(['e=urn:v z=urn:z', 'e=urn:w z=urn:z']);
  });

  it('names the graph around an EXISTS of a BIND inside it, with the same answer', () => {
    const query = `SELECT ?e ?tag WHERE { GRAPH <${G}> { VALUES ?e { <urn:r> <urn:z> } BIND(IF(EXISTS { ?e <urn:point> ?x }, "hp", "") AS ?tag) } }`;
    const rewritten = forComunica(query);
    expect(rewritten).toMatch(new RegExp(`EXISTS\\s*\\{\\s*GRAPH <${G}>`));
    expect(answer(rewritten)).toEqual(answer(query));
  });

  it('leaves a query without them as it was', () => {
    const query = selectQuery(
      `SELECT ?e WHERE { GRAPH <${G}> { ?e <urn:part>+ ?x FILTER EXISTS { ?x <urn:point> ?p } } }`,
    );
    expect(rewrite(query)).toBe(query);
  });
});
