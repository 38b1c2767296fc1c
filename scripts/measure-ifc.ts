/**
 * Measures what reading and converting an IFC file costs: generates IFC4 files of simple boxes
 * (scripts/lib/ifc-step-writer.ts) with 20,000 to 200,000 elements, runs the service's two IFC
 * child processes on each under GNU time, and prints peak resident memory and user CPU seconds as
 * the table of docs/files-and-models.md (section "Memory").
 *
 *   npm run measure:ifc                 # 20k, 100k, 200k elements (10, 50, 100 MB)
 *   npm run measure:ifc -- 5000 50000   # other element counts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deterministicIfcGlobalId } from './lib/ifc-guid.ts';
import { writeIfc, type IfcElementKind } from './lib/ifc-step-writer.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const CHILD = join(ROOT, 'src', 'ifc', 'ifc-child.ts');
const TIME = '/usr/bin/time';
const PER_STOREY = 1000;
const KINDS: readonly IfcElementKind[] = ['vav', 'duct', 'wall'];

/** An IFC4 file with `elements` boxes, a thousand a storey. */
function generate(elements: number): string {
  const storeys = Math.ceil(elements / PER_STOREY);
  return writeIfc(
    {
      fileName: 'measure.ifc',
      seed: 'measure',
      projectName: 'Measure',
      building: { globalId: deterministicIfcGlobalId('measure:building'), name: 'Measure' },
      storeys: Array.from({ length: storeys }, (_, f) => ({
        globalId: deterministicIfcGlobalId(`measure:storey-${f}`),
        name: `Level ${f}`,
        elevation: f * 3.5,
        spaces: [],
        elements: Array.from({ length: Math.min(PER_STOREY, elements - f * PER_STOREY) }, (_, i) => ({
          globalId: deterministicIfcGlobalId(`measure:${f}-${i}`),
          name: `E${i}`,
          kind: KINDS[i % KINDS.length]!,
          box: { x: i % 100, y: Math.floor(i / 100), z: 2.5, dx: 0.8, dy: 0.5, dz: 0.4 },
        })),
      })),
    },
    'IFC4',
  );
}

/** Runs a child under GNU time: peak resident MB and user CPU seconds. */
function measure(task: 'read' | 'convert', input: string, output: string): { mb: number; cpu: number } {
  const run = spawnSync(TIME, ['-f', '%M %U', process.execPath, '--import', 'tsx', CHILD, task, input, output], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (run.status !== 0) throw new Error(`${task} failed: ${run.stderr.toString().slice(-500)}`);
  const report = run.stderr.toString().trim().split('\n').at(-1)!;
  const [kb, user] = report.split(' ').map(Number) as [number, number];
  return { mb: Math.round(kb / 1024), cpu: user };
}

function main(argv: string[]): number {
  if (!existsSync(TIME)) {
    console.error(`[measure-ifc] needs GNU time at ${TIME} (apt-get install time)`);
    return 1;
  }
  const counts = argv.length > 0 ? argv.map(Number) : [20_000, 100_000, 200_000];
  const dir = mkdtempSync(join(tmpdir(), 'bkg-measure-ifc-'));
  try {
    console.log('| file | elements | reading | converting |\n|---|---|---|---|');
    for (const count of counts) {
      const ifc = join(dir, `${count}.ifc`);
      writeFileSync(ifc, generate(count));
      const read = measure('read', ifc, dir);
      const convert = measure('convert', ifc, join(dir, `${count}.frag`));
      const mb = Math.round(statSync(ifc).size / 1e6);
      console.log(
        `| ${mb} MB | ${count.toLocaleString('en')} | ${read.mb} MB, ${read.cpu} s | ${convert.mb} MB, ${convert.cpu} s |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
