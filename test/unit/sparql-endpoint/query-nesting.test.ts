import sparqljs from 'sparqljs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.ts';
import { confineQuery } from '../../../src/sparql-endpoint/confine-query.ts';
import { QUERY_DEPTH_LIMIT, QUERY_NESTING_LIMIT, queryDepth } from '../../../src/sparql-endpoint/query-nesting.ts';

const confine = (text: string) => confineQuery(text, ['urn:bkg:site:a', 'urn:bkg:ontology'], 100);
const depth = (text: string) => queryDepth(new sparqljs.Parser().parse(text), Infinity);

/** What confining `text` throws. */
function refusal(text: string): AppError {
  try {
    confine(text);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('the query was not refused');
}

const groups = (n: number) => `SELECT * WHERE {${'{'.repeat(n - 1)} ?s ?p ?o ${'}'.repeat(n - 1)}} LIMIT 1`;
/** Blank-node property lists `n` deep in a group: sparqljs makes them a flat list of triples. */
const propertyLists = (n: number) =>
  `SELECT * WHERE { ?s <urn:p> ${'[ <urn:p> '.repeat(n - 1)}?o${' ]'.repeat(n - 1)} } LIMIT 1`;
const list = (n: number, item: (i: number) => string) => Array.from({ length: n }, (_, i) => item(i)).join(' ');

describe('a query’s nesting in its text', () => {
  it(`takes brackets ${QUERY_NESTING_LIMIT} deep, and refuses one more with QUERY_TOO_COMPLEX naming the limit`, () => {
    expect(() => confine(propertyLists(QUERY_NESTING_LIMIT))).not.toThrow();
    expect(refusal(propertyLists(QUERY_NESTING_LIMIT + 1))).toMatchObject({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    const error = refusal(groups(QUERY_NESTING_LIMIT + 1));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect(error.message).toBe(
      `SPARQL nesting deeper than ${QUERY_NESTING_LIMIT} levels of ( ), [ ], { } or << >> at line 1 column ${15 + QUERY_NESTING_LIMIT + 1}: the endpoint reads no deeper queries.`,
    );
  });

  it('refuses 5,000 nested groups at once, before sparqljs would overflow its stack', () => {
    const started = performance.now();
    expect(refusal(groups(5000)).code).toBe('QUERY_TOO_COMPLEX');
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('counts parenthesised expressions and paths, and not brackets in strings, IRIs or comments', () => {
    expect(
      refusal(
        `SELECT * WHERE { ?s ?p ?o FILTER(${'('.repeat(QUERY_NESTING_LIMIT)}true${')'.repeat(QUERY_NESTING_LIMIT)}) }`,
      ).message,
    ).toMatch(/^SPARQL nesting deeper/);
    expect(
      refusal(`SELECT * WHERE { ?s ${'('.repeat(QUERY_NESTING_LIMIT)}<urn:p>${')'.repeat(QUERY_NESTING_LIMIT)} ?o }`)
        .message,
    ).toMatch(/^SPARQL nesting deeper/);
    const many = '{(['.repeat(QUERY_NESTING_LIMIT);
    expect(() =>
      confine(`SELECT * WHERE { ?s <urn:p${many.replace(/\{/g, '')}> "${many}" . # ${many}\n ?s ?p '''${many}''' }`),
    ).not.toThrow();
  });
});

describe('a parsed query’s depth', () => {
  it('is small for real queries', () => {
    const query = `PREFIX brick: <https://brickschema.org/schema/Brick#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
      SELECT ?zone (COUNT(DISTINCT ?room) AS ?rooms) WHERE {
        ?zone a/rdfs:subClassOf* brick:HVAC_Zone ; brick:hasPart ?room .
        { ?room a brick:Room } UNION { ?room a brick:Space }
        OPTIONAL { ?zone rdfs:label ?label }
        OPTIONAL { ?vav brick:feeds ?zone . OPTIONAL { ?vav brick:hasPoint ?p FILTER NOT EXISTS { ?p a brick:Discharge_Air_Temperature_Sensor } } }
        BIND(COALESCE(?label, STR(?zone)) AS ?name)
        FILTER(REGEX(?name, "^Z", "i") && (?rooms > 0 || !BOUND(?label)))
      } GROUP BY ?zone HAVING (COUNT(?room) > 1) ORDER BY DESC(?rooms) LIMIT 100`;
    expect(depth(query)).toBeLessThan(QUERY_DEPTH_LIMIT / 4);
  });

  it('counts each item of a list Oxigraph folds into nested operators', () => {
    const optionals = (n: number) => `SELECT * WHERE { ?s ?p ?o ${list(n, () => 'OPTIONAL { ?s ?p ?o }')} }`;
    expect(depth(optionals(200)) - depth(optionals(100))).toBe(100);
    const unions = (n: number) => `SELECT * WHERE { ${list(n, () => '{ ?s ?p ?o }').replace(/\} \{/g, '} UNION {')} }`;
    expect(depth(unions(200)) - depth(unions(100))).toBe(100);
  });

  it('counts a VALUES block once, however many rows it has', () => {
    const values = (n: number) => `SELECT * WHERE { VALUES ?p { ${list(n, (i) => `<urn:p${i}>`)} } ?s ?p ?o }`;
    expect(depth(values(10_000))).toBe(depth(values(1)));
    expect(() => confine(values(10_000))).not.toThrow();
  });

  it('stops counting once past the limit', () => {
    const nested = new sparqljs.Parser().parse(groups(QUERY_NESTING_LIMIT));
    expect(queryDepth(nested, 10)).toBe(11);
    expect(queryDepth(nested, Infinity)).toBeGreaterThan(QUERY_NESTING_LIMIT);
  });

  const DEPTH_REFUSED = new RegExp(`^The query nests deeper than ${QUERY_DEPTH_LIMIT} levels once parsed`);

  it(`refuses flat lists that make a deep algebra, each a trap of Oxigraph's or a stack overflow of sparqljs's generator`, () => {
    const shapes = {
      'OPTIONAL after OPTIONAL': `SELECT * WHERE { ?s ?p ?o ${list(1000, () => 'OPTIONAL { ?s ?p ?o }')} }`,
      'BIND after BIND': `SELECT * WHERE { ?s ?p ?o ${list(1000, (i) => `BIND(1 AS ?b${i})`)} }`,
      'UNION branches': `ASK { ${list(1000, () => '{ ?s <urn:p> ?o }').replace(/\} \{/g, '} UNION {')} }`,
      'projected expressions': `SELECT ${list(1000, (i) => `(1 AS ?v${i})`)} WHERE { ?s ?p ?o }`,
      'path alternatives': `SELECT * WHERE { ?s <urn:p>${'|<urn:p>'.repeat(2000)} ?o }`,
      'IN values': `SELECT * WHERE { ?s ?p ?o FILTER(?o IN (${list(13_000, (i) => `${i},`)} 0)) }`,
      'a chain of +': `SELECT * WHERE { ?s ?p ?o FILTER(1${' + 1'.repeat(20_000)} > 0) }`,
    };
    for (const [name, query] of Object.entries(shapes)) expect(refusal(query).message, name).toMatch(DEPTH_REFUSED);
  });

  it(`takes a chain of OPTIONALs up to the limit`, () => {
    const optionals = (n: number) => `SELECT * WHERE { ?s ?p ?o ${list(n, () => 'OPTIONAL { ?s ?p ?o }')} }`;
    const base = depth(optionals(1)) - 1;
    expect(() => confine(optionals(QUERY_DEPTH_LIMIT - base))).not.toThrow();
    expect(refusal(optionals(QUERY_DEPTH_LIMIT - base + 1)).message).toMatch(DEPTH_REFUSED);
  });
});
