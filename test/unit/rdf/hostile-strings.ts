// Generated hostile strings for the escaping tests: characters that mean something in SPARQL,
// Turtle, JSON, GraphQL or regular expressions, SPARQL keywords, control characters, unicode that
// trips up case mapping, normalization and text direction, and very long strings. Shared by the
// unit test of src/rdf/sparql-algebra.ts and the end-to-end robustness test.
import fc from 'fast-check';

/** Single characters with a syntactic meaning somewhere between the client and the store. */
const SYNTAX = [
  '"',
  "'",
  '\\',
  '\n',
  '\r',
  '\t',
  '{',
  '}',
  '#',
  '<',
  '>',
  '?',
  '$',
  '.',
  ';',
  ',',
  ':',
  '/',
  '(',
  ')',
  '[',
  ']',
  '|',
  '^',
  '`',
  '@',
  '*',
  '+',
  '%',
  '&',
  '=',
  '!',
  '~',
  '-',
  '_',
  ' ',
];

/** Pieces of SPARQL (and of the escapes a broken escaper would produce) that would change a query if they escaped their literal. */
const SPARQL_PIECES = [
  '} UNION {',
  '" } UNION { ?s ?p ?o } #',
  'FILTER',
  'FILTER(true)',
  ') || true || (',
  'DROP GRAPH <urn:bkg:site:h000>',
  'DROP ALL',
  'DELETE WHERE { ?s ?p ?o }',
  'INSERT DATA { <urn:a> <urn:b> <urn:c> }',
  'SELECT * WHERE { ?s ?p ?o }',
  'SERVICE <http://127.0.0.1/>',
  'OPTIONAL',
  'VALUES ?e { <urn:x> }',
  '?e',
  '$e',
  '"""',
  "'''",
  '" . } #',
  '"@en',
  '"^^<http://www.w3.org/2001/XMLSchema#string>',
  '\\u0022',
  '\\U00000022',
  '\\"',
  '\\\\',
  'PREFIX x: <urn:x#>',
  'rdfs:label',
  'brick:AHU',
  '<https://brickschema.org/schema/Brick#AHU>',
  'https://example.org/hostile#e1',
  'urn:bkg:site:h000',
  'a:b',
];

/** Regular-expression metacharacters, in case a filter ever used REGEX on user input. */
const REGEX_PIECES = [
  '.*',
  '^',
  '$',
  '\\d+',
  '[a-z]',
  '[^]',
  '(?i)',
  '(',
  ')',
  '|',
  '+?',
  '{2,}',
  '\\b',
  '\\p{L}',
  '$1',
  '\\1',
  '\\',
];

/** GraphQL and JSON pieces. */
const TRANSPORT_PIECES = ['{ __typename }', '"}', '\\u0000', '${s}', '#{x}', '"\n}', '\\n', '\u0000'];

/**
 * Unicode that a naive implementation gets wrong: case mappings that change length or depend on
 * context (İ, ß, final sigma), characters whose lowercase is another script's letter (Kelvin sign),
 * combining marks (also leading, with nothing to combine with), direction marks and overrides,
 * zero-width joiners, non-BMP characters (emoji, mathematical letters), BOM and non-characters.
 */
const UNICODE_PIECES = [
  'é',
  'e\u0301',
  '\u0301',
  '\u0308\u0308',
  'İ',
  'ı',
  'ß',
  'ẞ',
  'Σ',
  'ΣΑΣ',
  'ς',
  'σ',
  'ﬁ',
  '\u212a',
  '\u212b',
  'ǅ',
  'ᾼ',
  'Ω',
  'ΐ',
  '\u05e9\u05dc\u05d5\u05dd',
  '\u0645\u0631\u062d\u0628\u0627',
  '\u202e',
  '\u202d',
  '\u200f',
  '\u200e',
  '\u2066',
  '\u200b',
  '\u200d',
  '\u2028',
  '\u2029',
  '\u0085',
  '\u00a0',
  '\ufeff',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '😀',
  '👩‍👩‍👧',
  '🏳️‍🌈',
  '🇫🇷',
  '𝔘𝔫𝔦',
  '𐐀',
  '𐐨',
  '漢字',
  'Ⅻ',
  'ⓐ',
  'Ａ',
  '\u{10ffff}',
  '\u{e0001}',
];

