/**
 * `npm run bench`: the gateway measured on generated portfolio sites, against the raw store, the
 * N+1 shape and, when asked, Comunica and Virtuoso. Each size runs in processes of its own (the
 * raw load, then the service), so memory and warm caches never carry over.
 *
 *   npm run bench                                   # 100k and 1M
 *   npm run bench -- --sizes 100k,1M,5M             # the full run
 *   npm run bench -- --sizes 100k --comunica --virtuoso $(.ci/virtuoso.sh start)
 *   npm run bench -- --sizes 1M --only upstream,name-contains --http-seconds 0
 *
 * Options: `--sizes` (generated into `--data-dir`, default bench/data, when missing), `--iterations`
 * rounds per query (30), `--budget-ms` per query (8000), `--http-seconds` per autocannon run (30;
 * 0 skips it), `--comunica` (on sizes up to `--comunica-max`, default 100k: Comunica is 100×–1000×
 * slower), `--virtuoso URL` (a SPARQL endpoint; Virtuoso's Graph Store endpoint is derived),
 * `--only ids` (`large` for the large answers, `fixed-cost` for the fixed cost of a request), `--large-rounds` per large-answer query (5; 0 skips
 * them), `--liveness-seconds` (20), `--out-dir` (default bench/), `--records-template DIR` (a migrated PGlite records
 * directory to copy instead of creating one). Writes `results-<size>.md` and `results-summary.md`
 * and prints the tables.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PORTFOLIO_SEED, REPO_ROOT, formatStats, writePortfolioFile } from '../generate-portfolio.ts';
import { SERVICE_NODE_FLAGS } from '../../src/startup/node-flags.ts';
import { formatCount, parseCount } from '../lib/counts.ts';
import type { LoadMeasure } from './gateway.ts';
import { describeMachine } from './machine.ts';
import { renderSize, renderSummary, type ReportContext } from './report.ts';
import type { SizeResult } from './run-size.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** Runs a TypeScript script of this folder in a child process; resolves with its stdout. */
function runScript(script: string, args: readonly string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // The service's node flags, as `npm start` passes them.
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', join(HERE, script), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
      cwd: REPO_ROOT,
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise(stdout) : reject(new Error(`${script} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string', default: '100k,1M' },
      iterations: { type: 'string', default: '30' },
      'budget-ms': { type: 'string', default: '8000' },
      'http-seconds': { type: 'string', default: '30' },
      comunica: { type: 'boolean', default: false },
      'comunica-max': { type: 'string', default: '100k' },
      virtuoso: { type: 'string' },
      only: { type: 'string' },
      'data-dir': { type: 'string' },
      'out-dir': { type: 'string' },
      'records-template': { type: 'string' },
      'large-rounds': { type: 'string', default: '5' },
      'liveness-seconds': { type: 'string', default: '20' },
    },
    strict: true,
  });
  const log = (message: string) => console.error(`[bench] ${message}`);
  const sizes = values.sizes.split(',').map((s) => parseCount(s.trim()));
  const dataDir = resolve(values['data-dir'] ?? join(REPO_ROOT, 'bench', 'data'));
  const outDir = resolve(values['out-dir'] ?? join(REPO_ROOT, 'bench'));
  mkdirSync(outDir, { recursive: true });
  const ctx: ReportContext = {
    command: `npm run bench -- ${argv.join(' ')}`.trim().replace(/ --$/, ''),
    machine: describeMachine(),
    date: new Date().toISOString().slice(0, 10),
    iterations: Number(values.iterations),
    budgetMs: Number(values['budget-ms']),
  };
  const work = mkdtempSync(join(tmpdir(), 'bkg-bench-run-'));
  const done: Array<{ result: SizeResult; rawLoad: LoadMeasure | undefined }> = [];
  try {
    for (const triples of sizes) {
      const size = formatCount(triples);
      const file = join(dataDir, `portfolio-${size}.ttl`);
      if (!existsSync(file)) {
        log(`generating ${file}`);
        log(formatStats(writePortfolioFile(file, { targetTriples: triples, seed: PORTFOLIO_SEED }, log).stats));
      }
      log(`${size}: raw load`);
      const rawLoad = JSON.parse((await runScript('raw-load.ts', [file])).trim()) as LoadMeasure;
      const out = join(work, `${size}.json`);
      const args = [
        '--file',
        file,
        '--size',
        size,
        '--out',
        out,
        '--iterations',
        values.iterations,
        '--budget-ms',
        values['budget-ms'],
        '--http-seconds',
        values['http-seconds'],
        ...(values.comunica && triples <= parseCount(values['comunica-max']) ? ['--comunica'] : []),
        ...(values.virtuoso ? ['--virtuoso', values.virtuoso] : []),
        ...(values.only ? ['--only', values.only] : []),
        ...(values['records-template'] ? ['--records-template', values['records-template']] : []),
        '--large-rounds',
        values['large-rounds'],
        '--liveness-seconds',
        values['liveness-seconds'],
      ];
      log(`${size}: the service`);
      await runScript('run-size.ts', args);
      const inRepo = relative(REPO_ROOT, file);
      const result = {
        ...(JSON.parse(readFileSync(out, 'utf8')) as SizeResult),
        file: inRepo.startsWith('..') ? file : inRepo,
      };
      const report = renderSize(result, rawLoad, ctx);
      writeFileSync(join(outDir, `results-${size}.md`), report);
      // The tables on stdout; the SPARQL appendix only in the file.
      console.log(report.slice(0, report.indexOf('## SPARQL the service sent')));
      done.push({ result, rawLoad });
      log(`${size}: done in ${result.seconds.toFixed(0)} s, wrote ${join(outDir, `results-${size}.md`)}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const summary = renderSummary(done, ctx);
  writeFileSync(join(outDir, 'results-summary.md'), summary);
  console.log(summary);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
