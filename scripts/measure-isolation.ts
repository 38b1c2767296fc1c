/**
 * `npm run measure:isolation`: does one tenant's slow work slow another tenant down? The service
 * (embedded engines, a real listener on loopback) holds a generated portfolio site and the demo
 * site. First the demo site's small queries, `/healthz` and a SPARQL `ASK {}` run alone; then again
 * while other clients keep the portfolio site busy with the slow requests issue #16 names (the
 * broad-class-by-location-name query, 30 aliased name searches at once, anonymous cartesian
 * products on the SPARQL endpoint). Prints latency percentiles of both phases.
 *
 *   npm run measure:isolation                          # 100k-triple portfolio, 20 s per phase
 *   npm run measure:isolation -- --triples 1M --seconds 60
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/config.ts';
import { createApp } from '../src/http/create-app.ts';
import { listen } from '../src/http/listen.ts';
import { createLogger } from '../src/log/logger.ts';
import { createServices } from '../src/services.ts';
import { percentile } from './bench/timing.ts';
import { describeMachine, machineLine } from './bench/machine.ts';
import { PORTFOLIO_SEED, defaultPortfolioPath, writePortfolioFile } from './generate-portfolio.ts';
import { formatCount, parseCount } from './lib/counts.ts';

const ADMIN_KEY = 'isolation-admin-key-0123456789';
const log = (message: string) => console.error(`[isolation] ${message}`);

/** A request of the measurement: a name, and how to send it. */
interface Probe {
  readonly name: string;
  send(): Promise<Response>;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { triples: { type: 'string', default: '100k' }, seconds: { type: 'string', default: '20' } },
    strict: true,
  });
  const triples = parseCount(values.triples);
  const seconds = Number(values.seconds);
  const file = defaultPortfolioPath(formatCount(triples));
  if (!existsSync(file)) writePortfolioFile(file, { targetTriples: triples, seed: PORTFOLIO_SEED }, log);

  const dir = await mkdtemp(join(tmpdir(), 'bkg-isolation-'));
  const sitesDir = join(dir, 'sites');
  mkdirSync(sitesDir);
  // The portfolio is linked in as the site `portfolio`; the demo site comes from its fixture.
  symlinkSync(file, join(sitesDir, 'portfolio.ttl'));
  const config = loadConfig({
    ...process.env,
    BKG_DATA_DIR: join(dir, 'data'),
    BKG_SITES_DIR: sitesDir,
    BKG_ADMIN_KEY: ADMIN_KEY,
    BKG_DEMO_SIMULATOR: '0',
    LOG_LEVEL: 'silent',
    BKG_IFC_WORKERS: '0',
    BKG_RATE_LIMIT_KEY: '10000000',
    BKG_RATE_LIMIT_ANONYMOUS: '10000000',
  });
  log(`loading ${file} …`);
  const logger = createLogger(config);
  const services = await createServices(config, logger);
  const { server, port } = await listen(createApp(config, services, logger), 0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const graphql = (query: string, key?: string) =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ query }),
    });
  const sparql = (site: string, query: string) =>
    fetch(`${base}/api/v1/sites/${site}/sparql?${new URLSearchParams({ query })}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}`, accept: 'application/sparql-results+json' },
    });

  const innocent: Probe[] = [
    {
      name: 'GraphQL on demo (AHU-1 with points)',
      send: () =>
        graphql('{ equipment(siteId: "demo", name: "AHU-1", nameMatch: EXACT) { name points { name unit } } }'),
    },
    { name: 'GET /healthz', send: () => fetch(`${base}/healthz`) },
    { name: 'SPARQL ASK {} on demo', send: () => sparql('demo', 'ASK {}') },
  ];
  const names = Array.from({ length: 30 }, (_, i) => `a${i}: point(siteId: "portfolio", name: "x${i}q") { id }`).join(
    ' ',
  );
  const attacks: Probe[] = [
    {
      name: 'broad class by location name',
      send: () =>
        graphql(
          '{ point(siteId: "portfolio", locationName: "B01 Floor-3", equipmentIs: "VAV", is: "Setpoint") { id } }',
          ADMIN_KEY,
        ),
    },
    { name: '30 aliased name searches', send: () => graphql(`{ ${names} }`, ADMIN_KEY) },
    {
      name: 'SPARQL cartesian product',
      send: () => sparql('portfolio', 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }'),
    },
  ];

  log('warming up');
  for (let i = 0; i < 20; i++) for (const probe of innocent) await (await probe.send()).arrayBuffer();
  log(`alone: ${seconds} s`);
  const alone = await measure(innocent, seconds * 1000);
  log(`with the portfolio site busy: ${seconds} s`);
  const stop = { now: false };
  const attackers = attacks.flatMap((probe) =>
    Array.from({ length: probe.name.startsWith('30') ? 5 : 2 }, () => hammer(probe, stop)),
  );
  const busy = await measure(innocent, seconds * 1000);
  stop.now = true;
  const outcomes = await Promise.all(attackers);

  console.log(`# Tenant isolation: ${formatCount(triples)}-triple portfolio site busy, the demo site measured\n`);
  console.log(
    `Machine: ${machineLine(describeMachine())}. Command: \`npm run measure:isolation -- ${argv.join(' ')}\`. ${seconds} s per phase, one client per probe in a closed loop.\n`,
  );
  console.log(
    '| probe on the demo site | alone p50 | alone p99 | busy p50 | busy p99 | busy max | failures while busy |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const probe of innocent) {
    const a = alone.get(probe.name)!;
    const b = busy.get(probe.name)!;
    const ms = (samples: number[], p: number) => percentile(samples, p).toFixed(1);
    console.log(
      `| ${probe.name} | ${ms(a.ms, 50)} | ${ms(a.ms, 99)} | ${ms(b.ms, 50)} | ${ms(b.ms, 99)} | ${Math.max(...b.ms).toFixed(1)} | ${b.failures} of ${b.ms.length} |`,
    );
  }
  console.log('\n| slow request on the portfolio site | sent | answers by status |');
  console.log('|---|---:|---|');
  const bySource = new Map<string, Map<number, number>>();
  for (const [name, statuses] of outcomes) {
    const merged = bySource.get(name) ?? new Map<number, number>();
    for (const [status, n] of statuses) merged.set(status, (merged.get(status) ?? 0) + n);
    bySource.set(name, merged);
  }
  for (const [name, statuses] of bySource) {
    const sent = [...statuses.values()].reduce((a, b) => a + b, 0);
    console.log(`| ${name} | ${sent} | ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')} |`);
  }
  server.close();
  await services.close();
  await rm(dir, { recursive: true, force: true });
}

/** Each probe in a closed loop for `ms`: latencies and failures by probe. */
async function measure(probes: readonly Probe[], ms: number): Promise<Map<string, { ms: number[]; failures: number }>> {
  const until = performance.now() + ms;
  const results = new Map(probes.map((p) => [p.name, { ms: [] as number[], failures: 0 }]));
  await Promise.all(
    probes.map(async (probe) => {
      const result = results.get(probe.name)!;
      while (performance.now() < until) {
        const started = performance.now();
        const res = await probe.send();
        const body = await res.text();
        result.ms.push(performance.now() - started);
        if (res.status !== 200 || body.includes('"errors"')) result.failures++;
      }
    }),
  );
  return results;
}

/** Sends a slow request again and again until told to stop; answers its statuses. */
async function hammer(probe: Probe, stop: { now: boolean }): Promise<[string, Map<number, number>]> {
  const statuses = new Map<number, number>();
  while (!stop.now) {
    const res = await probe.send().catch(() => undefined);
    await res?.arrayBuffer();
    const status = res?.status ?? 0;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return [probe.name, statuses];
}

await main(process.argv.slice(2));
