// An external store that is down, slow or failing: the store raises SERVICE_UNAVAILABLE, the API
// answers GraphQL errors with that code, REST 503 and a failing /readyz, and everything works again
// once the endpoint is back, without a restart. A client that goes away cancels its queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.ts';
import { dropGraph, namedNode, update } from '../../../src/rdf/sparql-algebra.ts';
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
    const store = new SparqlHttpStore({
      queryUrl: endpoint.queryUrl,
      dialect: 'standard',
      timeoutMs: 500,
      maxConnections: 2,
    });
    try {
      await store.ping();
      for (const mode of ['down', 'fail', 'hang'] as const) {
        endpoint.mode = mode;
        const started = performance.now();
        expect(
          codeOf(await store.select(selectQuery('SELECT * WHERE { ?s ?p ?o }')).catch((e: unknown) => e)),
          mode,
        ).toBe('SERVICE_UNAVAILABLE');
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

  it('sends a read again when the endpoint chose it as a deadlock victim (twice at most), never an update', async () => {
    const store = new SparqlHttpStore({
      queryUrl: endpoint.queryUrl,
      dialect: 'virtuoso',
      timeoutMs: 5_000,
      maxConnections: 2,
    });
    try {
      endpoint.deadlocks = 2;
      const rows = await store.select(selectQuery('SELECT (1 AS ?one) WHERE {}'));
      expect(rows[0]?.one?.value).toBe('1');
      expect(endpoint.deadlocks).toBe(0);
      endpoint.deadlocks = 3;
      const third = await store.select(selectQuery('SELECT (1 AS ?one) WHERE {}')).catch((e: unknown) => e);
      expect(codeOf(third)).toBe('SERVICE_UNAVAILABLE');
      expect((third as Error).message).toBe('The triplestore failed (HTTP 500).');
      expect(endpoint.deadlocks).toBe(0);
      // An update may have been applied in part by the time a deadlock is reported: the caller decides.
      endpoint.deadlocks = 1;
      const before = endpoint.counts.deadlocked!;
      const updated = await store
        .update(update(dropGraph(namedNode('urn:bkg:test:deadlock'))))
        .catch((e: unknown) => e);
      expect(codeOf(updated)).toBe('SERVICE_UNAVAILABLE');
      expect(endpoint.counts.deadlocked! - before).toBe(1);
      expect(endpoint.deadlocks).toBe(0);
    } finally {
      endpoint.deadlocks = 0;
      await store.close();
    }
  });

  it('sends a load again when the store kept part of it, and refuses one it keeps part of twice, leaving the graph as it was', async () => {
    const store = new SparqlHttpStore({
      queryUrl: endpoint.queryUrl,
      gspUrl: endpoint.gspUrl,
      dialect: 'virtuoso',
      timeoutMs: 5_000,
      maxConnections: 2,
    });
    const graph = 'urn:bkg:site:lossy';
    const document = (tag: string) =>
      Array.from({ length: 100 }, (_, i) => `<urn:x:${tag}${i}> <urn:x:p> "${i}" .\n`).join('');
    try {
      endpoint.lossyPuts = [0.5];
      expect(await store.replaceGraph(graph, document('a'), 'application/n-triples')).toEqual({ triples: 100 });
      expect(endpoint.lossyPuts).toEqual([]);
      // Kept in part twice, and not alike: refused, and the graph is the one loaded before.
      endpoint.lossyPuts = [0.5, 0.3];
      const refused = await store.replaceGraph(graph, document('b'), 'application/n-triples').catch((e: unknown) => e);
      expect(codeOf(refused)).toBe('SERVICE_UNAVAILABLE');
      expect((refused as Error).message).toMatch(/kept 31 of the document's 100 triples \(51 at the first try\)/);
      expect(await store.countTriples(graph)).toBe(100);
      const subjects = await store.select(selectQuery(`SELECT DISTINCT ?s WHERE { GRAPH <${graph}> { ?s ?p ?o } }`));
      expect(subjects.every((row) => row.s!.value.startsWith('urn:x:a'))).toBe(true);
    } finally {
      endpoint.lossyPuts = [];
      await store.close();
    }
  });

  it('reads an answer cut at the endpoint’s time limit while it was being written (HTTP 500 naming S1TAT) as the deadline, not a failure', async () => {
    const store = new SparqlHttpStore({
      queryUrl: endpoint.queryUrl,
      dialect: 'virtuoso',
      timeoutMs: 5_000,
      maxConnections: 2,
    });
    try {
      endpoint.cutAnswers = 1;
      const select = await store.select(selectQuery('SELECT ?a WHERE { ?a ?b ?c }')).catch((e: unknown) => e);
      expect([codeOf(select), (select as Error).message]).toEqual([
        'SERVICE_UNAVAILABLE',
        'The triplestore stopped the query at its own time limit.',
      ]);
      // A client's query has a deadline of its own: its error is the deadline's.
      endpoint.cutAnswers = 1;
      const client = await store
        .clientQuery({ text: 'SELECT ?a WHERE { ?a ?b ?c }', form: 'SELECT', graphs: ['urn:g'], timeoutMs: 3_000 })
        .catch((e: unknown) => e);
      expect(codeOf(client)).toBe('QUERY_TOO_COMPLEX');
      expect(endpoint.cutAnswers).toBe(0);
    } finally {
      endpoint.cutAnswers = 0;
      await store.close();
    }
  });

  it('sends a query its planner gave up on (SQ200) once more with the patterns joined as written, and no more', async () => {
    const store = new SparqlHttpStore({
      queryUrl: endpoint.queryUrl,
      dialect: 'virtuoso',
      timeoutMs: 5_000,
      maxConnections: 2,
    });
    try {
      /** The queries a select sends, and how many of them carry the order pragma. */
      const sent = async () => {
        const before = { ...endpoint.counts };
        expect((await store.select(selectQuery('SELECT (1 AS ?one) WHERE {}')))[0]?.one?.value).toBe('1');
        return { queries: endpoint.counts.query! - before.query!, ordered: endpoint.counts.ordered! - before.ordered! };
      };
      const plain = await sent();
      endpoint.plannerFailures = 1;
      // One query more than the same select sends when all goes well: the one given up on, sent again in written order.
      expect(await sent()).toEqual({ queries: plain.queries + 1, ordered: 1 });
      // A standard endpoint has no such pragma: its failure stays a failure.
      const standard = new SparqlHttpStore({
        queryUrl: endpoint.queryUrl,
        dialect: 'standard',
        timeoutMs: 5_000,
        maxConnections: 2,
      });
      endpoint.plannerFailures = 1;
      expect(codeOf(await standard.select(selectQuery('SELECT (1 AS ?one) WHERE {}')).catch((e: unknown) => e))).toBe(
        'SERVICE_UNAVAILABLE',
      );
      await standard.close();
    } finally {
      endpoint.plannerFailures = 0;
      await store.close();
    }
  });

  it('waits for a free connection beyond its bound rather than opening more', async () => {
    // An endpoint of its own: the others' connections would count against the bound.
    const own = await startSparqlEndpoint();
    const store = new SparqlHttpStore({
      queryUrl: own.queryUrl,
      dialect: 'standard',
      timeoutMs: 10_000,
      maxConnections: 2,
    });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => store.select(selectQuery('SELECT (1 AS ?one) WHERE {}'))),
      );
      expect(answers.every((rows) => rows[0]?.one?.value === '1')).toBe(true);
      // Twelve queries at once: both connections of the bound opened, and no third.
      expect(own.peakConnections).toBe(2);
      expect(own.counts.query).toBe(12);
    } finally {
      await store.close();
      await own.close();
    }
  });
});

