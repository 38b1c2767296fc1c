/**
 * The floor for loading: the site's Turtle file read into a bare in-process Oxigraph store, in a
 * process of its own so its memory is its own. Prints one JSON line (`LoadMeasure`).
 *
 *   node --import tsx scripts/bench/raw-load.ts FILE
 */
import oxigraph from 'oxigraph';
import { fileChunks } from '../../src/store/file-chunks.ts';
import type { LoadMeasure } from './gateway.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: raw-load.ts FILE');
const store = new oxigraph.Store();
const rssBeforeMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
const graph = 'urn:bkg:site:bench';
const cpu = process.cpuUsage();
const started = performance.now();
store.load(fileChunks(file), { format: 'text/turtle', to_graph_name: oxigraph.namedNode(graph), base_iri: graph });
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
const measure: LoadMeasure = {
  triples: store.size,
  wallMs,
  cpuMs: (used.user + used.system) / 1000,
  peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  rssBeforeMiB,
};
console.log(JSON.stringify(measure));
