// A vitest reporter that writes each test file's whole time (import, hooks and tests: what the
// file cost the run) to the JSON file named by BKG_FILE_TIMES, per project; vitest's JSON report
// times a file from its first test to its last, leaving `beforeAll` out. .ci/summarize.mjs reads it.
import { writeFileSync } from 'node:fs';

export default class FileTimesReporter {
  onTestRunEnd(testModules) {
    const out = process.env.BKG_FILE_TIMES;
    if (!out) return;
    const times = testModules.map((module) => {
      const diagnostic = module.diagnostic();
      return {
        project: module.project.name,
        file: module.moduleId,
        ms: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration,
      };
    });
    writeFileSync(out, JSON.stringify(times));
  }
}
