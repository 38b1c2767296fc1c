// The one SPARQL escaping module (src/rdf/sparql.ts; CONVENTIONS habit 2): what `literal()` and
// `iri()` write must mean, to a real SPARQL parser, exactly the value they were given. The parser
// is Oxigraph's, the engine the service embeds: each term is evaluated as `SELECT (<term> AS ?x) {}`
// on an empty store and the value read back.
import fc from 'fast-check';
import oxigraph, { type Literal, type Term } from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { Sparql, integer, iri, isAbsoluteIri, join, literal, prologue, sparql, trusted, variable } from '../../../src/rdf/sparql.ts';
import { hostileString, turtleString } from './hostile-strings.ts';

const store = new oxigraph.Store();

/** Evaluates one SPARQL term with Oxigraph and returns the term it denotes. */
function evaluate(term: Sparql): Term {
  const rows = store.query(`${prologue.text}\nSELECT (${term.text} AS ?x) WHERE {}`) as Map<string, Term>[];
  const value = rows[0]?.get('x');
  if (!value) throw new Error(`no value for ${term.text}`);
  return value;
}

const RUNS = 10_000;
const BRICK = 'https://brickschema.org/schema/Brick#';

describe('literal()', () => {
  it(`round-trips ${RUNS} hostile strings through the SPARQL parser unchanged`, () => {
    fc.assert(
      fc.property(hostileString, (value) => {
        const term = evaluate(literal(value));
        expect(term.termType).toBe('Literal');
        expect(term.value).toBe(value);
      }),
      { numRuns: RUNS },
    );
  });

  it(`round-trips ${RUNS} strings of arbitrary code points unchanged`, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (value) => {
        expect(evaluate(literal(value)).value).toBe(value);
      }),
      { numRuns: RUNS },
    );
  });

  it('round-trips every control character, alone and between quotes', () => {
    for (let code = 0; code <= 0x9f; code++) {
      if (code > 0x20 && code < 0x7f) continue;
      const c = String.fromCharCode(code);
      for (const value of [c, `"${c}"`, `\\${c}`, `${c}'`]) expect(evaluate(literal(value)).value, `U+${code.toString(16)}`).toBe(value);
    }
  });

  it('keeps a string that closes its literal and opens a pattern inside the literal', () => {
    const value = '" } UNION { ?s ?p ?o } #';
    const query = sparql`SELECT ?x WHERE { BIND(${literal(value)} AS ?x) }`;
    const rows = store.query(query.text) as Map<string, Term>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.get('x')?.value).toBe(value);
  });

  it('writes a language tag, and rejects one that is not a language tag', () => {
    const term = evaluate(literal('Raum "1"', 'de-CH')) as Literal;
    expect(term.value).toBe('Raum "1"');
    expect(term.language).toBe('de-ch');
    for (const tag of ['', 'de CH', 'en"', 'en} UNION {', '123456789', 'de-']) expect(() => literal('x', tag)).toThrow(TypeError);
  });
});

