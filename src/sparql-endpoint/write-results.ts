/**
 * Client query results in the formats of the SPARQL 1.1 Protocol, chosen by Accept: SELECT and ASK
 * as SPARQL JSON or XML results (SELECT also CSV and TSV), CONSTRUCT and DESCRIBE as Turtle or
 * N-Triples. Every store's answer goes through the same writers, so the bytes do not depend on it.
 */
import oxigraph from 'oxigraph';
import type { ClientQueryResult, RdfTerm, SparqlRow } from '../store/graph-store.ts';

/** Media types by query form, the first the default (Accept: *\/*). */
export const RESULT_TYPES = {
  SELECT: [
    'application/sparql-results+json',
    'application/sparql-results+xml',
    'text/csv',
    'text/tab-separated-values',
    'application/json',
  ],
  ASK: ['application/sparql-results+json', 'application/sparql-results+xml', 'application/json'],
  CONSTRUCT: ['text/turtle', 'application/n-triples', 'text/plain'],
  DESCRIBE: ['text/turtle', 'application/n-triples', 'text/plain'],
} as const;

/** The answer's body in a media type of RESULT_TYPES for its form. */
export function writeResults(result: ClientQueryResult, type: string): string {
  switch (result.form) {
    case 'ASK':
      return type === 'application/sparql-results+xml'
        ? xmlDocument('', `  <boolean>${result.value}</boolean>\n`)
        : JSON.stringify({ head: {}, boolean: result.value });
    case 'SELECT':
      if (type === 'application/sparql-results+xml') return selectXml(result.vars, result.rows);
      if (type === 'text/csv') return selectCsv(result.vars, result.rows);
      if (type === 'text/tab-separated-values') return selectTsv(result.vars, result.rows);
      return JSON.stringify({ head: { vars: result.vars }, results: { bindings: result.rows } });
    default: {
      if (type !== 'text/turtle') return result.ntriples;
      return new oxigraph.Store(oxigraph.parse(result.ntriples, { format: 'application/n-triples' })).dump({
        format: 'text/turtle',
        from_graph_name: oxigraph.defaultGraph(),
      });
    }
  }
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const xml = (text: string) => text.replace(/[&<>"]/g, (c) => XML_ESCAPES[c]!);

function xmlDocument(head: string, body: string): string {
  return `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n  <head>${head}</head>\n${body}</sparql>\n`;
}

function xmlTerm(term: RdfTerm): string {
  if (term.type === 'uri') return `<uri>${xml(term.value)}</uri>`;
  if (term.type === 'bnode') return `<bnode>${xml(term.value)}</bnode>`;
  const lang = term['xml:lang'] ? ` xml:lang="${xml(term['xml:lang'])}"` : '';
  const datatype = term.datatype ? ` datatype="${xml(term.datatype)}"` : '';
  return `<literal${lang}${datatype}>${xml(term.value)}</literal>`;
}

function selectXml(vars: readonly string[], rows: readonly SparqlRow[]): string {
  const head = vars.map((v) => `<variable name="${xml(v)}"/>`).join('');
  const results = rows.map((row) => {
    const bindings = vars.filter((v) => row[v]).map((v) => `<binding name="${xml(v)}">${xmlTerm(row[v]!)}</binding>`);
    return `    <result>${bindings.join('')}</result>\n`;
  });
  return xmlDocument(head, `  <results>\n${results.join('')}  </results>\n`);
}

// SPARQL 1.1 CSV: plain values, quoted when they hold a comma, quote or line break; CRLF lines.
const csvField = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function selectCsv(vars: readonly string[], rows: readonly SparqlRow[]): string {
  const lines = [
    vars.map(csvField).join(','),
    ...rows.map((row) => vars.map((v) => csvField(row[v]?.value ?? '')).join(',')),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

// SPARQL 1.1 TSV: terms in Turtle syntax (Oxigraph writes them), `?var` headers.
function tsvTerm(term: RdfTerm | undefined): string {
  if (!term) return '';
  if (term.type === 'uri') return oxigraph.namedNode(term.value).toString();
  if (term.type === 'bnode') return `_:${term.value}`;
  const datatype = term.datatype ? oxigraph.namedNode(term.datatype) : undefined;
  return oxigraph.literal(term.value, term['xml:lang'] ?? datatype).toString();
}

function selectTsv(vars: readonly string[], rows: readonly SparqlRow[]): string {
  const lines = [
    vars.map((v) => `?${v}`).join('\t'),
    ...rows.map((row) => vars.map((v) => tsvTerm(row[v])).join('\t')),
  ];
  return `${lines.join('\n')}\n`;
}
