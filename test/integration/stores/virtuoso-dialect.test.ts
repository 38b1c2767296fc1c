// Why src/store/sparql-dialect.ts has a Virtuoso dialect: each quirk shown on a real Virtuoso
// (BKG_TEST_SPARQL_URL, started by .ci/run), next to the store answering correctly despite it.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SparqlHttpStore } from '../../../src/store/sparql-http-store.ts';

const url = process.env.BKG_TEST_SPARQL_URL;
const gsp = process.env.BKG_TEST_SPARQL_GSP_URL;
const isVirtuoso = process.env.BKG_TEST_SPARQL_NAME === 'virtuoso';

/** A form POST to the endpoint, as curl would send it; the raw answer. */
async function post(target: string, form: Record<string, string>, accept = 'application/sparql-results+json') {
  const response = await request(target, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.statusCode, text: await response.body.text() };
}

describe.skipIf(!url || !gsp || !isVirtuoso)(`Virtuoso dialect${url && isVirtuoso ? '' : ' (needs BKG_TEST_SPARQL_URL with BKG_TEST_SPARQL_NAME=virtuoso)'}`, () => {
  const graph = `urn:bkg:test:${randomUUID()}:dialect`;
  let store: SparqlHttpStore;
  beforeAll(() => {
    store = new SparqlHttpStore({ queryUrl: url!, gspUrl: gsp, dialect: 'auto', timeoutMs: 20_000, maxConnections: 2 });
  });
  afterAll(async () => {
    await store?.dropGraph(graph);
    await store?.close();
  });

  it('is recognised from the Server header', async () => {
    expect((await store.dialect()).name).toBe('virtuoso');
  });

  it('never answers a query POSTed as application/sparql-query, so queries go as forms', async () => {
    const direct = request(url!, { method: 'POST', headers: { 'content-type': 'application/sparql-query' }, body: 'ASK {}', signal: AbortSignal.timeout(2_000) });
    await expect(direct).rejects.toThrow();
    expect((await post(url!, { query: 'ASK {}' })).status).toBe(200);
    await store.ping();
  });

  it('refuses blank nodes in INSERT DATA, so they go in an INSERT template', async () => {
    const refused = await post(url!, { update: `INSERT DATA { GRAPH <${graph}> { <urn:x> <urn:p> _:b } }` });
    expect([refused.status, refused.text]).toEqual([400, expect.stringContaining('Blank node')]);
    const insertOnly = new SparqlHttpStore({ queryUrl: url!, dialect: 'auto', timeoutMs: 20_000, maxConnections: 2 });
    await insertOnly.replaceGraph(graph, '<urn:x> <urn:p> [ <urn:q> 1 ] .', 'text/turtle');
    expect(await insertOnly.select(`SELECT ?v WHERE { GRAPH <${graph}> { <urn:x> <urn:p> ?b . ?b <urn:q> ?v } }`)).toHaveLength(1);
    await insertOnly.close();
  });

  it('writes booleans as 1/0 in the 2008 typed-literal form; the store answers them canonically', async () => {
    await store.replaceGraph(graph, '<urn:x> <urn:p> true, "plain"^^<http://www.w3.org/2001/XMLSchema#string> .', 'text/turtle');
    const raw = JSON.parse((await post(url!, { query: `SELECT ?o WHERE { GRAPH <${graph}> { <urn:x> <urn:p> ?o } }` })).text);
    const values = raw.results.bindings.map((b: { o: unknown }) => b.o);
    expect(values).toEqual(
      expect.arrayContaining([
        { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '1' },
      ]),
    );
    const rows = await store.select(`SELECT ?o WHERE { GRAPH <${graph}> { <urn:x> <urn:p> ?o } }`);
    expect(rows.map((r) => r.o)).toEqual(
      expect.arrayContaining([
        { type: 'literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: 'true' },
      ]),
    );
  });

  it('accepts a chunked Graph Store upload and loads nothing, so uploads carry a length', async () => {
    const chunked = await request(`${gsp}?graph=${encodeURIComponent(graph)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/n-triples' },
      // A stream of unknown length goes out chunked.
      body: Readable.from(['<urn:x> <urn:p> "chunked" .\n']),
    });
    await chunked.body.dump();
    expect(chunked.statusCode).toBeGreaterThanOrEqual(200);
    expect(chunked.statusCode).toBeLessThan(300);
    expect(await store.countTriples(graph)).toBe(0);
    expect(await store.replaceGraph(graph, '<urn:x> <urn:p> "sized" .', 'application/n-triples')).toEqual({ triples: 1 });
  });

  it('answers ASK as a one-row SELECT, so ping asks for any JSON answer', async () => {
    const raw = JSON.parse((await post(url!, { query: 'ASK {}' })).text);
    expect(raw.boolean).toBeUndefined();
    expect(raw.results.bindings).toHaveLength(1);
  });

  it('cannot start a transitive path from a variable bound by another path (a shape the compiler emits for Zone.upstream)', async () => {
    await store.replaceGraph(graph, '<urn:z> <urn:part> <urn:r> . <urn:a> <urn:feeds> <urn:r> . <urn:b> <urn:feeds> <urn:a> .', 'text/turtle');
    const query = `SELECT ?e WHERE { GRAPH <${graph}> { VALUES ?z { <urn:z> } ?z <urn:part>? ?start . ?start ^<urn:feeds>* ?e } }`;
    const answer = await post(url!, { query });
    expect([answer.status, answer.text]).toEqual([500, expect.stringMatching(/transitive/)]);
  });
});