describe('iri()', () => {
  it('shortens IRIs in the known namespaces to prefixed names', () => {
    expect(iri(`${BRICK}AHU`).text).toBe('brick:AHU');
    expect(iri('https://w3id.org/rec#Room').text).toBe('rec:Room');
    expect(iri('http://www.w3.org/2000/01/rdf-schema#label').text).toBe('rdfs:label');
    expect(iri('https://brickschema.org/schema/Brick/ref#hasExternalReference').text).toBe('ref:hasExternalReference');
  });

  it('writes other IRIs, and local names a prefixed name cannot carry, in full', () => {
    expect(iri('urn:bkg:site:demo').text).toBe('<urn:bkg:site:demo>');
    expect(iri('https://example.org/f#AHU1').text).toBe('<https://example.org/f#AHU1>');
    expect(iri(`${BRICK}a.b`).text).toBe(`<${BRICK}a.b>`);
    expect(iri(`${BRICK}1st`).text).toBe(`<${BRICK}1st>`);
    expect(iri(`${BRICK}`).text).toBe(`<${BRICK}>`);
    expect(iri(`${BRICK}A/B`).text).toBe(`<${BRICK}A/B>`);
  });

  it('rejects strings that are not absolute IRIs', () => {
    const invalid = [
      '',
      'AHU1',
      '#AHU1',
      '/a/b',
      '1abc:x',
      ':x',
      'https://example.org/a b',
      'https://example.org/a>b',
      'https://example.org/a<b',
      'https://example.org/a"b',
      'https://example.org/a{b}',
      'https://example.org/a|b',
      'https://example.org/a^b',
      'https://example.org/a`b',
      'https://example.org/a\\b',
      'https://example.org/a\nb',
      'https://example.org/a\u0000b',
      'https://example.org/x> . ?s ?p ?o . <urn:y',
      'urn:x> } UNION { ?s ?p ?o } #',
    ];
    for (const value of invalid) {
      expect(isAbsoluteIri(value), JSON.stringify(value)).toBe(false);
      expect(() => iri(value), JSON.stringify(value)).toThrow(TypeError);
    }
  });

  // IRIREF's character rules are not enough: the parser also checks the IRI's own grammar (RFC 3987).
  it.each([
    ['brackets outside an IP literal host', 'https://example.org/f#[a]'],
    ['a second #', 'https://example.org/f#a#b'],
    ['a % without two hex digits', 'https://example.org/f#100%'],
    ['a port that is not a number', 'https://example.org:port/'],
    ['DEL (U+007F)', 'urn:a\u007fb'],
    ['NEL (U+0085)', 'urn:a\u0085b'],
    ['a non-character (U+FFFE)', 'urn:a\ufffeb'],
    ['a private-use character (U+E000)', 'urn:a\ue000b'],
  ])('refuses an IRI with %s, which the parser would refuse', (_what, value) => {
    let parsed = true;
    try {
      store.query(`SELECT (<${value}> AS ?x) WHERE {}`);
    } catch {
      parsed = false;
    }
    expect(parsed).toBe(false);
    expect(() => iri(value)).toThrow(TypeError);
  });

  it(`for ${RUNS} hostile strings, either refuses or writes an IRI the parser reads back unchanged`, () => {
    const candidates = fc.oneof(
      hostileString,
      hostileString.map((s) => `https://example.org/hostile#${s}`),
      hostileString.map((s) => `${BRICK}${s}`),
      hostileString.map((s) => `urn:${s}`),
    );
    let accepted = 0;
    fc.assert(
      fc.property(candidates, (value) => {
        let term: Sparql;
        try {
          term = iri(value);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect(isAbsoluteIri(value)).toBe(false);
          return;
        }
        accepted++;
        const read = evaluate(term);
        expect(read.termType).toBe('NamedNode');
        expect(read.value).toBe(value);
      }),
      { numRuns: RUNS },
    );
    // The property must have been checked on accepted IRIs too, not only on refusals.
    expect(accepted).toBeGreaterThan(RUNS / 10);
  });
});

describe('sparql`` template', () => {
  const bare = (value: unknown) => sparql`SELECT * WHERE { ?s ?p ${value as Sparql} }`;

  it('rejects a bare string interpolation', () => {
    expect(() => bare('"x" } UNION { ?s ?p ?o')).toThrow(TypeError);
    expect(() => bare('x')).toThrow(/Only Sparql fragments/);
  });

  it('rejects any other non-fragment value, also inside an array', () => {
    for (const value of [42, undefined, null, { text: '?o' }, ['?o'], [literal('a'), 'b']]) expect(() => bare(value)).toThrow(TypeError);
  });

  it('accepts fragments and arrays of fragments, joined with spaces', () => {
    const query = sparql`SELECT * WHERE { ${variable('s')} ${iri(`${BRICK}hasPoint`)} ${[literal('a'), literal('b')]} }`;
    expect(query.text).toBe('SELECT * WHERE { ?s brick:hasPoint "a" "b" }');
    expect(join([trusted('?a'), trusted('?b')], ', ').text).toBe('?a, ?b');
  });
});

describe('integer() and variable()', () => {
  it('integer() writes safe integers and rejects anything else', () => {
    expect(integer(-3).text).toBe('-3');
    for (const value of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) expect(() => integer(value)).toThrow(TypeError);
  });

  it('variable() rejects names that are not SPARQL variable names', () => {
    expect(variable('c0_k').text).toBe('?c0_k');
    for (const name of ['', '1a', 'a b', 'a}', 'a?', 'é']) expect(() => variable(name)).toThrow(TypeError);
  });
});

describe('the test fixtures\' Turtle escaper', () => {
  // The robustness test writes its site with this escaper; it must be right for that test to mean anything.
  it(`stores ${RUNS / 10} hostile strings exactly as given`, () => {
    fc.assert(
      fc.property(hostileString, (value) => {
        const quads = oxigraph.parse(`<urn:s> <urn:p> ${turtleString(value)} .`, { format: 'text/turtle' });
        expect(quads).toHaveLength(1);
        expect(quads[0]!.object.value).toBe(value);
      }),
      { numRuns: RUNS / 10 },
    );
  });
});
