/**
 * Where Oxigraph traps on nesting, and how far below that the service's limits refuse: for each
 * shape of nested RDF or SPARQL, the depth at which Oxigraph (in a thread of its own, as the store
 * runs it) traps, found by doubling then bisecting, and what the service's checks count there
 * (src/store/rdf-nesting.ts, src/sparql-endpoint/query-nesting.ts). `margin` is how many times
 * its limit that count is: the shallowest query or document of that shape that traps is refused
 * with that much to spare. Rerun it when Oxigraph is upgraded; the limits' comments quote it.
 *
 * Usage: node --import tsx scripts/measure-nesting.ts [SHAPE …]
 */
import sparqljs from 'sparqljs';
import { JsonNestingScanner } from '../src/rdf/json-nesting-scanner.ts';
import { NestingTooDeep } from '../src/rdf/nesting-scanner.ts';
import { TurtleNestingScanner } from '../src/rdf/turtle-nesting-scanner.ts';
import { QUERY_DEPTH_LIMIT, QUERY_NESTING_LIMIT, queryDepth } from '../src/sparql-endpoint/query-nesting.ts';
import type { RdfFormat } from '../src/store/graph-store.ts';
import { RDF_NESTING_LIMIT } from '../src/store/rdf-nesting.ts';
import { startWorker } from '../src/workers/start-worker.ts';
import type { Trial, TrialResult } from './measure-nesting-trial.ts';

interface Shape {
  /** The RDF format, or undefined for a query. */
  readonly format?: RdfFormat;
  /** The document or query, `n` deep (or `n` items long). */
  readonly client: (n: number) => string;
  /** What the engine receives, when not the client's text (a query as confineQuery rewrites it). */
  readonly sent?: (n: number) => string;
}

const [SITE, ONTOLOGY] = ['<urn:bkg:site:measure>', '<urn:bkg:ontology>'];
/** A query as confineQuery sends it: its dataset the site's graph and the ontology's, a LIMIT past the cap. */
const confined = (query: string) =>
  `${query.replace(' WHERE ', ` FROM ${SITE} FROM ${ONTOLOGY} FROM NAMED ${SITE} FROM NAMED ${ONTOLOGY} WHERE `)} LIMIT 10001`;
const list = (n: number, item: (i: number) => string, separator = ' ') =>
  Array.from({ length: n }, (_, i) => item(i)).join(separator);
const nest = (n: number, open: string, inner: string, close: string) => `${open.repeat(n)}${inner}${close.repeat(n)}`;

