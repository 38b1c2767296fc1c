// Moving a deployment from the embedded store to an external SPARQL store, as an operator would
// (docs/stores-and-scaling.md, "The embedded store's ceiling"): `bkg export` of a site from a
// service on the embedded store, `bkg load` of that file into a service on the SPARQL store
// (Virtuoso in CI), and the same GraphQL questions get the same answers from both.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { projectRoot } from '../../../src/config/config.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, engineUrl } from '../../support/needs.ts';

// A SPARQL endpoint such as Virtuoso (.ci/run starts one), with BKG_TEST_SPARQL_GSP_URL when it has one.
const endpoint = engineUrl('BKG_TEST_SPARQL_URL');

/** Runs the CLI against a service, as the admin. */
function bkg(h: Harness, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BKG_URL: h.url, BKG_TOKEN: h.adminKey },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const QUESTIONS: Array<[string, string]> = [
  [
    'counts',
    '{ buildingCount(siteId: "gen") equipmentCount(siteId: "gen") pointCount(siteId: "gen") zoneCount(siteId: "gen") systemCount(siteId: "gen") }',
  ],
  [
    'AHUs with their points',
    '{ equipment(siteId: "gen", is: "AHU") { id name type points(limit: 5) { id name type unit } } }',
  ],
  [
    'temperature sensors',
    '{ point(siteId: "gen", is: "Temperature_Sensor", limit: 50) { id name unit timeseriesId equipmentId } }',
  ],
  ['upstream of the VAVs', '{ equipment(siteId: "gen", is: "VAV", limit: 20) { id upstream { id type } } }'],
  [
    'floors and rooms',
    '{ building(siteId: "gen") { id name locations { id name type locations(limit: 5) { id name } } } }',
  ],
];

describeNeeding(['BKG_TEST_SPARQL_URL'], 'moving a site from the embedded store to a SPARQL store', () => {
  let dir: string;
  let embedded: Harness;
  let external: Harness;
  // What the service on the SPARQL store logs (warnings and errors): a failure shows the store's own words.
  const logged: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-move-'));
    const model = join(dir, 'gen.ttl');
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/generate-portfolio.ts', '--triples', '40k', '--out', model],
      { cwd: projectRoot, stdio: 'ignore' },
    );
    embedded = await createHarness({
      sites: { gen: await readFile(model, 'utf8') },
      env: { BKG_GRAPH_STORE: 'oxigraph' },
    });
    const gsp = process.env.BKG_TEST_SPARQL_GSP_URL;
    external = await createHarness({
      sites: {},
      env: {
        BKG_GRAPH_STORE: 'sparql',
        SPARQL_QUERY_URL: endpoint!,
        ...(gsp ? { SPARQL_GSP_URL: gsp } : {}),
        LOG_LEVEL: 'warn',
      },
      log: { write: (line: string) => void logged.push(line) },
    });
    const created = await external.fetch('/api/v1/sites', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'gen', name: 'gen' }),
    });
    expect(created.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await embedded?.close();
    // The site was made over the API, not given to the harness: its graph goes with it.
    await external?.fetch('/api/v1/sites/gen', { method: 'DELETE' });
    await external?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exports with bkg export, loads with bkg load, and answers alike', async () => {
    const file = join(dir, 'gen.nt');
    const exported = await bkg(embedded, ['export', 'gen', '--format', 'ntriples', '-o', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const loaded = await bkg(external, ['load', 'gen', file, '--quiet']);
    expect(loaded.code, loaded.stderr).toBe(0);
    for (const [name, query] of QUESTIONS) {
      const [mine, theirs] = await Promise.all([embedded.graphql(query), external.graphql(query)]);
      expect(mine.errors, name).toBeUndefined();
      // The same answers; the versions they name differ (the moved graph's history starts with its load).
      expect(
        { data: theirs.data, errors: theirs.errors },
        `${name}; the service on the SPARQL store logged:\n${logged.join('')}`,
      ).toEqual({ data: mine.data, errors: mine.errors });
    }
    const counts = (await embedded.graphql(QUESTIONS[0]![1])).data;
    expect(counts.pointCount).toBeGreaterThan(1_000);
  }, 180_000);
});
