// What the hostile-traffic suites share: the record engines the text tests run on, an innocent
// site's request that must keep answering while an attack runs, and the bound on how long it may take.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import type { Harness } from '../../support/harness.ts';
import { requiredEngineUrl, type Variant } from '../../support/needs.ts';
import { BUILDING_TTL, iso, post, postReadings } from '../readings/readings-support.ts';

/**
 * How long an innocent request may take while an attack runs: far above the few milliseconds it
 * takes alone, on a machine shared by parallel suites; far below a stalled process.
 */
export const PROMPT_MS = 5_000;

/** A record engine the service can run on, as the harness environment that selects it. */
export interface RecordEngine extends Variant {
  env(): Promise<Record<string, string>>;
  teardown(): Promise<void>;
}

async function onPostgres(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL at DATABASE_URL (CI sets postgres://postgres@127.0.0.1:5432/test) in a schema of its
 * own (on the connection's search_path), dropped afterwards.
 */
function postgres(): RecordEngine {
  const schema = `hostile_${randomBytes(6).toString('hex')}`;
  return {
    name: 'PostgreSQL',
    needs: ['DATABASE_URL'],
    async env() {
      const url = requiredEngineUrl('DATABASE_URL');
      await onPostgres(url, `CREATE SCHEMA ${schema}`);
      const withSchema = new URL(url);
      withSchema.searchParams.set('options', `-c search_path=${schema}`);
      return { DATABASE_URL: withSchema.toString() };
    },
    teardown: () => onPostgres(requiredEngineUrl('DATABASE_URL'), `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
  };
}

const pglite: RecordEngine = { name: 'PGlite', env: async () => ({}), teardown: async () => {} };

/** PGlite, and PostgreSQL (needs DATABASE_URL): for describeVariants. */
export const recordEngines = (): RecordEngine[] => [pglite, postgres()];

/**
 * Runs an attack and an innocent request at once, and fails unless the innocent one answered
 * within PROMPT_MS; answers both results.
 */
export async function duringAttack<A, I>(
  attack: () => Promise<A>,
  innocent: () => Promise<I>,
): Promise<{ attack: A; innocent: I }> {
  const started = performance.now();
  const [attacked, [answered, ms]] = await Promise.all([
    attack(),
    innocent().then((value) => [value, performance.now() - started] as const),
  ]);
  expect(ms, 'the innocent request answered promptly').toBeLessThan(PROMPT_MS);
  return { attack: attacked, innocent: answered };
}

/** The innocent site's building (BUILDING_TTL): its graph, loaded by the harness. */
export const INNOCENT_TTL = BUILDING_TTL;

const INNOCENT_READING_MS = Date.parse('2026-01-01T00:00:00Z');

/** Stores the reading `innocentHistory` expects on `site` (a site of INNOCENT_TTL). */
export async function seedInnocent(h: Harness, site: string): Promise<void> {
  const report = await postReadings(h, site, [{ timeseriesId: 'ts-sat', timestamp: INNOCENT_READING_MS, value: 21.5 }]);
  expect(report.stored).toBe(1);
}

/** An innocent request on `site`: its history of ts-sat, which must hold the seeded reading and nothing else. */
export async function innocentHistory(h: Harness, site: string): Promise<void> {
  const res = await h.fetch(
    `/api/v1/sites/${site}/timeseries`,
    post({
      timeseriesIds: ['ts-sat'],
      start: iso(INNOCENT_READING_MS - 60_000),
      end: iso(INNOCENT_READING_MS + 60_000),
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  const body = await res.json();
  expect(body.series[0].data).toEqual([{ t: '2026-01-01T00:00:00+00:00', v: 21.5 }]);
}

const INNOCENT_SPARQL = 'SELECT ?label WHERE { ?ahu a brick:AHU ; rdfs:label ?label }';

/**
 * Innocent queries on `site` (a site of INNOCENT_TTL), GraphQL and SPARQL at once: each must find
 * AHU-1 as the building has it.
 */
export async function innocentQueries(h: Harness, site: string): Promise<void> {
  const [graphql, sparql] = await Promise.all([
    h.graphql(`{ equipment(siteId: "${site}", name: "AHU-1", nameMatch: EXACT) { name points { name } } }`),
    h.fetch(`/api/v1/sites/${site}/sparql?${new URLSearchParams({ query: INNOCENT_SPARQL })}`, {
      headers: { accept: 'application/sparql-results+json' },
    }),
  ]);
  expect(graphql.errors).toBeUndefined();
  expect(graphql.data.equipment).toMatchObject([{ name: 'AHU-1' }]);
  expect(graphql.data.equipment[0].points).toHaveLength(4);
  expect(sparql.status, await sparql.clone().text()).toBe(200);
  expect((await sparql.json()).results.bindings).toEqual([{ label: { type: 'literal', value: 'AHU-1' } }]);
}