const SHAPES: Record<string, Shape> = {
  'JSON-LD objects': {
    format: 'application/ld+json',
    client: (n) => `{"@id": "urn:a", ${nest(n - 1, '"urn:p": {', '"urn:p": "x"', '}')}}`,
  },
  'JSON-LD @json literal': {
    format: 'application/ld+json',
    client: (n) => `{"@id": "urn:a", "urn:p": {"@type": "@json", "@value": ${nest(n, '{"a": ', '1', '}')}}}`,
  },
  'Turtle property lists': {
    format: 'text/turtle',
    client: (n) => `<urn:a> <urn:p> ${nest(n, '[ <urn:p> ', '"x"', ' ]')} .`,
  },
  'Turtle collections': { format: 'text/turtle', client: (n) => `<urn:a> <urn:p> ${nest(n, '( ', '"x"', ' )')} .` },
  'Turtle triple terms': {
    format: 'text/turtle',
    client: (n) => `<urn:a> <urn:p> ${nest(n, '<<( <urn:s> <urn:p> ', '"x"', ' )>>')} .`,
  },
  'SPARQL groups': { client: (n) => `SELECT * WHERE { ${nest(n, '{ ', '?s ?p ?o', ' }')} }` },
  'SPARQL EXISTS': {
    client: (n) => `SELECT * WHERE { ?s ?p ?o FILTER(${nest(n, 'EXISTS { ?s ?p ?o FILTER(', 'true', ') }')}) }`,
  },
  'SPARQL GRAPH ?g': {
    client: (n) => `SELECT * WHERE { ${nest(n, 'GRAPH ?g { ', '?s ?p ?o', ' }')} }`,
    sent: (n) => `SELECT * WHERE { ${nest(n, `{ VALUES ?g { ${SITE} ${ONTOLOGY} } GRAPH ?g { `, '?s ?p ?o', ' } }')} }`,
  },
  'SPARQL subqueries': { client: (n) => `SELECT * WHERE { ${nest(n, '{ SELECT * WHERE ', '{ ?s ?p ?o }', ' }')} }` },
  'SPARQL OPTIONAL after OPTIONAL': {
    client: (n) => `SELECT * WHERE { ?s ?p ?o ${list(n, () => 'OPTIONAL { ?s ?p ?o }')} }`,
  },
  'SPARQL BIND after BIND': { client: (n) => `SELECT * WHERE { ?s ?p ?o ${list(n, (i) => `BIND(1 AS ?b${i})`)} }` },
  'SPARQL projected expressions': { client: (n) => `SELECT ${list(n, (i) => `(1 AS ?v${i})`)} WHERE { ?s ?p ?o }` },
  'SPARQL UNION branches': { client: (n) => `SELECT * WHERE { ${list(n, () => '{ ?s ?p ?o }', ' UNION ')} }` },
  'SPARQL path alternatives': { client: (n) => `SELECT * WHERE { ?s ${list(n, () => '<urn:p>', '|')} ?o }` },
  'SPARQL IN values': { client: (n) => `SELECT * WHERE { ?s ?p ?o FILTER(?o IN (${list(n, String, ',')})) }` },
  // sparqljs's generator writes a chain `1 + 1 + …` as nested parentheses.
  'SPARQL chain of +': {
    client: (n) => `SELECT * WHERE { ?s ?p ?o FILTER(1${' + 1'.repeat(n)} > 0) }`,
    sent: (n) => `SELECT * WHERE { ?s ?p ?o FILTER(${nest(n, '(', '1', ' + 1)')} > 0) }`,
  },
};

const MAX_DEPTH = 1 << 17;

function trial(trial: Trial): Promise<TrialResult> {
  return new Promise((resolve) => {
    const worker = startWorker(new URL('./measure-nesting-trial.ts', import.meta.url), { ...trial });
    const timer = setTimeout(
      () => void worker.terminate().then(() => resolve({ trapped: false, message: 'over 20 s' })),
      20_000,
    );
    worker.once('message', (result: TrialResult) => {
      clearTimeout(timer);
      void worker.terminate().then(() => resolve(result));
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      resolve({ trapped: true, message: `thread: ${error.message}` });
    });
  });
}

/** The deepest bracket level of `text` the scanner counts, by bisecting its limit. */
function bracketDepth(text: string, scanner: (limit: number) => { scan(text: string): void }): number {
  let [low, high] = [0, MAX_DEPTH * 4];
  while (low < high) {
    const limit = Math.floor((low + high) / 2);
    try {
      scanner(limit).scan(text);
      high = limit;
    } catch (error) {
      if (!(error instanceof NestingTooDeep)) throw error;
      low = limit + 1;
    }
  }
  return low;
}

/** How many times its limit the first check that refuses `text` counts. */
function margin(shape: Shape, text: string): string {
  if (shape.format) {
    const json = shape.format === 'application/ld+json';
    const depth = bracketDepth(text, (limit) =>
      json ? new JsonNestingScanner('JSON-LD', limit) : new TurtleNestingScanner('Turtle', limit, false),
    );
    return `${depth} brackets | ${(depth / RDF_NESTING_LIMIT).toFixed(1)}×`;
  }
  const brackets = bracketDepth(text, (limit) => new TurtleNestingScanner('SPARQL', limit, true));
  const depth = queryDepth(new sparqljs.Parser().parse(text), Infinity);
  return `${brackets} brackets, depth ${depth} | ${Math.max(brackets / QUERY_NESTING_LIMIT, depth / QUERY_DEPTH_LIMIT).toFixed(1)}×`;
}

const names = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(SHAPES);
process.stdout.write(
  `| shape | no trap at | traps at | Oxigraph's error | counted at the trap | margin |\n|---|---|---|---|---|---|\n`,
);
for (const name of names) {
  const shape = SHAPES[name];
  if (!shape) throw new Error(`No shape "${name}"; shapes: ${Object.keys(SHAPES).join(', ')}`);
  const text = (n: number) => (shape.sent ?? shape.client)(n);
  const run = (n: number) => trial({ text: shape.format ? text(n) : confined(text(n)), format: shape.format });
  let [ok, trapsAt] = [1, 2];
  let result = await run(trapsAt);
  while (!result.trapped && trapsAt < MAX_DEPTH) {
    ok = trapsAt;
    trapsAt *= 2;
    result = await run(trapsAt);
  }
  if (!result.trapped) {
    process.stdout.write(`| ${name} | ${ok} | none up to ${trapsAt} | ${result.message} | | |\n`);
    continue;
  }
  const message = result.message;
  while (trapsAt - ok > Math.max(1, ok / 100)) {
    const middle = Math.floor((ok + trapsAt) / 2);
    if ((await run(middle)).trapped) trapsAt = middle;
    else ok = middle;
  }
  process.stdout.write(`| ${name} | ${ok} | ${trapsAt} | ${message} | ${margin(shape, shape.client(trapsAt))} |\n`);
}
