/**
 * `npm run measure:virtuoso-checkpoints -- --url http://127.0.0.1:18890/sparql`: does Virtuoso
 * answer the service's traversal whole while it loads and checkpoints? (docs/stores-and-scaling.md,
 * "Virtuoso's plans for a transitive subquery"). Clients load the demo site into fresh graphs as the service
 * does (Graph Store PUT into a temporary graph, then `MOVE`), ask each graph the downstream
 * traversal of five pieces of plant, and compare every answer with the one a quiet graph gives;
 * meanwhile `isql-vt` asks for a checkpoint every second (`--no-checkpoints` to leave them out).
 * A short answer is asked again with its text changed by one character (compiled anew). Never
 * point it at a Virtuoso that holds anything of value: it loads, checkpoints and drops graphs.
 *
 *   npm run measure:virtuoso-checkpoints -- --url http://127.0.0.1:18890/sparql --clients 3 --graphs 40
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { relations } from '../src/compiler/relations.ts';
import { traversalQuery } from '../src/compiler/sparql-builder.ts';
import type { TraversalRelation } from '../src/compiler/relations.ts';
import type { SiteProfile } from '../src/compiler/site-profile.ts';
import { serialize } from '../src/rdf/sparql-serializer.ts';
import { forVirtuoso } from '../src/store/virtuoso-query.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:18890/sparql' },
    'sql-port': { type: 'string', default: '11111' },
    clients: { type: 'string', default: '3' },
    graphs: { type: 'string', default: '40' },
    'no-checkpoints': { type: 'boolean', default: false },
  },
});
const endpoint = values.url;
const gsp = endpoint.replace(/\/sparql$/, '/sparql-graph-crud');
const DEMO = 'https://example.org/buildings/demo#';
const STARTS = ['CT-1', 'B-1', 'CH-1', 'CHWP-1', 'HWP-1'];
const downstream = relations['Equipment.downstream'] as TraversalRelation;

async function post(form: Record<string, string>): Promise<string> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status}: ${text.slice(0, 300)}`);
  return text;
}
const rows = async (query: string): Promise<number> => JSON.parse(await post({ query })).results.bindings.length;

async function load(turtle: string): Promise<string> {
  const temporary = `urn:bkg:tmp:${randomUUID()}`;
  const graph = `urn:bkg:measure:${randomUUID()}:site:demo`;
  const put = await fetch(`${gsp}?graph-uri=${encodeURIComponent(temporary)}`, {
    method: 'PUT',
    headers: { 'content-type': 'text/turtle' },
    body: turtle,
  });
  if (!put.ok) throw new Error(`PUT ${put.status}: ${await put.text()}`);
  await post({ update: `MOVE <${temporary}> TO <${graph}>` });
  return graph;
}

const turtle = await readFile(new URL('../fixtures/demo.ttl', import.meta.url), 'utf8');
const quiet = await load(turtle);
const predicates = JSON.parse(await post({ query: `SELECT DISTINCT ?p WHERE { GRAPH <${quiet}> { ?s ?p ?o } }` }));
const profile: SiteProfile = {
  untyped: new Map(),
  namespaces: [DEMO],
  predicates: new Set(predicates.results.bindings.map((b: { p: { value: string } }) => b.p.value)),
  plainIfcIds: true,
  tags: new Map(),
  ids: undefined as unknown as SiteProfile['ids'],
};
/**
 * The service's downstream traversal of one piece of equipment, as it sends it to Virtuoso once it
 * has read the site's profile: the graph's own predicates, and no entity without a class.
 */
const traversal = (graph: string, start: string): string =>
  serialize(forVirtuoso(traversalQuery(graph, downstream, [DEMO + start], new Set(), profile)));
const expected = new Map<string, number>();
for (const start of STARTS) expected.set(start, await rows(traversal(quiet, start)));
await post({ update: `DROP SILENT GRAPH <${quiet}>` });
console.error(`[virtuoso] whole answers: ${STARTS.map((s) => `${s} ${expected.get(s)} rows`).join(', ')}`);

let checkpointing = !values['no-checkpoints'];
const checkpoints = (async () => {
  let count = 0;
  while (checkpointing) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await new Promise<void>((resolve) =>
      execFile('isql-vt', [`127.0.0.1:${values['sql-port']}`, 'dba', 'dba', 'exec=checkpoint;'], () => resolve()),
    );
    count++;
  }
  return count;
})();

const tally = { graphs: 0, answers: 0, short: 0, shortGraphs: 0, wholeWhenCompiledAgain: 0 };
await Promise.all(
  Array.from({ length: Number(values.clients) }, async () => {
    for (let i = 0; i < Number(values.graphs); i++) {
      const graph = await load(turtle);
      let short = false;
      for (const start of STARTS) {
        const text = traversal(graph, start);
        const got = await rows(text);
        tally.answers++;
        if (got === expected.get(start)) continue;
        short = true;
        tally.short++;
        const again = await rows(text.replace(/LIMIT (\d+)\s*$/, (_m, n: string) => `LIMIT ${Number(n) - 1}`));
        if (again === expected.get(start)) tally.wholeWhenCompiledAgain++;
        console.error(
          `[virtuoso] ${graph} ${start}: ${got} rows, ${expected.get(start)} expected; compiled again: ${again}`,
        );
      }
      tally.graphs++;
      if (short) tally.shortGraphs++;
      await post({ update: `DROP SILENT GRAPH <${graph}>` });
    }
  }),
);
checkpointing = false;
const done = await checkpoints;
console.log(
  `${tally.graphs} graphs, ${tally.answers} answers, ${done} checkpoints: ${tally.short} answers short ` +
    `(in ${tally.shortGraphs} graphs), ${tally.wholeWhenCompiledAgain} of them whole when compiled again`,
);
