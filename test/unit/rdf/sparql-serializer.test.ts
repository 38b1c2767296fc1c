// The one serializer (src/rdf/sparql-serializer.ts): algebra built with src/rdf/sparql-algebra.ts
// prints as SPARQL that means what it was built to mean (compared by meaning: both sides parsed
// with sparqljs), it refuses to print a term that would not be one, and Virtuoso's transitive
// subquery and the stores' updates print in their syntax.
import oxigraph, { type Term } from 'oxigraph';
import sparqljs, { type SelectQuery } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import {
  alternative,
  dropGraph,
  filter,
  graph,
  insertData,
  inverse,
  isIn,
  literal,
  moveGraph,
  namedNode,
  oneOrMore,
  op,
  optional,
  select,
  sequence,
  transitive,
  triple,
  union,
  update,
  values,
  variable,
  zeroOrMore,
  zeroOrOne,
  type IriTerm,
  type LiteralTerm,
  type Triple,
} from '../../../src/rdf/sparql-algebra.ts';
import { PREFIXES, serialize } from '../../../src/rdf/sparql-serializer.ts';

const BRICK = 'https://brickschema.org/schema/Brick#';
const [s, o, e, k] = ['s', 'o', 'e', 'k'].map((name) => variable(name)) as [
  ReturnType<typeof variable>,
  ReturnType<typeof variable>,
  ReturnType<typeof variable>,
  ReturnType<typeof variable>,
];
const [hasPart, isPartOf, hasPoint] = ['hasPart', 'isPartOf', 'hasPoint'].map((name) => namedNode(BRICK + name)) as [
  IriTerm,
  IriTerm,
  IriTerm,
];

const parser = new sparqljs.Parser({ prefixes: { ...PREFIXES } });
/** A query's meaning as sparqljs reads it (its prefix declarations aside). */
const meaning = (text: string) => ({ ...(parser.parse(text) as SelectQuery), prefixes: {} });
const sameMeaning = (query: SelectQuery, expected: string) =>
  expect(meaning(serialize(query))).toEqual(meaning(expected));

describe('serialize()', () => {
  it('prints a SELECT that means what it was built as', () => {
    const query = select({
      variables: [e],
      distinct: true,
      where: [
        graph(
          namedNode('urn:bkg:site:demo'),
          values(k, [namedNode(`${BRICK}AHU`)]),
          triple(e, namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type'), k),
          optional(triple(e, hasPoint, o)),
          filter(isIn(k, [namedNode(`${BRICK}AHU`)])),
        ),
      ],
      limit: 10,
    });
    sameMeaning(
      query,
      `SELECT DISTINCT ?e WHERE { GRAPH <urn:bkg:site:demo> { VALUES ?k { brick:AHU } ?e a ?k OPTIONAL { ?e brick:hasPoint ?o } FILTER(?k IN (brick:AHU)) } } LIMIT 10`,
    );
  });

  it('prints every kind of property path so that a parser reads the same path', () => {
    const path = sequence([
      zeroOrMore(alternative([hasPart, inverse(isPartOf)])),
      oneOrMore(inverse(hasPoint)),
      zeroOrOne(inverse(sequence([hasPart, hasPoint]))),
      inverse(inverse(hasPart)),
    ]);
    sameMeaning(
      select({ variables: [s, o], where: [triple(s, path, o)] }),
      'SELECT ?s ?o WHERE { ?s (brick:hasPart|^brick:isPartOf)*/(^brick:hasPoint)+/(^(brick:hasPart/brick:hasPoint))?/^(^brick:hasPart) ?o }',
    );
  });

  it('declares only the prefixes it uses', () => {
    const text = serialize(select({ variables: [s], where: [triple(s, hasPoint, o)] }));
    expect(text).toMatch(/^PREFIX brick: /);
    expect(text).not.toContain('PREFIX rec:');
  });

  it('refuses an IRI, a language tag or a blank-node label that would not be one', () => {
    const iri = (value: string) => ({ termType: 'NamedNode', value }) as IriTerm;
    const query = (term: Triple['object']) => select({ variables: [s], where: [triple(s, hasPoint, term)] });
    for (const bad of ['urn:x> } UNION { ?s ?p ?o } #', 'not an iri', 'https://example.org/a b'])
      expect(() => serialize(query(iri(bad)))).toThrow(TypeError);
    expect(() => serialize(query({ ...literal('x'), language: 'en} UNION {' } as LiteralTerm))).toThrow(TypeError);
    expect(() => serialize(query({ termType: 'BlankNode', value: 'b } UNION {' } as never))).toThrow(TypeError);
  });

  it('prints Virtuoso’s transitive subquery in its own syntax', () => {
    const node = transitive(s, o, [triple(s, hasPart, o)], 1, 1);
    const text = serialize(select({ variables: [s, o], where: [values(s, [namedNode('urn:a')]), node] }));
    expect(text.replace(/\s+/g, ' ')).toContain(
      '{ SELECT ?s ?o WHERE { ?s brick:hasPart ?o. } } OPTION (TRANSITIVE, t_in(?s), t_out(?o), t_distinct, t_min(1), t_max(1)) .',
    );
  });

  it('prints a UNION of groups', () => {
    sameMeaning(
      select({
        variables: [e],
        where: [union([triple(e, hasPart, o), [triple(e, hasPoint, o), filter(op('isiri', o))]])],
      }),
      'SELECT ?e WHERE { { ?e brick:hasPart ?o } UNION { ?e brick:hasPoint ?o FILTER(isIRI(?o)) } }',
    );
  });
});

describe('serialize() of updates', () => {
  const hostile = 'a "quoted" \\ value\nwith } UNION { ?s ?p ?o } #';
  const triples = (): Triple[] => [
    { subject: namedNode('urn:s'), predicate: namedNode('urn:p'), object: literal(hostile) },
    { subject: namedNode('urn:s'), predicate: namedNode('urn:q'), object: literal('Raum', 'de-CH') },
  ];
  const read = (store: oxigraph.Store) =>
    store.match(null, null, null, oxigraph.namedNode('urn:g')).map((q) => [q.predicate.value, q.object as Term]);

  it('inserts data, as INSERT DATA and as a template, exactly as given', () => {
    for (const template of [false, true]) {
      const store = new oxigraph.Store();
      store.update(serialize(update(insertData(namedNode('urn:g'), triples(), template))));
      const found = read(store);
      expect(found.map(([p, term]) => [p, (term as Term).value])).toEqual(
        expect.arrayContaining([
          ['urn:p', hostile],
          ['urn:q', 'Raum'],
        ]),
      );
    }
  });

  it('moves, adds and drops graphs', () => {
    const store = new oxigraph.Store();
    store.update(serialize(update(insertData(namedNode('urn:t'), triples()))));
    store.update(serialize(update(moveGraph(namedNode('urn:t'), namedNode('urn:g')))));
    expect(read(store)).toHaveLength(2);
    store.update(
      serialize(update(moveGraph(namedNode('urn:g'), namedNode('urn:h'), 'add'), dropGraph(namedNode('urn:g')))),
    );
    expect(read(store)).toHaveLength(0);
    expect(store.match(null, null, null, oxigraph.namedNode('urn:h'))).toHaveLength(2);
  });
});
