/**
 * CI's summary (.ci/summarize.mjs) on crafted vitest JSON reports: the ten slowest files, skips
 * counted by the reason in their titles, a skip for what the run provides failed, and the closing
 * line CI reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'bkg-ci-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Status = 'passed' | 'failed' | 'skipped' | 'todo';

/** A test of the report: its suites' titles, its own title and its status. */
const test = (status: Status, ...titles: string[]) => ({
  ancestorTitles: titles.slice(0, -1),
  title: titles.at(-1)!,
  status,
});

/** A file of the report, its tests run from `start` to `end` (ms). */
const file = (
  name: string,
  start: number,
  end: number,
  tests: ReturnType<typeof test>[] = [test('passed', 'works')],
) => ({
  name: join(ROOT, name),
  startTime: start,
  endTime: end,
  status: tests.some((t) => t.status === 'failed') ? 'failed' : 'passed',
  assertionResults: tests,
});

/** Runs the summary on a report of `files`, with the run's `provided` requirements: its lines and exit code. */
function summarize(
  files: ReturnType<typeof file>[],
  provided: string[] = [],
  options: string[] = [],
): { lines: string[]; code: number | null } {
  const tests = files.flatMap((f) => f.assertionResults);
  const count = (status: Status) => tests.filter((t) => t.status === status).length;
  const report = {
    numPassedTests: count('passed'),
    numFailedTests: count('failed'),
    numPendingTests: count('skipped'),
    numTodoTests: count('todo'),
    testResults: files,
  };
  const path = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(report));
  const run = spawnSync(
    process.execPath,
    ['.ci/summarize.mjs', path, ...options, ...provided.map((p) => `--provided=${p}`)],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return { lines: run.stdout.trim().split('\n'), code: run.status };
}

const SKIPS = file('test/integration/readings.test.ts', 0, 1000, [
  test('passed', 'reading store on PGlite', 'stores a reading'),
  test('skipped', 'reading store on PostgreSQL (needs DATABASE_URL)', 'stores a reading'),
  test('skipped', 'reading store on PostgreSQL (needs DATABASE_URL)', 'ranges', 'answers a range'),
  test('skipped', 'shutdown with Redis and MQTT (needs REDIS_URL, BKG_MQTT_URL)', 'exits 0'),
  test('skipped', 'kills a child past its memory'),
  test('todo', 'some day'),
]);

describe('.ci/summarize.mjs', () => {
  it('counts skipped tests by the reason their titles give, suites’ titles included', () => {
    const { lines, code } = summarize([SKIPS]);
    expect(lines).toContain('    2 skipped: needs DATABASE_URL');
    expect(lines).toContain('    1 skipped: needs REDIS_URL, BKG_MQTT_URL');
    expect(lines).toContain('    1 skipped: no reason in its title');
    expect(lines).toContain('    1 skipped: todo');
    expect(lines.at(-1)).toBe('1 passed, 0 failed, 5 skipped');
    expect(code).toBe(0);
  });

  it('fails a test skipped for what the run provides, and says which', () => {
    const { lines, code } = summarize([SKIPS], ['DATABASE_URL', 'BKG_MQTT_URL']);
    expect(lines).toContain(
      'FAILED: 3 tests skipped though CI provides what they need (needs DATABASE_URL; needs REDIS_URL, BKG_MQTT_URL)',
    );
    expect(lines.at(-1)).toBe('1 passed, 3 failed, 2 skipped');
    expect(code).toBe(1);
  });

  it('passes skips for what the run does not provide', () => {
    const { code } = summarize([SKIPS], ['S3_ENDPOINT', 'redis-server']);
    expect(code).toBe(0);
  });

  it('lists the ten slowest files, slowest first, by the time from their first test’s start to their last’s end', () => {
    const files = Array.from({ length: 12 }, (_, i) =>
      file(`test/unit/f${i}.test.ts`, 1000 * i, 1000 * i + 500 * (i + 1)),
    );
    const { lines } = summarize(files);
    const header = lines.findIndex((line) => line.startsWith('== the 10 slowest test files'));
    expect(lines[header]).toBe('== the 10 slowest test files (first test to last; all 12 summed: 39 s)');
    const listed = lines.slice(header + 1, header + 11);
    expect(listed).toEqual(
      Array.from(
        { length: 10 },
        (_, i) => `${(0.5 * (12 - i)).toFixed(1).padStart(7)} s  test/unit/f${11 - i}.test.ts`,
      ),
    );
    expect(lines.at(-1)).toBe('12 passed, 0 failed, 0 skipped');
  });

  it('lists them by their whole time, per project, when the file-times reporter wrote it', () => {
    const times = join(dir, 'file-times.json');
    writeFileSync(
      times,
      JSON.stringify([
        { project: 'oxigraph', file: join(ROOT, 'test/a.test.ts'), ms: 2_000 },
        { project: 'comunica', file: join(ROOT, 'test/a.test.ts'), ms: 7_500 },
        { project: 'oxigraph', file: join(ROOT, 'test/b.test.ts'), ms: 4_000 },
      ]),
    );
    const { lines } = summarize([file('test/a.test.ts', 0, 10)], [], [`--file-times=${times}`]);
    const header = lines.findIndex((line) => line.startsWith('== the 3 slowest test files'));
    expect(lines.slice(header, header + 4)).toEqual([
      '== the 3 slowest test files (import, hooks and tests; all 3 summed: 14 s)',
      '    7.5 s  test/a.test.ts (comunica)',
      '    4.0 s  test/b.test.ts (oxigraph)',
      '    2.0 s  test/a.test.ts (oxigraph)',
    ]);
  });

  it('counts a file that failed to load as a failure, and a run where nothing passed as failed', () => {
    const broken = { ...file('test/unit/broken.test.ts', 0, 0, []), status: 'failed' };
    expect(summarize([file('test/unit/ok.test.ts', 0, 10), broken])).toMatchObject({ code: 1 });
    expect(summarize([file('test/unit/ok.test.ts', 0, 10), broken]).lines.at(-1)).toBe('1 passed, 1 failed, 0 skipped');
    expect(summarize([file('test/unit/skipped.test.ts', 0, 0, [test('skipped', 'later')])]).code).toBe(1);
  });
});
