import { BKG, BRICK, OWL, RDF, RDFS, REC, REF, SKOS } from './vocabulary.ts';

/**
 * The one place SPARQL text is made from values. Pieces stay `Sparql` fragments until the final
 * `.text`; a template interpolation only accepts fragments, so a bare string can never reach a
 * query unescaped. User values enter as `literal()` or `iri()`, which escape or validate them.
 */
export class Sparql {
  /** Use the builders below; the constructor is for this module. */
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Piece = Sparql | readonly Sparql[];

/** Tagged template: `sparql\`?s ${iri(x)} ?o\``. Arrays are joined with spaces. */
export function sparql(strings: TemplateStringsArray, ...pieces: Piece[]): Sparql {
  let text = strings[0] ?? '';
  pieces.forEach((piece, i) => {
    text += pieceText(piece) + (strings[i + 1] ?? '');
  });
  return new Sparql(text);
}

function pieceText(piece: Piece): string {
  if (piece instanceof Sparql) return piece.text;
  if (Array.isArray(piece)) return piece.map(pieceText).join(' ');
  // A string here is a programming error: it would bypass escaping.
  throw new TypeError(`Only Sparql fragments may be interpolated into SPARQL, got ${typeof piece}`);
}

/** Joins fragments with a separator (a constant of this codebase, never user input). */
export function join(pieces: readonly Sparql[], separator: ' ' | '\n' | ' . ' | ' UNION ' | ', ' | ' || ' | ' && ' | '|'): Sparql {
  return new Sparql(pieces.map((p) => p.text).join(separator));
}

/** SPARQL text written in this codebase (vocabulary, fixed patterns). Never call with user input. */
export function trusted(text: string): Sparql {
  return new Sparql(text);
}

const ECHAR: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** A string literal, escaped as SPARQL's ECHAR rules require. */
export function literal(value: string, lang?: string): Sparql {
  const escaped = value.replace(/[\\"\n\r\t\b\f]/g, (c) => ECHAR[c]!);
  if (lang !== undefined) {
    if (!/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(lang)) throw new TypeError(`Invalid language tag ${lang}`);
    return new Sparql(`"${escaped}"@${lang}`);
  }
  return new Sparql(`"${escaped}"`);
}

/** An integer literal, for LIMIT and depth bounds. */
export function integer(value: number): Sparql {
  if (!Number.isSafeInteger(value)) throw new TypeError(`Not an integer: ${value}`);
  return new Sparql(String(value));
}

/** A variable; names are chosen by this codebase and checked anyway. */
export function variable(name: string): Sparql {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new TypeError(`Invalid variable name ${name}`);
  return new Sparql(`?${name}`);
}

// IRIREF forbids these characters outright (escapes are not allowed in IRIs).
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/;
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;

// Characters RFC 3987 does not allow anywhere in an IRI: DEL and C1 controls, non-characters, private use.
const IRI_NOT_ALLOWED = /[\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff\ue000-\uf8ff]/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/** RFC 3987 `ucschar` for non-ASCII code points (private use, allowed only in queries, is refused outright). */
function isIriChar(cp: number): boolean {
  if (cp < 0x80) return true;
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  if ((cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef)) return true;
  return cp >= 0x10000 && cp <= 0xefffd && (cp & 0xffff) <= 0xfffd && !(cp >= 0xe0000 && cp <= 0xe0fff);
}

/** True when the string is an absolute IRI a SPARQL parser accepts (IRIREF's characters and RFC 3987's grammar). */
export function isAbsoluteIri(value: string): boolean {
  if (!ABSOLUTE_IRI.test(value) || IRI_FORBIDDEN.test(value) || IRI_NOT_ALLOWED.test(value) || BAD_PERCENT.test(value)) return false;
  for (const char of value) if (!isIriChar(char.codePointAt(0)!)) return false;
  if (value.indexOf('#') !== value.lastIndexOf('#')) return false;
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(value)?.[1];
  const rest = authority === undefined ? value : value.slice(value.indexOf('//') + 2 + authority.length);
  if (/[[\]]/.test(rest)) return false;
  if (authority !== undefined) {
    const host = authority.slice(authority.lastIndexOf('@') + 1);
    const ipLiteral = /^\[[0-9A-Fa-f:.]+\](?::(\d*))?$/.exec(host);
    if (!ipLiteral) {
      if (/[[\]]/.test(host)) return false;
      const port = host.includes(':') ? host.slice(host.lastIndexOf(':') + 1) : '';
      if (!/^\d*$/.test(port)) return false;
    }
  }
  return true;
}

const PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['brick', BRICK],
  ['rec', REC],
  ['ref', REF],
  ['rdf', RDF],
  ['rdfs', RDFS],
  ['owl', OWL],
  ['skos', SKOS],
  ['bkg', BKG],
];
const SAFE_LOCAL = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The PREFIX lines every query starts with, so `iri()` can write short names. */
export const prologue = new Sparql(PREFIXES.map(([p, ns]) => `PREFIX ${p}: <${ns}>`).join('\n'));

// IRIs already written: the same class lists go into most queries, and validating each IRI again
// cost a third of a millisecond per query (bench/results-*.md). Bounded: cleared when full.
const written = new Map<string, Sparql>();
const WRITTEN_MAX = 50_000;

/** An IRI term; throws on a string that is not a valid absolute IRI. Known namespaces are shortened. */
export function iri(value: string): Sparql {
  const known = written.get(value);
  if (known) return known;
  if (!isAbsoluteIri(value)) throw new TypeError(`Not a valid absolute IRI: ${JSON.stringify(value).slice(0, 200)}`);
  if (written.size >= WRITTEN_MAX) written.clear();
  const term = shortened(value);
  written.set(value, term);
  return term;
}

function shortened(value: string): Sparql {
  for (const [prefix, ns] of PREFIXES) {
    if (value.startsWith(ns)) {
      const local = value.slice(ns.length);
      if (SAFE_LOCAL.test(local)) return new Sparql(`${prefix}:${local}`);
    }
  }
  return new Sparql(`<${value}>`);
}
