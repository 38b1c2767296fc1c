import { MainThreadSlices } from '../limits/main-thread.ts';
import type { RdfTerm, SparqlRow } from './graph-store.ts';

/** Parses a SPARQL 1.1 Query Results JSON document of a SELECT query into rows. */
export function parseSelectResults(json: string): SparqlRow[] {
  const document = JSON.parse(json) as { results?: { bindings?: SparqlRow[] } };
  return document.results?.bindings ?? [];
}

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?\d*\.\d+$/;
const DOUBLE = /^[+-]?(?:\d+\.?\d*|\.\d+)[eE][+-]?\d+$/;
const ESCAPE = /\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g;
const ECHAR: Record<string, string> = { t: '\t', b: '\b', n: '\n', r: '\r', f: '\f', '"': '"', "'": "'", '\\': '\\' };

/** A literal's lexical form with its escapes (Turtle's ECHAR and UCHAR) resolved. */
function unescape(body: string): string {
  if (!body.includes('\\')) return body;
  return body.replace(ESCAPE, (_, u4: string | undefined, u8: string | undefined, char: string | undefined) =>
    u4 || u8 ? String.fromCodePoint(parseInt((u4 ?? u8)!, 16)) : (ECHAR[char!] ?? char!),
  );
}

/** A bare Turtle token (number or boolean) as a typed literal. */
function bareLiteral(token: string): RdfTerm | undefined {
  if (token === 'true' || token === 'false') return { type: 'literal', value: token, datatype: `${XSD}boolean` };
  if (INTEGER.test(token)) return { type: 'literal', value: token, datatype: `${XSD}integer` };
  if (DECIMAL.test(token)) return { type: 'literal', value: token, datatype: `${XSD}decimal` };
  if (DOUBLE.test(token)) return { type: 'literal', value: token, datatype: `${XSD}double` };
  return undefined;
}

/** One TSV term as SPARQL JSON writes it; undefined for a term JSON would write otherwise (a triple term). */
function termOf(text: string): RdfTerm | undefined {
  switch (text.charCodeAt(0)) {
    case 0x3c /* < */:
      return text.charCodeAt(1) === 0x3c ? undefined : { type: 'uri', value: text.slice(1, -1) };
    case 0x5f /* _ */:
      return { type: 'bnode', value: text.slice(2) };
    case 0x22 /* " */: {
      // Neither a language tag nor a datatype IRI holds a quote: the last one closes the lexical form.
      const close = text.lastIndexOf('"');
      const value = unescape(text.slice(1, close));
      const rest = text.slice(close + 1);
      if (rest === '') return { type: 'literal', value };
      if (rest.startsWith('@')) return rest.includes('--') ? undefined : { type: 'literal', value, 'xml:lang': rest.slice(1) };
      const datatype = rest.slice(3, -1);
      return datatype === `${XSD}string` ? { type: 'literal', value } : { type: 'literal', value, datatype };
    }
    default:
      return bareLiteral(text);
  }
}

/**
 * Parses SPARQL 1.1 Query Results TSV (as Oxigraph writes it) into the rows the JSON format gives.
 * Oxigraph writes TSV in two thirds of the time it takes for JSON, and it is shorter to copy and to
 * parse (bench/results-*.md). Undefined when a term has no JSON twin here (RDF 1.2 triple terms,
 * directional language tags): ask for JSON then.
 */
export async function parseTsvSelectResults(tsv: string): Promise<SparqlRow[] | undefined> {
  const lines = tsv.split('\n');
  // No variables: an empty header, then an empty line per solution.
  if (lines[0] === '') return Array.from({ length: lines.length - 2 }, () => ({}));
  const vars = lines[0]!.split('\t').map((v) => v.slice(1));
  const rows: SparqlRow[] = [];
  // A large answer is parsed in slices of the main thread (src/limits/main-thread.ts).
  const slices = new MainThreadSlices();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    const cells = line.split('\t');
    const row: Record<string, RdfTerm> = {};
    for (let j = 0; j < vars.length; j++) {
      const cell = cells[j];
      if (!cell) continue;
      const term = termOf(cell);
      if (!term) return undefined;
      row[vars[j]!] = term;
    }
    rows.push(row);
    const pause = slices.step();
    if (pause) await pause;
  }
  return rows;
}

// A binding of the SPARQL XML results: its name, then the term's element, attributes and text.
const XML_BINDING = /<binding name="([^"]+)">\s*<(uri|bnode|literal)((?:\s+[\w:]+="[^"]*")*)\s*(?:\/>|>([^<]*)<\/\2>)\s*<\/binding>|<\/result>|<result\s*\/>/g;
const XML_BINDING_OPEN = /<binding\s/g;
const XML_ATTRIBUTE = /([\w:]+)="([^"]*)"/g;
const XML_ENTITY = /&(?:#x([0-9A-Fa-f]+)|#(\d+)|(lt|gt|amp|quot|apos));/g;
const XML_NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const xmlText = (text: string): string =>
  text.includes('&') ? text.replace(XML_ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => (name ? XML_NAMED[name]! : String.fromCodePoint(parseInt(hex ?? dec!, hex ? 16 : 10)))) : text;

/**
 * Parses SPARQL 1.1 Query Results XML of a SELECT query into the rows the JSON format gives.
 * Virtuoso 7.2 writes XML in half the time it takes for JSON (its JSON writer cost it 100–300 ms on
 * an answer of 1,700 rows); undefined for a document this reader does not know (ask for JSON then).
 */
export async function parseXmlSelectResults(xml: string): Promise<SparqlRow[] | undefined> {
  if (!xml.includes('<results') || xml.includes('<![CDATA[') || xml.includes('<triple>')) return undefined;
  const rows: SparqlRow[] = [];
  const slices = new MainThreadSlices();
  let row: Record<string, RdfTerm> = {};
  let read = 0;
  for (const [, name, element, attributes, text] of xml.matchAll(XML_BINDING)) {
    if (!name) {
      rows.push(row);
      row = {};
      const pause = slices.step();
      if (pause) await pause;
      continue;
    }
    read++;
    const value = xmlText(text ?? '');
    if (element !== 'literal') {
      row[name] = { type: element === 'uri' ? 'uri' : 'bnode', value };
      continue;
    }
    let datatype: string | undefined;
    let lang: string | undefined;
    if (attributes) {
      for (const [, key, v] of attributes.matchAll(XML_ATTRIBUTE)) {
        if (key === 'datatype') datatype = xmlText(v!);
        else if (key === 'xml:lang') lang = xmlText(v!);
      }
    }
    if (datatype === `${XSD}string`) datatype = undefined;
    row[name] = { type: 'literal', value, ...(datatype ? { datatype } : {}), ...(lang ? { 'xml:lang': lang } : {}) };
  }
  // A binding written in a form the pattern does not match would be lost without a word: then JSON.
  return read === (xml.match(XML_BINDING_OPEN) ?? []).length ? rows : undefined;
}
