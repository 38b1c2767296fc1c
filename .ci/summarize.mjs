// Reads vitest's JSON report and prints what CI shows at the end of a run: the ten slowest test
// files, the skipped tests counted by the reason in their titles ("(needs X)", test/support/needs.ts,
// or "(only …)" for a variant that does not apply where it ran),
// and the closing line CI reads: "N passed, N failed, N skipped".
//
//   node .ci/summarize.mjs report.json [--file-times=FILE] [--provided=X]... [--check=NAME=STATUS]...
//
// --file-times names what .ci/file-times-reporter.mjs wrote: each file's whole time (import, hooks
// and tests), per project; without it a file is timed from its first test to its last.
// Each --provided=X names what the run made available (.ci/run passes the engines it exported and
// the programs it installed): a test skipped because it needs X counts as a failure, since X was
// there for it to use. Each --check=NAME=STATUS is a check run beside the tests (the formatter, the
// linter) with its exit status: one more passed, or one more failed.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const SLOWEST = 10;
const NEEDS = /\(needs ([^)]+)\)/;
/** A variant that does not apply where it ran: "(only on S3)", "(only with a site profile)". */
const ONLY = /\((only [^)]+)\)/;
const NO_REASON = 'no reason in its title';

const [file, ...options] = process.argv.slice(2);
const provided = new Set(
  options.filter((option) => option.startsWith('--provided=')).map((option) => option.slice('--provided='.length)),
);

const checks = options
  .filter((option) => option.startsWith('--check='))
  .map((option) => option.slice('--check='.length).split('='))
  .map(([name, status]) => ({ name, ok: status === '0' }));

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.log(`could not read ${file}: ${error.message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const files = report.testResults ?? [];
const tests = files.flatMap((result) => result.assertionResults ?? []);

/** What a test's title (its suites' titles included) says it needs: "A, B" of "(needs A, B)", or undefined. */
const needsOf = (test) => NEEDS.exec([...(test.ancestorTitles ?? []), test.title].join(' '))?.[1];

/** Why a test was skipped, as the summary groups it. */
function reasonOf(test) {
  if (test.status === 'todo') return 'todo';
  const needed = needsOf(test);
  if (needed) return `needs ${needed}`;
  return ONLY.exec([...(test.ancestorTitles ?? []), test.title].join(' '))?.[1] ?? NO_REASON;
}

/** Each requirement a test names: the first word of each ("BKG_TEST_SPARQL_URL with BKG_TEST_SPARQL_NAME=…"). */
const requirementsOf = (test) =>
  (needsOf(test) ?? '')
    .split(',')
    .map((part) => part.trim().split(/\s/)[0])
    .filter(Boolean);

const skippedTests = tests.filter(
  (test) => test.status === 'skipped' || test.status === 'pending' || test.status === 'todo',
);
const byReason = new Map();
for (const test of skippedTests) {
  const reason = reasonOf(test);
  byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
}
// Skipped for something the machine provides: it should have run.
const unduly = skippedTests.filter((test) => requirementsOf(test).some((requirement) => provided.has(requirement)));

/** Each file's time: whole, per project, when the reporter wrote it; else first test to last. */
function fileTimes() {
  const given = options.find((option) => option.startsWith('--file-times='))?.slice('--file-times='.length);
  try {
    if (given)
      return {
        whole: true,
        times: JSON.parse(readFileSync(given, 'utf8')).map(({ project, file, ms }) => ({
          seconds: ms / 1000,
          name: `${relative(process.cwd(), file)} (${project})`,
        })),
      };
  } catch (error) {
    console.log(`could not read ${given}: ${error.message}`);
  }
  return {
    whole: false,
    times: files.map((result) => ({
      seconds: ((result.endTime ?? 0) - (result.startTime ?? 0)) / 1000,
      name: relative(process.cwd(), result.name),
    })),
  };
}
const { whole, times } = fileTimes();
const slowest = [...times].sort((a, b) => b.seconds - a.seconds).slice(0, SLOWEST);
if (slowest.length > 0) {
  const how = whole ? 'import, hooks and tests' : 'first test to last';
  const total = times.reduce((sum, time) => sum + time.seconds, 0);
  console.log(
    `== the ${slowest.length} slowest test files (${how}; all ${times.length} summed: ${total.toFixed(0)} s)`,
  );
  for (const { seconds, name } of slowest) console.log(`${seconds.toFixed(1).padStart(7)} s  ${name}`);
}
if (byReason.size > 0) {
  console.log('== skipped tests by reason');
  for (const [reason, count] of [...byReason].sort((a, b) => b[1] - a[1]))
    console.log(`${String(count).padStart(5)} skipped: ${reason}`);
}
if (unduly.length > 0) {
  const reasons = [...new Set(unduly.map(reasonOf))].join('; ');
  console.log(`FAILED: ${unduly.length} tests skipped though CI provides what they need (${reasons})`);
}

for (const check of checks.filter((check) => !check.ok)) console.log(`FAILED: ${check.name} (see its output above)`);

const passed = (report.numPassedTests ?? 0) + checks.filter((check) => check.ok).length;
// A file that fails to load has no failed test of its own: count it as one failure.
const brokenFiles = files.filter(
  (result) => result.status === 'failed' && !(result.assertionResults ?? []).some((test) => test.status === 'failed'),
).length;
// Vitest says the run failed while every test passed: errors outside the tests (unhandled rejections).
const outside = report.success === false && (report.numFailedTests ?? 0) + brokenFiles === 0 ? 1 : 0;
if (outside) console.log('FAILED: vitest reported errors outside the tests (unhandled errors: see its output above)');
const failed =
  (report.numFailedTests ?? 0) + brokenFiles + outside + unduly.length + checks.filter((check) => !check.ok).length;
const skipped = skippedTests.length - unduly.length;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