/** N-Triples of `n` triples about `name`. */
const document = (name: string, n: number) =>
  Array.from({ length: n }, (_, i) => `<urn:${name}:${i}> <urn:p> "${i}" .\n`).join('');

describe('SparqlHttpStore on an endpoint that stops answering mid-load', () => {
  const DEADLINE_MS = 800;
  // Three INSERTs of 2,000 triples without a Graph Store endpoint.
  const NEW = document('new', 5_000);
  const cases = [
    { name: 'a replace over the Graph Store Protocol', gsp: true, replace: true, answered: 0, step: 'sending' },
    { name: 'a merge over the Graph Store Protocol', gsp: true, replace: false, answered: 0, step: 'sending' },
    { name: 'a replace by INSERTs, after the first', gsp: false, replace: true, answered: 1, step: 'sending' },
    { name: 'a merge by INSERTs, after the first', gsp: false, replace: false, answered: 1, step: 'sending' },
    {
      name: 'a replace, at the MOVE that puts the graph in place',
      gsp: true,
      replace: true,
      // The PUT, and the count of what the store kept.
      answered: 2,
      step: 'placing',
    },
  ] as const;

  it.each(cases)(
    '$name fails at its deadline with a clear error, and the graph answers as it was',
    async ({ gsp, replace, answered, step }) => {
      const graph = `urn:bkg:test:stall:${step}:${gsp}:${replace}`;
      const store = new SparqlHttpStore({
        queryUrl: endpoint.queryUrl,
        ...(gsp ? { gspUrl: endpoint.gspUrl } : {}),
        dialect: 'standard',
        timeoutMs: 5_000,
        maxConnections: 4,
        loadDeadline: { floorMs: DEADLINE_MS, bytesPerSecond: 1_000_000_000 },
      });
      try {
        await store.replaceGraph(graph, document('old', 3), 'application/n-triples');
        const before = await store.exportGraph(graph, 'application/n-triples');
        endpoint.hangAfter = answered;
        const started = performance.now();
        const load = replace
          ? store.replaceGraph(graph, NEW, 'application/n-triples')
          : store.mergeGraph(graph, NEW, 'application/n-triples');
        const error = await load.catch((e: unknown) => e);
        const seconds = (performance.now() - started) / 1000;
        expect(codeOf(error)).toBe('SERVICE_UNAVAILABLE');
        expect((error as AppError).status).toBe(503);
        // The deadline of a request of a few hundred kilobytes: the floor, and a millisecond for its bytes.
        expect((error as Error).message).toMatch(
          /^The triplestore did not answer within 0\.8 s, the deadline of this load, which was stopped\. /,
        );
        expect((error as Error).message).toMatch(
          step === 'sending'
            ? /The graph is unchanged: it is as it was before the load\.$/
            : /the graph holds either its old content or the whole new one, never part of it/,
        );
        expect(seconds).toBeGreaterThanOrEqual(DEADLINE_MS / 1000);
        expect(seconds).toBeLessThan(DEADLINE_MS / 1000 + 2);
        endpoint.mode = 'up';
        expect(await store.exportGraph(graph, 'application/n-triples')).toBe(before);
        expect(await store.countTriples(graph)).toBe(3);
      } finally {
        endpoint.hangAfter = undefined;
        endpoint.mode = 'up';
        await store.dropGraph(graph);
        await store.close();
      }
    },
  );
});

