/**
 * The vitest projects: `oxigraph` runs every test on the embedded engines; `comunica` (with
 * `BKG_TEST_COMUNICA=1`) and `sparql:<name>` (when `BKG_TEST_SPARQL_URL` names an endpoint and
 * `BKG_TEST_SPARQL_CONFORMANCE=1`) run the GraphQL fixture suites and the graph-change suites
 * (test/integration/changes) again, unchanged, on that store,
 * so the output says which store failed. `.ci/run` turns both on (docs/stores-and-scaling.md, "Which stores were
 * tested, and how"); `npm test` alone runs the embedded project only.
 */
import type { TestProjectInlineConfiguration } from 'vitest/config';

/** The suites every store must answer identically. */
export const CONFORMANCE_SUITES = [
  'test/integration/graphql/**/*.test.ts',
  'test/integration/demo/**/*.test.ts',
  'test/integration/changes/**/*.test.ts',
];
// A project that extends the root adds to its `include` rather than replacing it: leave out the rest.
const NOT_CONFORMANCE = ['test/!(integration)/**', 'test/integration/!(graphql|demo|changes)/**', 'test/*.test.ts'];
/**
 * Suites that prove nothing a store could change, run on the embedded store only: they compare the
 * service with itself through the same store. `direct-execution.test.ts` answers each operation
 * twice, with and without graphql-js, and compares the two; `round-trips.test.ts` counts the
 * queries the executor sends (counted above the store, `InstrumentedStore`), which no store
 * changes. Every query shape they send is also in the suites the other stores run (each relation
 * field of each type in equipment, locations, points, systems, paging and the demo suites;
 * one relation field twice under aliases in points.test.ts).
 */
const STORE_INDEPENDENT = [
  'test/integration/graphql/direct-execution.test.ts',
  'test/integration/graphql/round-trips.test.ts',
];
/**
 * Comunica runs the suites on the small fixtures only: it is a conformance peer, not a fast store
 * (docs/benchmarks.md, "What the ratios say"), and the demo suites (test/integration/demo, on the 10k-triple demo site) take it
 * minutes. Every query shape of the compiler is in the suites it runs.
 */
const NOT_ON_COMUNICA = ['test/integration/demo/**'];

/** The projects for the environment: `BKG_TEST_COMUNICA`, `BKG_TEST_SPARQL_URL`, `BKG_TEST_SPARQL_GSP_URL`, `BKG_TEST_SPARQL_NAME`, `BKG_TEST_SPARQL_CONFORMANCE`. */
export function storeProjects(env: Record<string, string | undefined>): TestProjectInlineConfiguration[] {
  const projects: TestProjectInlineConfiguration[] = [{ extends: true, test: { name: 'oxigraph' } }];
  if (env.BKG_TEST_COMUNICA === '1') {
    projects.push({
      extends: true,
      test: {
        name: 'comunica',
        include: CONFORMANCE_SUITES,
        exclude: [...NOT_CONFORMANCE, ...STORE_INDEPENDENT, ...NOT_ON_COMUNICA],
        env: { BKG_GRAPH_STORE: 'comunica' },
      },
    });
  }
  if (env.BKG_TEST_SPARQL_URL && env.BKG_TEST_SPARQL_CONFORMANCE === '1') {
    const sparqlEnv: Record<string, string> = {
      BKG_GRAPH_STORE: 'sparql',
      SPARQL_QUERY_URL: env.BKG_TEST_SPARQL_URL,
      SPARQL_MAX_CONNECTIONS: '4',
    };
    if (env.BKG_TEST_SPARQL_GSP_URL) sparqlEnv.SPARQL_GSP_URL = env.BKG_TEST_SPARQL_GSP_URL;
    projects.push({
      extends: true,
      test: {
        name: `sparql:${env.BKG_TEST_SPARQL_NAME ?? 'endpoint'}`,
        include: CONFORMANCE_SUITES,
        exclude: [...NOT_CONFORMANCE, ...STORE_INDEPENDENT],
        // Its files run alongside each other and the other projects: each harness keeps its graphs
        // under a namespace of its own on the shared endpoint (SPARQL_GRAPH_NAMESPACE,
        // test/support/harness.ts).
        env: sparqlEnv,
      },
    });
  }
  return projects;
}
