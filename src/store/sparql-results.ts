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
      // An IRI may hold UCHAR escapes in N-Triples (Virtuoso writes every non-ASCII character so).
      return text.charCodeAt(1) === 0x3c ? undefined : { type: 'uri', value: unescape(text.slice(1, -1)) };
    case 0x5f /* _ */:
      return { type: 'bnode', value: text.slice(2) };
    case 0x22 /* " */: {
      // Neither a language tag nor a datatype IRI holds a quote: the last one closes the lexical form.
      const close = text.lastIndexOf('"');
      const value = unescape(text.slice(1, close));
      const rest = text.slice(close + 1);
      if (rest === '') return { type: 'literal', value };
      if (rest.startsWith('@'))
        return rest.includes('--') ? undefined : { type: 'literal', value, 'xml:lang': rest.slice(1) };
      // Virtuoso writes a datatype of its own (not XSD's) without angle brackets: `"x"^^http://…`.
      const datatype = rest.startsWith('^^<') ? unescape(rest.slice(3, -1)) : unescape(rest.slice(2));
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
 * directional language tags): ask for JSON then. Stops between two slices once `signal` (the request's) is aborted.
 */
export async function parseTsvSelectResults(tsv: string, signal?: AbortSignal): Promise<SparqlRow[] | undefined> {
  const lines = tsv.split('\n');
  // No variables: an empty header, then an empty line per solution.
  if (lines[0] === '') return Array.from({ length: lines.length - 2 }, () => ({}));
  const vars = lines[0]!.split('\t').map((v) => v.slice(1));
  const rows: SparqlRow[] = [];
  // A large answer is parsed in slices of the main thread (src/limits/main-thread.ts).
  const slices = new MainThreadSlices(signal);
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

/** A statement of a result set written as RDF: its subject, then the `res:` property after this prefix. */
const RESULT_PROPERTY = ' <http://www.w3.org/2005/sparql-results#';

/**
 * Parses a SELECT answer written as N-Triples of the result-set vocabulary (`res:solution`,
 * `res:binding`, `res:variable`, `res:value`), as Virtuoso 7.2 writes it for `Accept:
 * application/n-triples`, into the rows the JSON format gives, in the order written. Virtuoso writes
 * it in a third of the time of its SPARQL XML and a tenth of its JSON (the points of 189 equipment,
 * 1,712 rows: 27 ms against 72 and 330, bench/stores); each value is an N-Triples term, escapes
 * and all, so nothing is lost. Its first statement (`rdf:type` written as a prefixed name) is not
 * N-Triples, so it is read line by line, not by an RDF parser. Undefined for a document this reader
 * does not know (ask for JSON then).
 */
export async function parseResultSetNTriples(text: string): Promise<SparqlRow[] | undefined> {
  if (!text.includes(`${RESULT_PROPERTY}resultVariable> `)) return undefined;
  const rows: Array<Record<string, RdfTerm>> = [];
  const rowOf = new Map<string, Record<string, RdfTerm>>();
  // A binding's row, then its variable and value as their statements come.
  const bindings = new Map<string, { row: Record<string, RdfTerm>; name?: string; term?: RdfTerm }>();
  const slices = new MainThreadSlices();
  for (let at = 0; at < text.length;) {
    const newline = text.indexOf('\n', at);
    const end = newline < 0 ? text.length : newline;
    const space = text.indexOf(' ', at);
    if (space > at && space < end && text.startsWith(RESULT_PROPERTY, space)) {
      const from = space + RESULT_PROPERTY.length;
      const close = text.indexOf('> ', from);
      if (close < 0 || close > end || !text.startsWith(' .', end - 2)) return undefined;
      const property = text.slice(from, close);
      const subject = text.slice(at, space);
      const object = text.slice(close + 2, end - 2);
      if (property === 'solution') {
        const row = {};
        rows.push(row);
        rowOf.set(object, row);
        const pause = slices.step();
        if (pause) await pause;
      } else if (property === 'binding') {
        const row = rowOf.get(subject);
        if (!row) return undefined;
        bindings.set(object, { row });
      } else if (property === 'variable' || property === 'value') {
        const binding = bindings.get(subject);
        if (!binding) return undefined;
        if (property === 'variable') binding.name = object.slice(1, -1);
        else if (!(binding.term = termOf(object))) return undefined;
        if (binding.name !== undefined && binding.term) {
          binding.row[binding.name] = binding.term;
          bindings.delete(subject);
        }
      } else if (property !== 'resultVariable') return undefined;
    }
    at = end + 1;
  }
  // A binding whose variable or value was missing would be lost without a word: then JSON.
  return bindings.size === 0 ? rows : undefined;
}
