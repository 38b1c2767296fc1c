// `npm run bench` works: the smallest run (a 20k-triple site, one round per query, one second of
// autocannon, a few queries that take every path: competing shapes, N+1, a currentValue lookup,
// throughput) writes the per-size report and the summary with every section filled. The bench
// is not a test of speed; CI runs only this.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const QUERIES = ['hvac-in-building', 'building-equipment-points', 'points-current-value', 'entity-by-ifc'];

describe('npm run bench, smallest size', () => {
  let dir: string;
  let exitCode: number | null;
  let output = '';
  let report = '';
  let summary = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-bench-smoke-'));
    const args = [
      '--import',
      'tsx',
      'scripts/bench/bench.ts',
      '--sizes',
      '20k',
      '--iterations',
      '1',
      '--budget-ms',
      '500',
      '--http-seconds',
      '1',
    ];
    args.push('--only', [...QUERIES, 'fixed-cost'].join(','), '--data-dir', dir, '--out-dir', dir);
    // The migrated records database vitest's global setup made: creating one takes seconds.
    const template = inject('recordsTemplate');
    if (template) args.push('--records-template', template);
    exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk));
      child.on('close', resolve);
    });
    report = await readFile(join(dir, 'results-20k.md'), 'utf8').catch(() => '');
    summary = await readFile(join(dir, 'results-summary.md'), 'utf8').catch(() => '');
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finishes and writes the report and the summary', () => {
    expect(exitCode, output.slice(-3000)).toBe(0);
    expect(report).toContain('# Benchmark: 20k-triple portfolio site');
    expect(summary).toContain('round trips identical across sizes: yes');
  });

  it('measures the fixed cost of a request: /healthz, and { __typename } with each kind of key', () => {
    expect(report).toContain('## The fixed cost of a request');
    for (const row of ['`GET /healthz`', '`{ __typename }`, admin key', '`{ __typename }`, API key'])
      expect(report).toMatch(new RegExp(`\\| ${row.replace(/[{}]/g, '\\$&')} \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\|`));
  });

  it('sets the loads’ rates beside the raw load’s, and each query over HTTP beside its raw shape plus the fixed cost', () => {
    expect(report).toMatch(/\| the service, embedded store .* \| \d+% \|$/m);
    for (const load of ['into a new site', 'replacing the graph'])
      expect(report).toMatch(new RegExp(`\\| the service over HTTP .*${load}.* \\| \\d+% \\|$`, 'm'));
    expect(report).toContain('| HTTP ÷ (fastest raw + fixed cost) |');
    for (const id of QUERIES)
      expect(report).toMatch(new RegExp(`^\\| ${id} \\|.* \\| [\\d.]+ \\| [\\d.]+ \\| [^|]* \\|$`, 'm'));
  });

  it('states the machine and the loads, raw and through the service', () => {
    expect(report).toMatch(/\d+ cores \(.+\), \d+ GiB memory, Node v\d+/);
    expect(report).toMatch(/\| raw Oxigraph .* \| [\d,]+ \| [\d.]+ \| [\d,]+ \|/);
    expect(report).toMatch(/\| the service, embedded store .* \| [\d,]+ \| [\d.]+ \| [\d,]+ \|/);
    expect(report).toMatch(/\| the service over HTTP .* \| [\d,]+ \| [\d.]+ \| [\d,]+ \|/);
  });

  it('measures every query with its round trips, in-process, over HTTP, repeated, and raw, without errors', () => {
    for (const id of QUERIES)
      expect(report).toMatch(
        new RegExp(
          `\\| ${id} \\| [\\d,]+(?: \\([\\d,]+\\))? \\| \\d+( \\+ 1 lookup)? \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+ / [\\d.]+ \\| [\\d.]+× / [\\d.]+× \\| [\\d.]+ \\|`,
        ),
      );
    expect(report).toMatch(/\| points-current-value \| [\d,]+ \| 1 \+ 1 lookup \|/);
    expect(report).toMatch(/\| building-equipment-points \| 1 \([\d,]+\) \| 3 \|/);
    expect(report).not.toContain('error:');
  });

  it('sets competing shapes beside the planner’s, with their answers compared', () => {
    expect(report).toMatch(/\| hvac-in-building \| the planner’s shape \*\*\(planner\)\*\* \| [\d.]+ \| reference \|/);
    expect(report).toMatch(
      /building IRI, then `FILTER EXISTS \{ VALUES \?k \{ closure \} \?e a \?k \}` \| [\d.]+ \| same \|/,
    );
  });

  it('compares batching with one query per parent, and measures throughput', () => {
    expect(report).toMatch(/\| one query per parent \(N\+1\) \| \d+ \| [\d.]+ \|/);
    for (const answers of ['computed', 'kept'])
      expect(report).toMatch(
        new RegExp(`\\| entity-by-ifc \\| ${answers} \\| \\d+ \\| [\\d.]+ \\| [\\d.]+ \\| [\\d,]+ \\| 0 \\|`),
      );
  });
});
