import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { scratchDir } from './test/support/scratch-dir.ts';
import { storeProjects } from './test/support/store-projects.ts';

const require = createRequire(import.meta.url);

// Set before the workers start: they, and the processes they start, inherit it (os.tmpdir()).
const scratch = scratchDir(process.env);
if (scratch) process.env.TMPDIR = scratch;

export default defineConfig({
  // graphql ships CommonJS and ESM builds; Node (and so graphql-yoga) loads the CommonJS one, and
  // the schema's classes must come from that same copy, so tests resolve `graphql` as Node does.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Files share their worker's module cache: each file imported the service anew (a fifth of the
    // suite's time); no suite changes process-wide state another would read.
    isolate: false,
    // One file more than there are cores: most of a suite file's time is spent waiting on engines
    // (PGlite, the store's threads, Virtuoso, child processes), not computing. On two cores three
    // files at once ran the embedded project in 410 s against 444 s with two (docs/development.md).
    maxWorkers: availableParallelism() + 1,
    globalSetup: ['test/support/records-template.ts'],
    // Everything on the embedded engines, then the GraphQL suites again on each other store.
    projects: storeProjects(process.env),
  },
});
