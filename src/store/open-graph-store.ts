import { join } from 'node:path';
import type { GraphStoreConfig } from '../config/graph-store-config.ts';
import { spoolDir } from '../blobs/temp-dir.ts';
import type { LoadDeadline } from '../config/limits-config.ts';
import { ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import type { GraphStore } from './graph-store.ts';
import type { Logger } from '../log/logger.ts';
import { NamespacedStore } from './namespaced-store.ts';
import { OxigraphStore } from './oxigraph-store.ts';
import { SparqlHttpStore } from './sparql-http-store.ts';

/** The GraphStore the configuration names: embedded Oxigraph, a SPARQL 1.1 endpoint, or Comunica. */
export async function openGraphStore(
  config: GraphStoreConfig,
  loadDeadline: LoadDeadline,
  dataDir: string,
  logger?: Logger,
): Promise<GraphStore> {
  switch (config.kind) {
    case 'oxigraph':
      return OxigraphStore.open({
        persistDir: join(dataDir, 'graphs'),
        volatileGraphs: [ONTOLOGY_GRAPH],
        threads: config.threads,
        sandboxThreads: config.sandboxThreads,
        maxTriplesPerGraph: config.siteQuotaTriples,
        logger,
      });
    case 'comunica': {
      // Comunica is hundreds of modules: loaded only for the store that runs on it.
      const { ComunicaStore } = await import('./comunica-store.ts');
      return ComunicaStore.open({ persistDir: join(dataDir, 'graphs-comunica'), volatileGraphs: [ONTOLOGY_GRAPH] });
    }
    case 'sparql': {
      const store = new SparqlHttpStore({
        queryUrl: config.queryUrl!,
        updateUrl: config.updateUrl,
        gspUrl: config.gspUrl,
        credentials:
          config.user !== undefined
            ? { user: config.user, password: config.password ?? '', scheme: config.authScheme }
            : undefined,
        timeoutMs: config.timeoutMs,
        maxConnections: config.maxConnections,
        dialect: config.dialect,
        spoolDir: join(spoolDir(dataDir), 'sparql-load'),
        loadDeadline,
      });
      return config.graphNamespace ? new NamespacedStore(store, config.graphNamespace) : store;
    }
  }
}
