import oxigraph from 'oxigraph';
import { describe, expect, it } from 'vitest';
import {
  parseResultSetNTriples,
  parseSelectResults,
  parseTsvSelectResults,
} from '../../../src/store/sparql-results.ts';

// Terms of every shape the embedded store can hold, with the characters TSV escapes.
const DATA = String.raw`
@prefix ex: <http://example.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:s ex:p "plain", "tab\there \"quoted\" new\nline back\\slash\rreturn", "uni é 🌡 \u0001 ctrl", "", " ",
  "hi"@en-GB, "salut"@fr, 42, -5, +7, 007, 1.5, .5, -0.25, 1.0e3, 4E-2, true, false,
  "2020-01-01"^^xsd:date, "12"^^xsd:integer, "1000"^^xsd:double, "abc"^^xsd:integer, "x"^^ex:dt,
  "typed string"^^xsd:string, "tab\t"@en, ex:o, <http://example.org/ü/ä?q=1#f>, _:b1, [ ex:q 1 ] .
`;

function store(): oxigraph.Store {
  const s = new oxigraph.Store();
  s.load(DATA, { format: 'text/turtle' });
  return s;
}

async function both(s: oxigraph.Store, query: string) {
  const tsv = s.query(query, { results_format: 'text/tab-separated-values' }) as string;
  const json = s.query(query, { results_format: 'application/sparql-results+json' }) as string;
  return { tsv: await parseTsvSelectResults(tsv), json: parseSelectResults(json) };
}

describe('SPARQL TSV results', async () => {
  it('read every term as the JSON results give it', async () => {
    const { tsv, json } = await both(store(), 'SELECT ?s ?p ?o ?unbound WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o');
    expect(json.length).toBeGreaterThanOrEqual(28);
    expect(tsv).toEqual(json);
  });

  it('read values computed by the query, and unbound variables in any column', async () => {
    const { tsv, json } = await both(
      store(),
      'SELECT ?a ?o ?len ?str ?b WHERE { ?s <http://example.org/p> ?o OPTIONAL { FILTER(false) BIND(1 AS ?a) } BIND(STRLEN(STR(?o)) AS ?len) BIND(CONCAT(STR(?o), "\\t|") AS ?str) } ORDER BY ?o',
    );
    expect(tsv).toEqual(json);
  });

  it('count solutions without variables and empty answers', async () => {
    const s = store();
    expect((await both(s, 'SELECT * WHERE { }')).tsv).toEqual([{}]);
    expect((await both(s, 'SELECT * WHERE { VALUES ?x { 1 } } LIMIT 0')).tsv).toEqual([]);
    expect((await both(s, 'SELECT * WHERE { } LIMIT 0')).tsv).toEqual([]);
  });

  it('say so for a term JSON writes otherwise (a triple term), so the caller asks for JSON', async () => {
    expect(await parseTsvSelectResults('?t\n<< <http://a> <http://b> <http://c> >>\n')).toBeUndefined();
    expect(await parseTsvSelectResults('?d\n"x"@en--ltr\n')).toBeUndefined();
  });
});

/**
 * A SELECT answer of the embedded store written as Virtuoso writes a result set in N-Triples
 * (its first statement's `rdf:type` a prefixed name, as Virtuoso 7.2 writes it).
 */
function resultSet(s: oxigraph.Store, query: string): string {
  const res = 'http://www.w3.org/2005/sparql-results#';
  const solutions = s.query(query) as Array<Map<string, oxigraph.Term>>;
  const lines = [
    '_:RS rdf:type <http://www.w3.org/1999/02/22-rdf-syntax-ns#res:ResultSet> .',
    `_:RS <${res}resultVariable> "x" .`,
  ];
  solutions.forEach((solution, r) => {
    lines.push(`_:RS <${res}solution> _:RSr${r} .`);
    [...solution.entries()].forEach(([name, term], c) => {
      lines.push(
        `_:RSr${r} <${res}binding> _:RSr${r}c${c} .`,
        `_:RSr${r}c${c} <${res}variable> "${name}" .`,
        `_:RSr${r}c${c} <${res}value> ${term.toString()} .`,
      );
    });
  });
  return `${lines.join('\n')}\n`;
}

describe('SPARQL results as an N-Triples result set', () => {
  it('read every term as the JSON results give it, in the order written', async () => {
    const s = store();
    const query = 'SELECT ?s ?p ?o ?unbound WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o';
    const json = parseSelectResults(s.query(query, { results_format: 'application/sparql-results+json' }) as string);
    expect(json.length).toBeGreaterThanOrEqual(28);
    expect(await parseResultSetNTriples(resultSet(s, query))).toEqual(json);
  });

  it('read IRIs and literals with UCHAR escapes, as Virtuoso writes every non-ASCII character', async () => {
    const text = `_:RS <http://www.w3.org/2005/sparql-results#resultVariable> "x" .
_:RS <http://www.w3.org/2005/sparql-results#solution> _:RSr0 .
_:RSr0 <http://www.w3.org/2005/sparql-results#binding> _:RSr0c0 .
_:RSr0c0 <http://www.w3.org/2005/sparql-results#variable> "x" .
_:RSr0c0 <http://www.w3.org/2005/sparql-results#value> "\\u00E9 \\u6F22 \\U0001F321"@fr .
_:RSr0 <http://www.w3.org/2005/sparql-results#binding> _:RSr0c1 .
_:RSr0c1 <http://www.w3.org/2005/sparql-results#variable> "y" .
_:RSr0c1 <http://www.w3.org/2005/sparql-results#value> <http://x.org/\\u00E9> .
`;
    expect(await parseResultSetNTriples(text)).toEqual([
      { x: { type: 'literal', value: 'é 漢 🌡', 'xml:lang': 'fr' }, y: { type: 'uri', value: 'http://x.org/é' } },
    ]);
    // Virtuoso writes a datatype of its own without angle brackets.
    const own = text.replace(/"[^"]*"@fr/, '"x"^^http://example.org/dt');
    expect((await parseResultSetNTriples(own))?.[0]?.x).toEqual({
      type: 'literal',
      value: 'x',
      datatype: 'http://example.org/dt',
    });
  });

  it('read a solution without bindings as an empty row, and an answer without solutions as none', async () => {
    expect(await parseResultSetNTriples(resultSet(store(), 'SELECT ?x WHERE { VALUES ?x { UNDEF } }'))).toEqual([{}]);
    expect(await parseResultSetNTriples(resultSet(store(), 'SELECT ?x WHERE { VALUES ?x { 1 } } LIMIT 0'))).toEqual([]);
  });

  it('say so for a document they do not read, so the caller asks for JSON', async () => {
    const s = store();
    const whole = resultSet(s, 'SELECT ?s ?o WHERE { ?s ?p ?o } LIMIT 3');
    expect(
      await parseResultSetNTriples('<sparql xmlns="http://www.w3.org/2005/sparql-results#"><results/></sparql>'),
    ).toBeUndefined();
    // A value without its variable, a binding of no solution, and a statement cut short.
    expect(await parseResultSetNTriples(whole.replace(/^.*#variable> "o" \.\n/m, ''))).toBeUndefined();
    expect(await parseResultSetNTriples(whole.replace(/^.*#solution> _:RSr0 \.\n/m, ''))).toBeUndefined();
    expect(await parseResultSetNTriples(whole.replace(/ \.\n$/, '\n'))).toBeUndefined();
    expect(await parseResultSetNTriples(whole.replace(/#value> [^\n]*/, '#value> "x"@en--ltr .'))).toBeUndefined();
  });
});
