// The embedded store keeps its graphs across restarts: a service started on the same data
// directory, with no site files to load, still has every site graph as it was left (loaded,
// replaced, merged or dropped), and answers GraphQL about it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { createApp } from '../../../src/http/create-app.ts';
import { createLogger } from '../../../src/log/logger.ts';
import { ONTOLOGY_GRAPH, siteGraph } from '../../../src/rdf/vocabulary.ts';
import { createServices, type Services } from '../../../src/services.ts';
import { StartupError } from '../../../src/startup/startup-error.ts';
import { selectQuery } from '../../support/select-query.ts';

const ADMIN_KEY = 'persistence-admin-key-0123456789';

const SITE = `@prefix ex: <https://example.org/persist#> .
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:AHU1 a brick:AHU ; rdfs:label "AHU 1 \\"north\\" – ünïcödé" ; brick:hasPoint ex:SAT ; brick:feeds ex:VAV1 .
ex:SAT a brick:Supply_Air_Temperature_Sensor ; rdfs:label "Supply air temp" .
ex:VAV1 a brick:VAV ; rdfs:label "VAV 1" .
`;
const EXTRA = `<https://example.org/persist#VAV2> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://brickschema.org/schema/Brick#VAV> .
<https://example.org/persist#VAV2> <http://www.w3.org/2000/01/rdf-schema#label> "VAV 2" .
`;
const REPLACEMENT = `@prefix ex: <https://example.org/other#> .
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:Boiler a brick:Boiler ; rdfs:label "Boiler" .
`;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bkg-persist-'));
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** Starts the services on `dataDir`, loading the `.ttl` files of `sitesDir` (none when it is empty). */
async function start(dataDir: string, sitesDir: string): Promise<Services> {
  const config = configFor(dataDir, sitesDir);
  return createServices(config, createLogger(config));
}

function configFor(dataDir: string, sitesDir: string) {
  return loadConfig({
    BKG_DATA_DIR: dataDir,
    BKG_SITES_DIR: sitesDir,
    BKG_DEMO_FIXTURE: '',
    BKG_GRAPH_STORE: 'oxigraph',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    BKG_ADMIN_KEY: ADMIN_KEY,
  });
}

/** A directory holding the given `<siteId>.ttl` files. */
async function sitesDirWith(name: string, sites: Record<string, string>): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  for (const [id, turtle] of Object.entries(sites)) await writeFile(join(dir, `${id}.ttl`), turtle);
  return dir;
}

/** The triples of a graph as sorted N-Triples lines. */
async function triplesOf(services: Services, graph: string): Promise<string[]> {
  const text = await services.store.exportGraph(graph, 'application/n-triples');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .sort();
}

describe('the embedded store across a restart', () => {
  let dataDir: string;
  let before: { kept: string[]; replaced: string[]; merged: string[] };

  beforeAll(async () => {
    dataDir = join(root, 'data');
    const first = await start(
      dataDir,
      await sitesDirWith('sites-first', { kept: SITE, replaced: SITE, merged: SITE, dropped: SITE }),
    );
    try {
      await first.store.replaceGraph(siteGraph('replaced'), REPLACEMENT, 'text/turtle');
      await first.store.mergeGraph(siteGraph('merged'), EXTRA, 'application/n-triples');
      await first.store.dropGraph(siteGraph('dropped'));
      before = {
        kept: await triplesOf(first, siteGraph('kept')),
        replaced: await triplesOf(first, siteGraph('replaced')),
        merged: await triplesOf(first, siteGraph('merged')),
      };
    } finally {
      await first.close();
    }
  }, 300_000);

  describe('reopened on the same data directory with no site files', () => {
    let second: Services;
    beforeAll(async () => {
      second = await start(dataDir, await sitesDirWith('sites-empty', {}));
      // Graphs come back in the background after a restart (reads answer SITE_LOADING meanwhile,
      // as docs "Restarts and restores" says); what is checked here is the graph once restored.
      await second.store.whenRestored?.();
    }, 300_000);
    afterAll(async () => {
      await second?.close();
    });

    it('still has a loaded site graph, triple for triple', async () => {
      expect(before.kept).toHaveLength(8);
      expect(await second.store.countTriples(siteGraph('kept'))).toBe(before.kept.length);
      expect(await triplesOf(second, siteGraph('kept'))).toEqual(before.kept);
    });

    it('keeps literals with quotes and non-ASCII characters exactly', async () => {
      const rows = await second.store.select(
        selectQuery(
          `SELECT ?label WHERE { GRAPH <${siteGraph('kept')}> { <https://example.org/persist#AHU1> <http://www.w3.org/2000/01/rdf-schema#label> ?label } }`,
        ),
      );
      expect(rows.map((row) => row.label?.value)).toEqual(['AHU 1 "north" – ünïcödé']);
    });

    it('has a replaced graph as replaced, not as first loaded', async () => {
      expect(await triplesOf(second, siteGraph('replaced'))).toEqual(before.replaced);
      expect(before.replaced.join('\n')).toContain('Boiler');
      expect(before.replaced.join('\n')).not.toContain('AHU1');
    });

    it('has a merged graph with both parts', async () => {
      expect(await triplesOf(second, siteGraph('merged'))).toEqual(before.merged);
      expect(before.merged).toHaveLength(10);
    });

    it('puts nothing back outside the site graphs (the default graph stays empty)', async () => {
      const rows = await second.store.select(selectQuery('SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'));
      expect(Number(rows[0]?.n?.value)).toBe(0);
    });

    it('does not bring back a dropped graph', async () => {
      expect(await second.store.countTriples(siteGraph('dropped'))).toBe(0);
    });

    it('has the ontology graph again (rebuilt at start, not read back)', async () => {
      expect(await second.store.countTriples(ONTOLOGY_GRAPH)).toBeGreaterThan(1000);
    });

    it('answers GraphQL about a site loaded before the restart', async () => {
      const config = configFor(dataDir, join(root, 'sites-empty'));
      const server = createApp(config, second, createLogger(config)).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            authorization: `Bearer ${ADMIN_KEY}`,
          },
          body: JSON.stringify({
            query: '{ equipment(siteId: "kept", is: "AHU") { id name points { id } downstream { id } } }',
          }),
        });
        const body = (await response.json()) as { data?: unknown; errors?: unknown };
        expect(body.errors).toBeUndefined();
        expect(body.data).toEqual({
          equipment: [
            { id: 'AHU1', name: 'AHU 1 "north" – ünïcödé', points: [{ id: 'SAT' }], downstream: [{ id: 'VAV1' }] },
          ],
        });
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
});

describe('a site file with a syntax error', () => {
  it('stops start-up with a problem that names the file and the line, and logs it', async () => {
    const sitesDir = await sitesDirWith('broken', {
      good: SITE,
      broken: `${SITE}ex:X a brick:VAV ;\n  rdfs:label "no end .\n`,
    });
    const config = configFor(join(root, 'broken-data'), sitesDir);
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'error' }, { write: (line: string) => void lines.push(line) });
    const failure = await createServices(config, logger).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(StartupError);
    const [problem] = (failure as StartupError).problems;
    expect(problem).toContain(join(sitesDir, 'broken.ttl'));
    expect(problem).toMatch(/^The site file .*broken\.ttl \(site "broken"\) could not be loaded: .*line 8\b/);
    expect(lines.map((line) => JSON.parse(line) as { msg: string; file: string })).toContainEqual(
      expect.objectContaining({ msg: problem, file: join(sitesDir, 'broken.ttl') }),
    );
  });
});
