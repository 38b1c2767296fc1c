import { join } from 'node:path';
import type { Config } from './config/config.ts';
import type { Logger } from './log/logger.ts';
import { Ontology } from './ontology/ontology.ts';
import { loadOntologyGraph } from './ontology/ontology-graph.ts';
import { ONTOLOGY_GRAPH } from './rdf/vocabulary.ts';
import { loadSiteFile, siteFilesIn, type SiteFile } from './sites/load-site-files.ts';
import { MemorySiteDirectory } from './sites/site-directory.ts';
import { InstrumentedStore } from './store/instrumented-store.ts';
import { OxigraphStore } from './store/oxigraph-store.ts';

/** The engines and shared state of one running service. */
export interface Services {
  readonly store: InstrumentedStore;
  readonly ontology: Ontology;
  readonly sites: MemorySiteDirectory;
  close(): Promise<void>;
}

/** Opens the engines the configuration names, loads the ontology, the demo site and the site files. */
export async function createServices(config: Config, logger: Logger, extraSites: readonly SiteFile[] = []): Promise<Services> {
  const started = performance.now();
  const ontology = await Ontology.load(config.ontologyPath);
  const store = new InstrumentedStore(
    await OxigraphStore.open({ persistDir: join(config.dataDir, 'graphs'), volatileGraphs: [ONTOLOGY_GRAPH] }),
  );
  store.onQuery(({ query, durationMs, ok }) => logger.debug({ store: store.name, durationMs: Number(durationMs.toFixed(2)), ok, query }, 'sparql query'));
  const ontologyTriples = await loadOntologyGraph(store, ontology, config.ontologyPath);
  logger.info({ ontology: config.ontologyPath, classes: ontology.classes.size, triples: ontologyTriples }, 'ontology loaded');

  const sites = new MemorySiteDirectory();
  const files: SiteFile[] = [];
  if (config.demoFixture) files.push({ siteId: 'demo', path: config.demoFixture });
  if (config.sitesDir) files.push(...(await siteFilesIn(config.sitesDir, logger)));
  files.push(...extraSites);
  for (const file of files) {
    await loadSiteFile(store, file, logger);
    sites.add(file.siteId);
  }
  logger.info({ sites: files.length, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) }, 'services ready');
  return { store, ontology, sites, close: () => store.close() };
}
