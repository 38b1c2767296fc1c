// Why src/store/sparql-dialect.ts has a Virtuoso dialect: each quirk shown on a real Virtuoso
// (BKG_TEST_SPARQL_URL, started by .ci/run), next to the store answering correctly despite it.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SparqlRow } from '../../../src/store/graph-store.ts';
import { normalizeRows } from '../../../src/store/sparql-dialect.ts';
import { SparqlHttpStore } from '../../../src/store/sparql-http-store.ts';
import { parseResultSetNTriples } from '../../../src/store/sparql-results.ts';
import { prologue, selectQuery } from '../../support/select-query.ts';

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

describe.skipIf(!url || !gsp || !isVirtuoso)(
  `Virtuoso dialect${url && isVirtuoso ? '' : ' (needs BKG_TEST_SPARQL_URL with BKG_TEST_SPARQL_NAME=virtuoso)'}`,
  () => {
    const graph = `urn:bkg:test:${randomUUID()}:dialect`;
    let store: SparqlHttpStore;
    beforeAll(() => {
      store = new SparqlHttpStore({
        queryUrl: url!,
        gspUrl: gsp,
        dialect: 'auto',
        timeoutMs: 20_000,
        maxConnections: 2,
      });
    });
    afterAll(async () => {
      await store?.dropGraph(graph);
      await store?.close();
    });

    it('is recognised from the Server header', async () => {
      expect((await store.dialect()).name).toBe('virtuoso');
    });

    it('never answers a query POSTed as application/sparql-query, so queries go as forms', async () => {
      const direct = request(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/sparql-query' },
        body: 'ASK {}',
        signal: AbortSignal.timeout(2_000),
      });
      await expect(direct).rejects.toThrow();
      expect((await post(url!, { query: 'ASK {}' })).status).toBe(200);
      await store.ping();
    });

    it('answers part of a query past its timeout, flagged only by X-SQL-State, so the store sends the deadline and refuses the cut answer', async () => {
      const explosion = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
      const response = await request(url!, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' },
        body: new URLSearchParams({ query: explosion, timeout: '500' }).toString(),
      });
      const text = await response.body.text();
      // Alone it answers 200 with what it had (here no row at all); busy, it has answered a 500
      // instead. A 200 in time for this query can only be a cut one, and it says so only here.
      if (response.statusCode === 200) {
        expect(response.headers['x-sql-state'], text).toBe('S1TAT');
        expect(JSON.parse(text).results.bindings.length).toBeLessThanOrEqual(1);
      } else {
        expect(response.statusCode, text).toBe(500);
      }
      // The store's client query stops in the store at the deadline: refused, and the store answers the next one at once.
      const started = performance.now();
      await expect(
        store.clientQuery({ text: explosion, form: 'SELECT', graphs: [graph], timeoutMs: 1_000 }),
      ).rejects.toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
      expect(performance.now() - started).toBeLessThan(6_000);
      await expect(store.select(selectQuery('SELECT * WHERE {} LIMIT 1'))).resolves.toBeDefined();
    });

    it('writes a SELECT answer as a result set in N-Triples (its fastest writer) with each term as its JSON gives it, and the store reads it so', async () => {
      const data = String.raw`@prefix ex: <http://example.org/> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:s ex:p "plain", "tab\there \"quoted\" new\nline back\\slash", "uni é 🌡 漢", "", "hi"@en-GB, 42, 1.5, 1.0e3, true,
  "2020-01-01"^^xsd:date, "x"^^ex:dt, ex:o, <http://example.org/ü/ä?q=1#f>, [ ex:q 1 ] .`;
      await store.replaceGraph(graph, data, 'text/turtle');
      const query = `SELECT ?o ?unbound WHERE { GRAPH <${graph}> { ?s ?p ?o } }`;
      const dialect = await store.dialect();
      const json = normalizeRows(JSON.parse((await post(url!, { query })).text).results.bindings, dialect);
      const ntriples = await parseResultSetNTriples((await post(url!, { query }, 'application/n-triples')).text);
      expect(json).toHaveLength(15);
      // The same term whatever the order of its keys; a blank node's label is the answer's own.
      const key = (row: SparqlRow) =>
        JSON.stringify(
          Object.entries(row.o!)
            .filter(([k]) => row.o!.type !== 'bnode' || k === 'type')
            .sort(),
        );
      expect(normalizeRows(ntriples!, dialect).map(key).sort()).toEqual(json.map(key).sort());
      expect((await store.select(selectQuery(query))).map(key).sort()).toEqual(json.map(key).sort());
    });

    it('holds back the end of an answer of about 40 KB on a kept-alive connection until the delayed ACK, so each query gets a connection of its own', async () => {
      // 100 strings of 66 characters: 39 KB as a result set in N-Triples.
      const query = `SELECT ?x WHERE { VALUES ?x { ${Array.from({ length: 100 }, (_, i) => `"v${String(i).padStart(4, '0')}-${'x'.repeat(60)}"`).join(' ')} } }`;
      const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
      const median = async (run: () => Promise<unknown>) => {
        const times: number[] = [];
        for (let i = 0; i < 9; i++) {
          const started = performance.now();
          await run();
          times.push(performance.now() - started);
        }
        return times.sort((a, b) => a - b)[4]!;
      };
      try {
        const keptAlive = await median(async () => {
          const response = await request(url!, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/n-triples' },
            body: new URLSearchParams({ query }).toString(),
          });
          await response.body.text();
        });
        // The stall is a floor a busy machine only adds to; what the store gains by it is measured by
        // `npm run bench` (bench/stores), not timed here.
        expect(keptAlive).toBeGreaterThanOrEqual(35);
        expect(await store.select(selectQuery(query))).toHaveLength(100);
      } finally {
        await agent.close();
      }
    });

    it('answers a query after its order pragma (sent again so when its planner gives up) as without it', async () => {
      await store.replaceGraph(
        graph,
        '<urn:a> <urn:p> <urn:b> . <urn:b> <urn:p> <urn:c> . <urn:c> <urn:q> "x" .',
        'text/turtle',
      );
      const query = `SELECT ?s ?o ?v WHERE { GRAPH <${graph}> { ?s <urn:p> ?o . OPTIONAL { ?o <urn:q> ?v } } } ORDER BY ?s`;
      const dialect = await store.dialect();
      const plain = JSON.parse((await post(url!, { query })).text).results.bindings;
      const ordered = JSON.parse((await post(url!, { query: `${dialect.orderAsWritten}\n${query}` })).text).results
        .bindings;
      expect(plain).toHaveLength(2);
      expect(ordered).toEqual(plain);
    });

    it('refuses blank nodes in INSERT DATA, so they go in an INSERT template', async () => {
      const refused = await post(url!, { update: `INSERT DATA { GRAPH <${graph}> { <urn:x> <urn:p> _:b } }` });
      expect([refused.status, refused.text]).toEqual([400, expect.stringContaining('Blank node')]);
      const insertOnly = new SparqlHttpStore({ queryUrl: url!, dialect: 'auto', timeoutMs: 20_000, maxConnections: 2 });
      await insertOnly.replaceGraph(graph, '<urn:x> <urn:p> [ <urn:q> 1 ] .', 'text/turtle');
      expect(
        await insertOnly.select(
          selectQuery(`SELECT ?v WHERE { GRAPH <${graph}> { <urn:x> <urn:p> ?b . ?b <urn:q> ?v } }`),
        ),
      ).toHaveLength(1);
      await insertOnly.close();
    });

    it('writes booleans as 1/0 in the 2008 typed-literal form; the store answers them canonically', async () => {
      await store.replaceGraph(
        graph,
        '<urn:x> <urn:p> true, "plain"^^<http://www.w3.org/2001/XMLSchema#string> .',
        'text/turtle',
      );
      const raw = JSON.parse(
        (await post(url!, { query: `SELECT ?o WHERE { GRAPH <${graph}> { <urn:x> <urn:p> ?o } }` })).text,
      );
      const values = raw.results.bindings.map((b: { o: unknown }) => b.o);
      expect(values).toEqual(
        expect.arrayContaining([
          { type: 'typed-literal', datatype: 'http://www.w3.org/2001/XMLSchema#boolean', value: '1' },
        ]),
      );
      const rows = await store.select(selectQuery(`SELECT ?o WHERE { GRAPH <${graph}> { <urn:x> <urn:p> ?o } }`));
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
      expect(await store.replaceGraph(graph, '<urn:x> <urn:p> "sized" .', 'application/n-triples')).toEqual({
        triples: 1,
      });
    });

    it('answers ASK as a one-row SELECT, so ping asks for any JSON answer', async () => {
      const raw = JSON.parse((await post(url!, { query: 'ASK {}' })).text);
      expect(raw.boolean).toBeUndefined();
      expect(raw.results.bindings).toHaveLength(1);
    });

    it('cannot start a transitive path from a variable bound by another path (a shape the compiler emits for Zone.upstream); the store rewrites it', async () => {
      await store.replaceGraph(
        graph,
        '<urn:z> <urn:part> <urn:r> . <urn:a> <urn:feeds> <urn:r> . <urn:b> <urn:feeds> <urn:a> .',
        'text/turtle',
      );
      const query = `SELECT ?e WHERE { GRAPH <${graph}> { VALUES ?z { <urn:z> } ?z <urn:part>? ?start . ?start ^<urn:feeds>* ?e } }`;
      const answer = await post(url!, { query });
      expect([answer.status, answer.text]).toEqual([500, expect.stringMatching(/transitive/)]);
      expect(new Set((await store.select(selectQuery(query))).map((r) => r.e!.value))).toEqual(
        new Set(['urn:z', 'urn:r', 'urn:a', 'urn:b']),
      );
    });

    // Left to choose, Virtuoso's planner at times ran the transitive subquery of a traversal back from
    // the edges joined after it, and kept only the first edge from each piece of equipment (AHU-1
    // feeding one VAV of eight). It chose that plan from its statistics (on a fresh Virtuoso, after
    // the store suites' loads and drops) and kept it compiled for that query text, so it cannot be
    // called up at will here: this shows the store's shape, pinned forward (virtuoso-directions.ts),
    // answering whole; test/unit/store/virtuoso-query.test.ts shows the pinning.
    it('answers a traversal’s edges whole, its transitive subquery pinned to run forward from the start', async () => {
      await store.replaceGraph(
        graph,
        readFileSync(new URL('../../../fixtures/demo.ttl', import.meta.url), 'utf8'),
        'text/turtle',
      );
      const DEMO = 'https://example.org/buildings/demo#';
      const path = '(brick:feeds|^brick:isFedBy)';
      const query = `SELECT ?x ?y WHERE { GRAPH <${graph}> { VALUES ?start { <${DEMO}CT-1> } ?start ${path}* ?x . ?x ${path} ?y } }`;
      const rows = await store.select(selectQuery(query));
      const fedByAhu1 = rows.filter((r) => r.x?.value === `${DEMO}AHU-1`).map((r) => r.y!.value.slice(DEMO.length));
      expect([...new Set(fedByAhu1)].sort()).toEqual([
        'VAV-1-01',
        'VAV-1-02',
        'VAV-1-03',
        'VAV-1-04',
        'VAV-2-01',
        'VAV-2-02',
        'VAV-2-03',
        'VAV-2-04',
      ]);
      expect(new Set(rows.map((r) => `${r.x!.value} ${r.y!.value}`)).size).toBe(45);
    });

    it('ignores a FILTER on a subquery’s variable beside an OPTIONAL, so the store moves FILTERs into the subquery it writes', async () => {
      await store.replaceGraph(graph, '<urn:e1> <urn:point> <urn:p1> . <urn:e9> <urn:point> <urn:p9> .', 'text/turtle');
      const filter = 'FILTER(STRENDS(STR(?e), "9"))';
      const apart = `SELECT ?e WHERE { GRAPH <${graph}> { { SELECT ?e WHERE { ?e <urn:point> ?p } } OPTIONAL { ?e a ?t } ${filter} } }`;
      const answer = await post(url!, { query: apart });
      expect(
        JSON.parse(answer.text)
          .results.bindings.map((b: { e: { value: string } }) => b.e.value)
          .sort(),
      ).toEqual(['urn:e1', 'urn:e9']);
      const query = `SELECT ?e WHERE { GRAPH <${graph}> { VALUES ?k { <urn:point> } ?e ?k ?p ${filter} OPTIONAL { ?e a ?t } } }`;
      expect((await store.select(selectQuery(query))).map((r) => r.e!.value)).toEqual(['urn:e9']);
    });

    it('answers nothing for a FILTER over a UNION with a VALUES branch, so the store joins every VALUES from a subquery', async () => {
      const query = `SELECT ?e WHERE { GRAPH <${graph}> { { ?e a <urn:nothing> } UNION { VALUES ?e { <urn:e1> <urn:e9> } } FILTER(STRENDS(STR(?e), "9")) } }`;
      expect(JSON.parse((await post(url!, { query })).text).results.bindings).toEqual([]);
      expect((await store.select(selectQuery(query))).map((r) => r.e!.value)).toEqual(['urn:e9']);
    });

    // Each quirk below on fixtures/small/locations.ttl, as Virtuoso answers the shape by itself; the
    // store's answers to the compiler's shapes are in graph-store-contract.test.ts and the GraphQL suites.
    describe('property paths and EXISTS', () => {
      const site = `urn:bkg:test:${randomUUID()}:locations`;
      const EX = 'https://example.org/f#';
      const PART = '(brick:hasPart|rec:hasPart|^brick:isPartOf|^rec:isPartOf)';
      const POINT = '(brick:hasPoint|^brick:isPointOf)';
      // Virtuoso's own transitive subquery for `?from PART* ?to`, as src/store/virtuoso-query.ts writes it.
      const transitive = (from: string, to: string) =>
        `{ SELECT ?${from} ?${to} WHERE { ?${from} ${PART} ?${to} } } OPTION (TRANSITIVE, t_in(?${from}), t_out(?${to}), t_distinct, t_min(0)) .`;
      /** The local names of `v` in Virtuoso's own answer to `where` in the site graph (its answers depend on the projection too). */
      const raw = async (where: string, v: string, projection = '*') => {
        const answer = await post(url!, {
          query: `${prologue}\nSELECT ${projection} WHERE { GRAPH <${site}> { ${where} } }`,
        });
        expect(answer.status, answer.text).toBe(200);
        return (JSON.parse(answer.text).results.bindings as Array<Record<string, { value: string }>>)
          .map((b) => b[v]?.value.replace(EX, ''))
          .sort();
      };
      beforeAll(async () => {
        await store.replaceGraph(
          site,
          readFileSync(new URL('../../../fixtures/small/locations.ttl', import.meta.url), 'utf8'),
          'text/turtle',
        );
      });
      afterAll(async () => {
        await store?.dropGraph(site);
      });

      it('refuses a repeated path of alternatives from VALUES, so the store writes it as a transitive subquery', async () => {
        const query = `${prologue}\nSELECT ?e WHERE { GRAPH <${site}> { VALUES ?b { <${EX}HQ> } ?b ${PART}+ ?e } }`;
        const answer = await post(url!, { query });
        expect([answer.status, answer.text]).toEqual([500, expect.stringMatching(/transitive start not given/)]);
        expect(new Set((await store.select(selectQuery(query))).map((r) => r.e!.value.slice(EX.length)))).toEqual(
          new Set(['F1', 'F2', 'ZoneA', 'R101', 'R102', 'R201']),
        );
      });

      // Next to a transitive subquery Virtuoso's plans answered part of an alternative path (`?x
      // (brick:hasPoint|rec:hasPoint|^brick:isPointOf|^rec:isPointOf) ?e` found two of five points) and
      // tested a FILTER EXISTS on the wrong entity (every room came back as Floor 1); which plan it
      // picks depends on the data it holds, so these show the rewritten shapes answering right.
      it('answers the compiler’s shapes for points under a location and rooms with is: through the rewrite', async () => {
        const located = '(brick:hasLocation|rec:locatedIn|^brick:isLocationOf|^rec:isLocationOf)';
        const point = '(brick:hasPoint|rec:hasPoint|^brick:isPointOf|^rec:isPointOf)';
        const select = async (where: string, v: string) =>
          [
            ...new Set(
              (
                await store.select(
                  selectQuery(`SELECT * WHERE { GRAPH <${site}> { VALUES ?parent { <${EX}HQ> } ${where} } }`),
                )
              ).map((r) => r[v]!.value.replace(EX, '')),
            ),
          ].sort();
        expect(await select(`?parent ${PART}*/^${located}/${point} ?e`, 'e')).toEqual([
          'AHU1_SAT',
          'Boiler1_HWST',
          'FCU201_Fan',
          'VAV101_Flow',
          'VAV102_Damper',
        ]);
        const facts =
          'OPTIONAL { ?e a ?t } OPTIONAL { ?e rdfs:label ?l0 } OPTIONAL { ?e skos:prefLabel ?l1 } OPTIONAL { ?e brick:label ?l2 }';
        expect(
          await select(
            `?parent ${PART}+ ?e FILTER EXISTS { ?e a ?k FILTER(?k IN (rec:Room, brick:Room)) } ${facts}`,
            'e',
          ),
        ).toEqual(['R101', 'R102', 'R201']);
      });

      // Two such joins before an OPTIONAL lost a row on one Virtuoso and not on another with other
      // graphs loaded (the plan follows the statistics of everything the store holds), so this shows
      // the merged join answering right, and the store's own rewrite of the split shape doing so too.
      it('answers a group with two EXISTS joins before an OPTIONAL once the store merges them into one', async () => {
        const sensors = 'VALUES ?k { brick:Air_Flow_Sensor brick:Damper_Position_Command } ?e a ?k .';
        const onFloor1 = `?a rdfs:label "Floor 1" . ${transitive('a', 'm')} ?x brick:hasLocation|^brick:isLocationOf ?m . ?x ${POINT} ?e .`;
        const ofVav = '?e brick:isPointOf ?v . ?v a brick:VAV .';
        const apart = `${sensors} { SELECT DISTINCT ?e WHERE { ${onFloor1} } } { SELECT DISTINCT ?e WHERE { ${ofVav} } }`;
        expect(await raw(apart, 'e')).toEqual(['VAV101_Flow', 'VAV102_Damper']);
        expect(
          await raw(
            `${sensors} { SELECT DISTINCT ?e WHERE { ${onFloor1} ${ofVav} } } OPTIONAL { ?e rdfs:label ?l }`,
            'e',
          ),
        ).toEqual(['VAV101_Flow', 'VAV102_Damper']);
        const exists = `?e a ?k FILTER EXISTS { ?a rdfs:label "Floor 1" . ?a ${PART}* ?m . ?x brick:hasLocation|^brick:isLocationOf ?m . ?x ${POINT} ?e } FILTER EXISTS { ${ofVav} }`;
        const rows = await store.select(
          selectQuery(
            `SELECT DISTINCT ?e WHERE { GRAPH <${site}> { VALUES ?k { brick:Air_Flow_Sensor brick:Damper_Position_Command } ${exists} OPTIONAL { ?e rdfs:label ?l } } }`,
          ),
        );
        expect(rows.map((r) => r.e!.value.replace(EX, '')).sort()).toEqual(['VAV101_Flow', 'VAV102_Damper']);
      });

      // The rewrites below are for speed (bench/stores/results-100k.md): each shows the store's
      // answer through them equal to Virtuoso's own answer to the compiler's shape, and right.
      it('joins a long VALUES block as fast as a table from a subquery of its own, with the same answer', async () => {
        // Inline, a VALUES of the few hundred classes of a kind cost Virtuoso 100–300 ms at 100k triples however few rows it met.
        const where = `VALUES ?k { brick:VAV brick:AHU brick:Boiler brick:Chiller brick:FCU } ?e a ?k`;
        const expected = ['AHU1', 'AVAV', 'Boiler1', 'FCU201', 'VAV101', 'VAV102'];
        expect(await raw(where, 'e')).toEqual(expected);
        const rows = await store.select(selectQuery(`${prologue}\nSELECT ?e WHERE { GRAPH <${site}> { ${where} } }`));
        expect(rows.map((r) => r.e!.value.replace(EX, '')).sort()).toEqual(expected);
      });

      it('looks entities up by name before the OPTIONAL joins that tag them, and tags them right', async () => {
        // The compiler's lookup by id: Virtuoso started from the whole-graph tag probes (3–4 s at 100k triples).
        const located = '(brick:hasLocation|rec:locatedIn|^brick:isLocationOf|^rec:isLocationOf)';
        const point = '(brick:hasPoint|rec:hasPoint|^brick:isPointOf|^rec:isPointOf)';
        const where = `{ VALUES ?k { brick:AHU brick:Boiler brick:VAV rec:Room } ?e a ?k } UNION { ?e ${point} ?fb . OPTIONAL { ?e a ?fk } FILTER(!BOUND(?fk)) }
        FILTER(STRENDS(STR(?e), "1")) OPTIONAL { ?e rdfs:label ?l0 }
        BIND(IF(EXISTS { ?x ${located} ?e }, "le", IF(EXISTS { ?e ${point} ?y }, "hp", "")) AS ?tag)`;
        const rows = await store.select(
          selectQuery(`${prologue}\nSELECT ?e ?tag WHERE { GRAPH <${site}> { ${where} } }`),
        );
        const tagged = rows.map((r) => `${r.e!.value.replace(EX, '')} ${r.tag!.value}`).sort();
        expect(tagged).toEqual(['AHU1 hp', 'AR1 le', 'Boiler1 hp', 'R101 le', 'R201 le', 'VAV101 hp']);
      });

      it('makes an EXISTS in a BIND false after a BIND and an OPTIONAL, so the store tests an OPTIONAL join with BOUND', async () => {
        const start = `VALUES ?e { <${EX}AHU1> <${EX}Boiler1> } BIND(STR(?e) AS ?n) OPTIONAL { ?e brick:label ?l }`;
        expect(await raw(`${start} BIND(IF(EXISTS { ?e ${POINT} ?y }, "hp", "") AS ?tag)`, 'tag')).toEqual(['', '']);
        const joined = `OPTIONAL { SELECT DISTINCT ?e (1 AS ?found) WHERE { ?e ${POINT} ?y } } BIND(IF(BOUND(?found), "hp", "") AS ?tag)`;
        expect(await raw(`${start} ${joined}`, 'tag')).toEqual(['hp', 'hp']);
      });
    });
  },
);