const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f), fc.integer({ min: 0x80, max: 0x9f }))
  .map((c) => String.fromCharCode(c));

/** One piece of a hostile string. */
export const hostileToken: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SYNTAX) },
  { weight: 2, arbitrary: controlCharacter },
  { weight: 2, arbitrary: fc.constantFrom(...SPARQL_PIECES) },
  { weight: 1, arbitrary: fc.constantFrom(...REGEX_PIECES) },
  { weight: 1, arbitrary: fc.constantFrom(...TRANSPORT_PIECES) },
  { weight: 3, arbitrary: fc.constantFrom(...UNICODE_PIECES) },
  // Any code point, assigned or not (never half a surrogate pair).
  { weight: 3, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }) },
  // Printable graphemes: emoji sequences, letters with combining marks, any script.
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }) },
  // Plain words in mixed case, so that names share substrings and case matters.
  {
    weight: 4,
    arbitrary: fc.constantFrom('AHU', 'ahu', 'Ahu', 'Room', 'ROOM', 'Zone 1', 'temp', 'TEMP', 'x', 'X', '1'),
  },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }) },
);

/** Repeats `unit` up to exactly `codePoints` code points, cutting between code points. */
function repeatTo(unit: string, codePoints: number): string {
  const points = Array.from(unit);
  const out: string[] = [];
  while (out.length < codePoints) out.push(...points);
  return out.slice(0, codePoints).join('');
}

/** A very long string: a hostile pattern repeated to between 1,000 and 10,000 code points (often exactly 10,000). */
const longHostileString = fc
  .record({
    parts: fc.array(hostileToken, { minLength: 1, maxLength: 6 }),
    length: fc.oneof(fc.constant(10_000), fc.integer({ min: 1_000, max: 10_000 })),
  })
  .map(({ parts, length }) => repeatTo(parts.join(''), length));

/** A hostile string: up to 16 hostile pieces, sometimes none, sometimes very long. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 98, arbitrary: fc.array(hostileToken, { maxLength: 16 }).map((parts) => parts.join('')) },
  { weight: 2, arbitrary: longHostileString },
);

/**
 * `count` hostile strings, the same on every run. One in four is a case variant of the string
 * before it (upper-cased, lower-cased or with cases swapped), so case-insensitive matching has
 * near misses and near hits to get right.
 */
export function sampleHostileStrings(count: number, seed: number): string[] {
  const strings = fc.sample(hostileString, { numRuns: count, seed });
  const variants = [(s: string) => s.toUpperCase(), (s: string) => s.toLowerCase(), swapCase];
  for (let i = 3; i < strings.length; i += 4) strings[i] = variants[(i >> 2) % variants.length]!(strings[i - 1]!);
  return strings;
}

function swapCase(s: string): string {
  return Array.from(s, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
}

/**
 * A Turtle string literal: the escaper a fixture writer needs (written here, independently of the
 * code under test). Escapes `\`, `"`, newline, return and tab, and every other C0 control and DEL
 * as \uXXXX; everything else is written as it is.
 */
export function turtleString(value: string): string {
  let out = '"';
  for (const c of value) {
    const code = c.codePointAt(0)!;
    if (c === '\\') out += '\\\\';
    else if (c === '"') out += '\\"';
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

/** A string for a failure message: JSON-quoted and cut to `max` characters. */
export function show(value: string, max = 80): string {
  const quoted = JSON.stringify(value);
  return quoted.length <= max ? quoted : `${quoted.slice(0, max)}…(${value.length} chars)`;
}
