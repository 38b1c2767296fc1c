// The typed terms (src/rdf/sparql-algebra.ts) and the one serializer (sparql-serializer.ts;
// docs/architecture.md, "Design"): what `literal()` and `namedNode()` become once printed must mean, to a real
// SPARQL parser, exactly the value they were given. The parser is Oxigraph's, the engine the
// service embeds: each term is printed in `SELECT (<term> AS ?x) {}`, evaluated on an empty store
// and the value read back.
import fc from 'fast-check';
import oxigraph, { type Literal, type Term } from 'oxigraph';
import { describe, expect, it } from 'vitest';
import { isAbsoluteIri } from '../../../src/rdf/iri.ts';
import {
  bind,
  integer,
  literal,
  namedNode,
  select,
  variable,
  type Expression,
} from '../../../src/rdf/sparql-algebra.ts';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { hostileString, turtleString } from './hostile-strings.ts';

const store = new oxigraph.Store();

const X = variable('x');
/** The query `SELECT (term AS ?x) WHERE {}` as the serializer prints it. */
const printed = (term: Expression) => serialize(select({ variables: [[term, X]], where: [] }));
/** How the serializer writes one term. */
const written = (term: Expression) => /SELECT \((.*) AS \?x\)/s.exec(printed(term))![1];

/** Evaluates one term, printed by the serializer, with Oxigraph and returns the term it denotes. */
function evaluate(term: Expression): Term {
  const rows = store.query(printed(term)) as Map<string, Term>[];
  const value = rows[0]?.get('x');
  if (!value) throw new Error(`no value for ${printed(term)}`);
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
      for (const value of [c, `"${c}"`, `\\${c}`, `${c}'`])
        expect(evaluate(literal(value)).value, `U+${code.toString(16)}`).toBe(value);
    }
  });

  it('keeps a string that closes its literal and opens a pattern inside the literal', () => {
    const value = '" } UNION { ?s ?p ?o } #';
    const query = select({ variables: [X], where: [bind(literal(value), X)] });
    const rows = store.query(serialize(query)) as Map<string, Term>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.get('x')?.value).toBe(value);
  });

  it('writes a language tag, and rejects one that is not a language tag', () => {
    const term = evaluate(literal('Raum "1"', 'de-CH')) as Literal;
    expect(term.value).toBe('Raum "1"');
    expect(term.language).toBe('de-ch');
    for (const tag of ['', 'de CH', 'en"', 'en} UNION {', '123456789', 'de-'])
      expect(() => literal('x', tag)).toThrow(TypeError);
  });
});

describe('namedNode()', () => {
  it('shortens IRIs in the known namespaces to prefixed names', () => {
    expect(written(namedNode(`${BRICK}AHU`))).toBe('brick:AHU');
    expect(written(namedNode('https://w3id.org/rec#Room'))).toBe('rec:Room');
    expect(written(namedNode('http://www.w3.org/2000/01/rdf-schema#label'))).toBe('rdfs:label');
    expect(written(namedNode('https://brickschema.org/schema/Brick/ref#hasExternalReference'))).toBe(
      'ref:hasExternalReference',
    );
    expect(printed(namedNode(`${BRICK}AHU`))).toMatch(
      /^PREFIX brick: <https:\/\/brickschema\.org\/schema\/Brick#>\nSELECT/,
    );
  });

  it('writes other IRIs, and local names a prefixed name cannot carry, in full', () => {
    expect(written(namedNode('urn:bkg:site:demo'))).toBe('<urn:bkg:site:demo>');
    expect(written(namedNode('https://example.org/f#AHU1'))).toBe('<https://example.org/f#AHU1>');
    expect(written(namedNode(`${BRICK}a.b`))).toBe(`<${BRICK}a.b>`);
    expect(written(namedNode(`${BRICK}1st`))).toBe(`<${BRICK}1st>`);
    expect(written(namedNode(`${BRICK}`))).toBe(`<${BRICK}>`);
    expect(written(namedNode(`${BRICK}A/B`))).toBe(`<${BRICK}A/B>`);
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
      expect(() => namedNode(value), JSON.stringify(value)).toThrow(TypeError);
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
    expect(() => namedNode(value)).toThrow(TypeError);
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
        let term: Expression;
        try {
          term = namedNode(value);
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

describe('integer() and variable()', () => {
  it('integer() makes safe integers and rejects anything else', () => {
    expect(evaluate(integer(-3)).value).toBe('-3');
    for (const value of [1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => integer(value)).toThrow(TypeError);
  });

  it('variable() rejects names that are not SPARQL variable names', () => {
    expect(variable('c0_k').value).toBe('c0_k');
    for (const name of ['', '1a', 'a b', 'a}', 'a?', 'é']) expect(() => variable(name)).toThrow(TypeError);
  });

  it('variable() names a scoped or numbered variable from its parts, checked as a whole', () => {
    expect(variable('c0', 'k').value).toBe('c0_k');
    expect(variable(variable('name'), 2).value).toBe('name_2');
    expect(() => variable('c0', 'k}')).toThrow(TypeError);
  });
});

describe("the test fixtures' Turtle escaper", () => {
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
