import oxigraph from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { parseSelectResults, parseTsvSelectResults, parseXmlSelectResults } from '../../../src/store/sparql-results.ts';

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

describe('SPARQL XML results', () => {
  it('read every term as the JSON results give it', async () => {
    const s = store();
    const query = 'SELECT ?s ?p ?o ?unbound WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o';
    const xml = s.query(query, { results_format: 'application/sparql-results+xml' }) as string;
    const json = parseSelectResults(s.query(query, { results_format: 'application/sparql-results+json' }) as string);
    expect(json.length).toBeGreaterThanOrEqual(28);
    expect(await parseXmlSelectResults(xml)).toEqual(json);
  });

  it('read a solution without bindings as an empty row', async () => {
    const xml = store().query('SELECT * WHERE { VALUES ?x { UNDEF } }', { results_format: 'application/sparql-results+xml' }) as string;
    expect(await parseXmlSelectResults(xml)).toEqual([{}]);
  });

  it('say so for a binding written in a form they do not read (single-quoted attributes), so the caller asks for JSON', async () => {
    const xml = `<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head><variable name="x"/></head><results>
<result><binding name='x'><uri>http://a</uri></binding></result></results></sparql>`;
    expect(await parseXmlSelectResults(xml)).toBeUndefined();
  });
});
