/**
 * Times the model validator (src/validation) on a model file: loading the ontology and shapes,
 * then validating, median of the runs, wall-clock and CPU time (on a shared machine the CPU time is
 * what an idle one would take); prints the machine's load with it. docs/loading-and-validation.md quotes it.
 *
 * Usage: npm run measure:validation -- FILE [--runs 3]
 *   npm run generate -- --triples 100k --out /tmp/p100k.ttl && npm run measure:validation -- /tmp/p100k.ttl
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { defaultOntologyPath } from '../src/config/config.ts';
import { ModelValidator } from '../src/validation/model-validator.ts';
import { summaryLine } from '../src/validation/validation-report.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '3' } },
});
const file = positionals[0];
if (!file) throw new Error('Usage: npm run measure:validation -- FILE [--runs N]');

const started = performance.now();
const validator = await ModelValidator.load(defaultOntologyPath);
const loadSeconds = (performance.now() - started) / 1000;
const seconds: number[] = [];
const cpuSeconds: number[] = [];
let last = '';
for (let run = 0; run < Number(values.runs); run++) {
  const before = performance.now();
  const cpu = process.cpuUsage();
  const report = await validator.validate([{ data: { path: file }, format: 'text/turtle' }], 'urn:bkg:site:measure');
  seconds.push((performance.now() - before) / 1000);
  const used = process.cpuUsage(cpu);
  cpuSeconds.push((used.user + used.system) / 1e6);
  last = `${summaryLine(report)}; by kind: ${JSON.stringify(report.counts)}`;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
seconds.sort((a, b) => a - b);
process.stdout.write(
  `| model | runs | validate, wall (median, min, max) | validate, CPU (median) | ontology + shapes load |\n|---|---|---|---|---|\n` +
    `| ${file} | ${seconds.length} | ${median(seconds).toFixed(1)} s, ${seconds[0]!.toFixed(1)} s, ${seconds.at(-1)!.toFixed(1)} s | ${median(cpuSeconds).toFixed(1)} s | ${loadSeconds.toFixed(1)} s |\n\n` +
    `${last}\n` +
    `machine: ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), ${(totalmem() / 1024 ** 3).toFixed(0)} GiB; load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
);
