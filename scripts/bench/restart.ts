/**
 * What a big site costs across a restart, measured on the service as operators run it (a child
 * process on a fresh data directory): the load over HTTP, the journal's rewrite, then a restart:
 * when it listens, when the site answers a query again, and the memory it holds then, against a
 * bare Oxigraph store loading the same file (raw-load.ts, the floor).
 *
 *   node --import tsx scripts/bench/restart.ts --file bench/data/portfolio-5M.ttl [--out bench/restart-5M.md]
 *
 * Prints one JSON line (RestartMeasure); with --out also writes it as a Markdown table.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../generate-portfolio.ts';
import { SERVICE_NODE_FLAGS } from '../../src/startup/node-flags.ts';
import type { LoadMeasure } from './gateway.ts';
import { describeMachine, machineLine } from './machine.ts';

const KEY = 'restart-bench-admin-key-0123456789';
const SITE = 'big';

interface RestartMeasure {
  readonly file: string;
  readonly triples: number;
  readonly fileBytes: number;
  /** A bare store loading the file in a process of its own. */
  readonly raw: LoadMeasure;
  /** `PUT …/graph` of the file, until its answer. */
  readonly loadSeconds: number;
  /** From the answer until the journal's rewrite of the upload (begun with the load) is in place. */
  readonly rewriteSeconds: number;
  readonly journalBytes: number;
  /** After the restart: from spawning the process until it listens, until the site answers a query. */
  readonly listeningSeconds: number;
  readonly answersSeconds: number;
  /** Until every store thread has the site (loads into it wait until then). */
  readonly allThreadsSeconds: number;
  /** Resident memory of the service once the site is back, and per triple. */
  readonly rssMiB: number;
  readonly bytesPerTriple: number;
}

const { values } = parseArgs({ options: { file: { type: 'string' }, out: { type: 'string' } } });
if (!values.file) throw new Error('usage: restart.ts --file FILE.ttl [--out FILE.md]');
const file = values.file;

interface Service {
  readonly child: ChildProcess;
  readonly url: string;
  readonly logs: Array<Record<string, unknown>>;
  readonly exited: Promise<number | null>;
}

const seconds = (since: number) => Number(((performance.now() - since) / 1000).toFixed(2));
const log = (message: string) => process.stderr.write(`[restart] ${message}\n`);

async function startService(dataDir: string): Promise<Service> {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      BKG_DATA_DIR: dataDir,
      BKG_ADMIN_KEY: KEY,
      HOST: '127.0.0.1',
      PORT: '0',
      BKG_SITE_QUOTA_TRIPLES: '0',
      BKG_MAX_GRAPH_UPLOAD_BYTES: String(8 * 1024 ** 3),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let rest = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const listening = await waitFor(logs, 'listening', exited);
  return { child, url: `http://127.0.0.1:${listening.port as number}`, logs, exited };
}

async function waitFor(
  logs: Array<Record<string, unknown>>,
  msg: string,
  exited: Promise<unknown>,
): Promise<Record<string, unknown>> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    const found = logs.find((line) => line.msg === msg);
    if (found) return found;
    if (gone) throw new Error(`the service exited before "${msg}"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const api = (service: Service, path: string, init: RequestInit = {}) =>
  fetch(`${service.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string>) },
  });