describe('the service on an external store that fails', () => {
  let h: Harness;
  const logged: Array<{ level: number; msg: string; err?: { message?: string; stack?: string } }> = [];
  beforeAll(async () => {
    h = await createHarness({
      sites: { down: SITE },
      log: { write: (line: string) => void logged.push(JSON.parse(line)) },
      // The deadline is also that of the start-up queries, which share this thread with the database
      // opening at the same time: on a loaded machine one second was too short for them to answer.
      env: {
        BKG_GRAPH_STORE: 'sparql',
        SPARQL_QUERY_URL: endpoint.queryUrl,
        SPARQL_GSP_URL: endpoint.gspUrl,
        SPARQL_TIMEOUT_MS: '2500',
        BKG_LOAD_DEADLINE_MS: '1000',
        LOG_LEVEL: 'warn',
      },
    });
  });
  afterAll(async () => {
    endpoint.mode = 'up';
    await h?.close();
  });

  const query = '{ equipment(siteId: "down") { name points { name } } }';
  // The same question in a text not asked before: answered by the store, not from the answers kept.
  let asked = 0;
  const fresh = () => `${query} # ${++asked}`;

  it('answers SERVICE_UNAVAILABLE, 503 and not ready while the store is down, and recovers without a restart', async () => {
    expect((await h.graphql(query)).data.equipment).toEqual([{ name: 'AHU1', points: [{ name: 'SAT' }] }]);
    for (const mode of ['down', 'hang'] as const) {
      endpoint.mode = mode;
      // At once: while the store hangs, each waits out the deadline.
      const [result, rest, ready, kept] = await Promise.all([
        h.graphql(fresh()),
        h.fetch('/api/v1/sites/down/graph', { headers: { accept: 'text/turtle' } }),
        h.fetch('/readyz'),
        h.graphql(query),
      ]);
      expect(
        result.errors?.map((e) => e.extensions?.code),
        mode,
      ).toEqual(['SERVICE_UNAVAILABLE']);
      // An answer kept for the graph's version is the answer still: given without the store.
      expect(kept.data?.equipment, mode).toEqual([{ name: 'AHU1', points: [{ name: 'SAT' }] }]);
      expect(rest.status, mode).toBe(503);
      expect([ready.status, (await ready.json()).engines.graph], mode).toEqual([503, 'unavailable']);
      endpoint.mode = 'up';
      expect((await h.graphql(fresh())).data.equipment, mode).toHaveLength(1);
      expect((await h.fetch('/readyz')).status, mode).toBe(200);
    }
  });

  it('logs what the store answered when it failed a GraphQL request, as it does for REST', async () => {
    endpoint.mode = 'fail';
    logged.length = 0;
    try {
      expect((await h.graphql(fresh())).errors?.map((e) => [e.extensions?.code, e.message])).toEqual([
        ['SERVICE_UNAVAILABLE', 'The triplestore failed (HTTP 503).'],
      ]);
      expect((await h.fetch('/api/v1/sites/down/graph', { headers: { accept: 'text/turtle' } })).status).toBe(503);
    } finally {
      endpoint.mode = 'up';
    }
    const failures = logged.filter((line) => line.msg === 'The triplestore failed (HTTP 503).');
    expect(failures).toHaveLength(2);
    for (const line of failures)
      expect([line.level, line.err?.message]).toEqual([40, 'The SPARQL endpoint answered HTTP 503: overloaded']);
  });

  it('stops asking the store when the client goes away', async () => {
    endpoint.mode = 'hang';
    const before = endpoint.counts.abandoned!;
    const client = new AbortController();
    const request = fetch(`${h.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${h.adminKey}` },
      body: JSON.stringify({ query: fresh() }),
      signal: client.signal,
    }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.abort();
    await request;
    // Well before the deadline would have closed it.
    await expect
      .poll(() => endpoint.counts.abandoned! - before, { timeout: 1500, interval: 20 })
      .toBeGreaterThanOrEqual(1);
    endpoint.mode = 'up';
  });

  // Last: the test above wants the site's reads cached, and a load, even a failed one, makes the
  // service read the site anew.
  it('answers 503 to a load the store stops answering, at its deadline, and the site answers as before', async () => {
    const started = performance.now();
    // Two requests answer first: the graph as it was (its count and its triples), read so the
    // load's version keeps what it changes; the load's own first request hangs.
    endpoint.hangAfter = 2;
    let load: Response;
    try {
      load = await h.fetch('/api/v1/sites/down/graph', {
        method: 'PUT',
        headers: { 'content-type': 'text/turtle' },
        body: `${SITE}ex:AHU2 a brick:AHU .\n`,
      });
    } finally {
      endpoint.hangAfter = undefined;
      endpoint.mode = 'up';
    }
    const seconds = (performance.now() - started) / 1000;
    const message =
      'The triplestore did not answer within 1 s, the deadline of this load, which was stopped. The graph is unchanged: it is as it was before the load.';
    expect([load.status, await load.json()]).toEqual([
      503,
      { code: 'SERVICE_UNAVAILABLE', detail: message, deadlineSeconds: 1, step: 'sending' },
    ]);
    expect(seconds).toBeLessThan(3);
    const progress = await (await h.fetch('/api/v1/sites/down/graph/load')).json();
    expect([progress.state, progress.message]).toEqual(['failed', message]);
    expect((await h.graphql(fresh())).data.equipment).toEqual([{ name: 'AHU1', points: [{ name: 'SAT' }] }]);
  });
});
