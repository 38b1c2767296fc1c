// An external store that is down, slow or failing: the store raises SERVICE_UNAVAILABLE, the API
// answers GraphQL errors with that code, REST 503 and a failing /readyz, and everything works again
// once the endpoint is back, without a restart. A client that goes away cancels its queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.ts';
import { SparqlHttpStore } from '../../../src/store/sparql-http-store.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { startSparqlEndpoint, type SparqlEndpoint } from '../../support/sparql-endpoint.ts';
import { selectQuery } from '../../support/select-query.ts';

const SITE = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ex: <https://example.org/down#> .
ex:AHU1 a brick:AHU ; brick:hasPoint ex:SAT .
ex:SAT a brick:Supply_Air_Temperature_Sensor .
`;

let endpoint: SparqlEndpoint;
beforeAll(async () => {
  endpoint = await startSparqlEndpoint();
});
afterAll(async () => {
  await endpoint?.close();
});

const codeOf = (error: unknown) => (error instanceof AppError ? error.code : String(error));

describe('SparqlHttpStore on an endpoint that fails', () => {
  it('is SERVICE_UNAVAILABLE while the endpoint is down, failing or too slow, and recovers by itself', async () => {
    const store = new SparqlHttpStore({ queryUrl: endpoint.queryUrl, dialect: 'standard', timeoutMs: 500, maxConnections: 2 });
    try {
      await store.ping();
      for (const mode of ['down', 'fail', 'hang'] as const) {
        endpoint.mode = mode;
        const started = performance.now();
        expect(codeOf(await store.select(selectQuery('SELECT * WHERE { ?s ?p ?o }')).catch((e: unknown) => e)), mode).toBe('SERVICE_UNAVAILABLE');
        expect(codeOf(await store.ping().catch((e: unknown) => e)), mode).toBe('SERVICE_UNAVAILABLE');
        if (mode === 'hang') expect(performance.now() - started).toBeLessThan(5_000);
        endpoint.mode = 'up';
        await store.ping();
      }
    } finally {
      endpoint.mode = 'up';
      await store.close();
    }
  });

  it('waits for a free connection beyond its bound rather than opening more', async () => {
    const store = new SparqlHttpStore({ queryUrl: endpoint.queryUrl, dialect: 'standard', timeoutMs: 10_000, maxConnections: 2 });
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, () => store.select(selectQuery('SELECT (1 AS ?one) WHERE {}'))));
      expect(answers.every((rows) => rows[0]?.one?.value === '1')).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe('the service on an external store that fails', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      sites: { down: SITE },
      // The deadline is also that of the start-up queries, which share this thread with the database
      // opening at the same time: on a loaded machine one second was too short for them to answer.
      env: { BKG_GRAPH_STORE: 'sparql', SPARQL_QUERY_URL: endpoint.queryUrl, SPARQL_GSP_URL: endpoint.gspUrl, SPARQL_TIMEOUT_MS: '2500' },
    });
  });
  afterAll(async () => {
    endpoint.mode = 'up';
    await h?.close();
  });

  const query = '{ equipment(siteId: "down") { name points { name } } }';

  it('answers SERVICE_UNAVAILABLE, 503 and not ready while the store is down, and recovers without a restart', async () => {
    expect((await h.graphql(query)).data.equipment).toEqual([{ name: 'AHU1', points: [{ name: 'SAT' }] }]);
    for (const mode of ['down', 'hang'] as const) {
      endpoint.mode = mode;
      // At once: while the store hangs, each waits out the deadline.
      const [result, rest, ready] = await Promise.all([
        h.graphql(query),
        h.fetch('/api/v1/sites/down/graph', { headers: { accept: 'text/turtle' } }),
        h.fetch('/readyz'),
      ]);
      expect(result.errors?.map((e) => e.extensions?.code), mode).toEqual(['SERVICE_UNAVAILABLE']);
      expect(rest.status, mode).toBe(503);
      expect([ready.status, (await ready.json()).engines.graph], mode).toEqual([503, 'unavailable']);
      endpoint.mode = 'up';
      expect((await h.graphql(query)).data.equipment, mode).toHaveLength(1);
      expect((await h.fetch('/readyz')).status, mode).toBe(200);
    }
  });

  it('stops asking the store when the client goes away', async () => {
    endpoint.mode = 'hang';
    const before = endpoint.counts.abandoned!;
    const client = new AbortController();
    const request = fetch(`${h.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ query }),
      signal: client.signal,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.abort();
    await request;
    // Well before the deadline would have closed it.
    await expect.poll(() => endpoint.counts.abandoned! - before, { timeout: 1500, interval: 20 }).toBeGreaterThanOrEqual(1);
    endpoint.mode = 'up';
  });
});