/** A small query's answer once the site answers it (not SITE_LOADING). */
async function answers<T>(service: Service, query: string): Promise<T> {
  for (;;) {
    const response = await api(service, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown[] };
    if (response.status === 200 && body.data) return body.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const FIRST = `{ equipment(siteId: "${SITE}", limit: 3) { id name } }`;
const COUNT = `{ pointCount(siteId: "${SITE}") }`;

const rssMiB = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);

async function stop(service: Service): Promise<void> {
  service.child.kill('SIGTERM');
  await service.exited;
}

async function measure(): Promise<RestartMeasure> {
  log(`raw load of ${file}`);
  const raw = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/bench/raw-load.ts', file], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    }).trim(),
  ) as LoadMeasure;
  log(`raw: ${raw.triples} triples in ${(raw.wallMs / 1000).toFixed(1)} s`);
  const dir = await mkdtemp(join(tmpdir(), 'bkg-restart-bench-'));
  try {
    const dataDir = join(dir, 'data');
    let service = await startService(dataDir);
    await api(service, '/api/v1/sites', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: SITE, name: SITE }),
    });
    log('loading over HTTP');
    let started = performance.now();
    const loaded = await api(service, `/api/v1/sites/${SITE}/graph`, {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle', 'content-length': String(statSync(file).size) },
      body: createReadStream(file) as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    if (loaded.status !== 200) throw new Error(`load: ${loaded.status} ${await loaded.text()}`);
    const { triples } = (await loaded.json()) as { triples: number };
    const loadSeconds = seconds(started);
    log(`loaded ${triples} triples in ${loadSeconds} s; waiting for the rewrite`);
    started = performance.now();
    await waitFor(service.logs, 'segment rewritten as N-Triples', service.exited);
    const rewriteSeconds = seconds(started);
    const points = await answers(service, COUNT);
    await stop(service);
    const journal = join(dataDir, 'graphs');
    const journalBytes = (
      await Promise.all((await readdir(journal)).map(async (name) => (await stat(join(journal, name))).size))
    ).reduce((a, b) => a + b, 0);

    log('restarting');
    started = performance.now();
    service = await startService(dataDir);
    const listeningSeconds = seconds(started);
    await answers(service, FIRST);
    const answersSeconds = seconds(started);
    const again = await answers(service, COUNT);
    if (JSON.stringify(again) !== JSON.stringify(points))
      throw new Error(`after the restart ${JSON.stringify(again)}, before ${JSON.stringify(points)}`);
    await waitFor(service.logs, 'graphs restored', service.exited);
    const allThreadsSeconds = seconds(started);
    const rss = rssMiB(service.child.pid!);
    await stop(service);
    log(
      `listening after ${listeningSeconds} s, answering after ${answersSeconds} s (raw load ${(raw.wallMs / 1000).toFixed(1)} s), ${rss} MiB`,
    );
    return {
      file,
      triples,
      fileBytes: statSync(file).size,
      raw,
      loadSeconds,
      rewriteSeconds,
      journalBytes,
      listeningSeconds,
      answersSeconds,
      allThreadsSeconds,
      rssMiB: rss,
      bytesPerTriple: Math.round((rss * 2 ** 20) / triples),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function markdown(m: RestartMeasure): string {
  const rawSeconds = m.raw.wallMs / 1000;
  return [
    `# A restart over ${m.triples.toLocaleString('en')} triples`,
    '',
    `\`${file}\` (${(m.fileBytes / 2 ** 20).toFixed(0)} MiB of Turtle). ${machineLine(describeMachine())}`,
    '',
    '| | |',
    '|---|---|',
    `| raw Oxigraph load of the file (one thread, the floor) | ${rawSeconds.toFixed(1)} s, ${m.raw.rssMiB} MiB |`,
    `| \`PUT …/graph\` (two store threads, the journal) | ${m.loadSeconds.toFixed(1)} s |`,
    `| journal rewrite as N-Triples in place (it runs beside the load), after the answer | ${m.rewriteSeconds.toFixed(1)} s, ${(m.journalBytes / 2 ** 20).toFixed(0)} MiB on disk |`,
    `| restart: listening | ${m.listeningSeconds.toFixed(1)} s |`,
    `| restart: the site answers queries | ${m.answersSeconds.toFixed(1)} s (${(m.answersSeconds / rawSeconds).toFixed(2)}× the raw load) |`,
    `| restart: every store thread has the site (loads wait until then) | ${m.allThreadsSeconds.toFixed(1)} s |`,
    `| service memory with the site back | ${m.rssMiB} MiB (${m.bytesPerTriple} bytes per triple) |`,
    '',
  ].join('\n');
}

const result = await measure();
console.log(JSON.stringify(result));
if (values.out) await writeFile(values.out, markdown(result));
