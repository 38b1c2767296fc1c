// The per-site SPARQL endpoint: the protocol (GET, form and direct POST; every result
// format by Accept), tenancy, and a matrix of hostile queries that must be refused or confined to
// the site's graph and the ontology, on the embedded store and, when BKG_TEST_SPARQL_URL names one
// (.ci/run starts Virtuoso), on a real SPARQL 1.1 endpoint behind the protocol store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, fetchAs } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';

const external = process.env.BKG_TEST_SPARQL_URL;
const externalGsp = process.env.BKG_TEST_SPARQL_GSP_URL;

// Site ids of this file only: an external endpoint is shared with other test files.
const OWN = 'sparql-own';
const OTHER = 'sparql-other';
const OWN_GRAPH = `urn:bkg:site:${OWN}`;
const OTHER_GRAPH = `urn:bkg:site:${OTHER}`;
const ONTOLOGY = 'urn:bkg:ontology';

const PREFIXES = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ex: <https://example.org/sparql#> .
`;
const OWN_TTL = `${PREFIXES}
ex:ahu1 a brick:AHU ; rdfs:label "AHU 1" ; brick:feeds ex:vav1 .
ex:vav1 a brick:VAV ; rdfs:label "VAV, \\"east\\"" ; brick:hasPoint ex:t1 .
ex:t1 a brick:Zone_Air_Temperature_Sensor ; rdfs:label "Zone temp"@en .
`;
const OTHER_TTL = `${PREFIXES}
ex:secret a brick:Chiller ; rdfs:label "Other site's secret" .
`;

/**
 * The endpoint's deadline per store. Virtuoso shares the machine with the rest of the suite, and its
 * planner now and then answers a small join over the ontology in a second and more (seen in CI, on
 * `LIMIT 20`): past 1.5 s the result-cap checks would fail on the deadline instead.
 */
const TIMEOUT_MS = { embedded: 1500, external: 5000 };
const MAX_RESULTS = 500;
// Four unrelated patterns over the ontology (thousands of triples): far more than a deadline allows.
const EXPLOSION = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }';

type Json = any;

const EMBEDDED: Record<string, string> = {};
const stores: Array<[string, Record<string, string> | undefined]> = [
  ['embedded Oxigraph', EMBEDDED],
  [
    `Virtuoso (${external ?? 'needs BKG_TEST_SPARQL_URL'})`,
    external
      ? {
          BKG_GRAPH_STORE: 'sparql',
          SPARQL_QUERY_URL: external,
          ...(externalGsp ? { SPARQL_GSP_URL: externalGsp } : {}),
        }
      : undefined,
  ],
];

for (const [name, storeEnv] of stores) {
  describe.skipIf(!storeEnv)(`SPARQL endpoint on ${name}`, () => {
    const timeoutMs = storeEnv === EMBEDDED ? TIMEOUT_MS.embedded : TIMEOUT_MS.external;
    let h: Harness;
    const path = (site = OWN) => `/api/v1/sites/${site}/sparql`;
    const get = (query: string, accept = 'application/sparql-results+json', site = OWN) =>
      h.fetch(`${path(site)}?${new URLSearchParams({ query })}`, { headers: { accept } });
    const select = async (query: string): Promise<Json> => {
      const response = await get(query);
      expect(response.status, await response.clone().text()).toBe(200);
      return response.json();
    };
    const values = (body: Json, v: string) => body.results.bindings.map((b: Json) => b[v]?.value).sort();
    const refused = async (response: Response, code: string, pattern: RegExp) => {
      const body = (await response.json()) as Json;
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(body.code).toBe(code);
      expect(body.detail).toMatch(pattern);
    };

    beforeAll(async () => {
      h = await createHarness({
        // A demo site for anonymous callers; only on the embedded store (an external one is shared).
        sites: { [OWN]: OWN_TTL, [OTHER]: OTHER_TTL, ...(storeEnv === EMBEDDED ? { demo: OTHER_TTL } : {}) },
        env: { ...storeEnv, BKG_SPARQL_TIMEOUT_MS: String(timeoutMs), BKG_SPARQL_MAX_RESULTS: String(MAX_RESULTS) },
      });
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('protocol', () => {
      it('answers SELECT as SPARQL JSON by default, over the site graph and the ontology', async () => {
        const body = await select(
          'PREFIX brick: <https://brickschema.org/schema/Brick#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ' +
            'SELECT ?e ?super WHERE { ?e a brick:AHU . brick:AHU rdfs:subClassOf ?super }',
        );
        expect(body.head.vars).toEqual(['e', 'super']);
        expect(values(body, 'e')).toEqual(['https://example.org/sparql#ahu1']);
        expect(values(body, 'super')).toEqual(['https://brickschema.org/schema/Brick#HVAC_Equipment']);
      });

      it('knows the Brick and RDF prefixes without PREFIX lines; a query’s own PREFIX wins', async () => {
        const body = await select(
          'SELECT ?e ?label WHERE { ?e a brick:VAV ; rdfs:label ?label . FILTER(isLiteral(?label) && datatype(?label) = xsd:string) }',
        );
        expect(values(body, 'e')).toEqual(['https://example.org/sparql#vav1']);
        const own = await select(
          'PREFIX brick: <https://example.org/sparql#> SELECT ?p WHERE { brick:ahu1 ?p ?o } LIMIT 1',
        );
        expect(own.results.bindings).toHaveLength(1);
      });

      it('answers SELECT as XML, CSV and TSV by Accept', async () => {
        const query =
          'SELECT ?label WHERE { <https://example.org/sparql#vav1> <http://www.w3.org/2000/01/rdf-schema#label> ?label }';
        const xml = await get(query, 'application/sparql-results+xml');
        expect(xml.headers.get('content-type')).toMatch(/^application\/sparql-results\+xml/);
        expect(await xml.text()).toContain('<binding name="label"><literal>VAV, &quot;east&quot;</literal></binding>');
        const csv = await get(query, 'text/csv');
        expect(await csv.text()).toBe('label\r\n"VAV, ""east"""\r\n');
        const tsv = await get(query, 'text/tab-separated-values');
        expect(await tsv.text()).toBe('?label\n"VAV, \\"east\\""\n');
      });

      it('answers ASK, CONSTRUCT (Turtle, N-Triples) and DESCRIBE', async () => {
        const ask = await select('ASK { <https://example.org/sparql#ahu1> ?p ?o }');
        expect(ask.boolean).toBe(true);
        expect((await select('ASK { <https://example.org/sparql#nothing> ?p ?o }')).boolean).toBe(false);
        const construct =
          'CONSTRUCT { ?s <urn:feeds> ?o } WHERE { ?s <https://brickschema.org/schema/Brick#feeds> ?o }';
        const nt = await get(construct, 'application/n-triples');
        expect(nt.headers.get('content-type')).toMatch(/^application\/n-triples/);
        expect(await nt.text()).toBe(
          '<https://example.org/sparql#ahu1> <urn:feeds> <https://example.org/sparql#vav1> .\n',
        );
        const ttl = await get(construct, 'text/turtle');
        expect(ttl.headers.get('content-type')).toMatch(/^text\/turtle/);
        expect(await ttl.text()).toContain('<urn:feeds> <https://example.org/sparql#vav1>');
        const describe = await (await get('DESCRIBE <https://example.org/sparql#t1>', 'application/n-triples')).text();
        expect(describe).toContain('"Zone temp"@en');
      });

      it('takes the query as a form or as an application/sparql-query body', async () => {
        const query = 'SELECT ?e WHERE { ?e a <https://brickschema.org/schema/Brick#VAV> }';
        const form = await h.fetch(path(), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ query }).toString(),
        });
        expect(values(await form.json(), 'e')).toEqual(['https://example.org/sparql#vav1']);
        const direct = await h.fetch(path(), {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-query' },
          body: query,
        });
        expect(values(await direct.json(), 'e')).toEqual(['https://example.org/sparql#vav1']);
      });

      it('says what it cannot answer: 406 for a format the form has not, 400 for bad SPARQL or no query, 415 for other bodies', async () => {
        const notAcceptable = await get('ASK {}', 'text/csv');
        expect(notAcceptable.status).toBe(406);
        const refusal = (await notAcceptable.json()) as Json;
        expect(refusal.supported).toContain('application/sparql-results+xml');
        expect(refusal.detail).toMatch(/^An ASK query answers /);
        await refused(await get('SELEKT * WHERE {}'), 'BAD_USER_INPUT', /not valid SPARQL 1\.1/);
        // Where and what, in one line: not "Parse error on line 1:" cut off at its colon.
        const syntax = await get('SELECT * WHERE {\n  ?s ?p ?o .\n  FILTER(?o > ) }');
        expect(syntax.status).toBe(400);
        const { detail } = (await syntax.json()) as { detail: string };
        expect(detail).toMatch(
          /^The query is not valid SPARQL 1\.1: line 3, column 15: found "\)", expected one of IRIREF, PNAME_NS, \(, INTEGER, VAR, .*, … \(\d+ kinds\)\.$/,
        );
        expect(detail.length).toBeLessThan(300);
        expect(((await (await get('SELECT * WHERE { ?s ?p ?o ')).json()) as Json).detail).toMatch(
          /line 1, column 27: found the end of the query, expected one of/,
        );
        const missing = await h.fetch(path());
        expect(missing.status).toBe(400);
        expect(((await missing.json()) as Json).query[0]).toMatch(/SPARQL query is required/);
        const json = await h.fetch(path(), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(json.status).toBe(415);
      });
    });

    describe('hostile queries', () => {
      it('refuses another site’s graph by name, in GRAPH and inside FILTER EXISTS', async () => {
        await refused(
          await get(`SELECT * WHERE { GRAPH <${OTHER_GRAPH}> { ?s ?p ?o } }`),
          'BAD_USER_INPUT',
          /GRAPH <urn:bkg:site:sparql-other> is refused/,
        );
        await refused(
          await get(`SELECT * WHERE { ?s ?p ?o FILTER EXISTS { GRAPH <${OTHER_GRAPH}> { ?s ?p ?o } } }`),
          'BAD_USER_INPUT',
          /is refused/,
        );
      });

      it('confines GRAPH ?g to the site graph and the ontology', async () => {
        const body = await select('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
        expect(values(body, 'g')).toEqual([ONTOLOGY, OWN_GRAPH].sort());
        const secret = await select('ASK { GRAPH ?g { ?s ?p "Other site\'s secret" } }');
        expect(secret.boolean).toBe(false);
      });

      it('reads only the site graph and the ontology without FROM', async () => {
        expect((await select('ASK { ?s ?p "Other site\'s secret" }')).boolean).toBe(false);
        expect((await select('ASK { ?s ?p "AHU 1" }')).boolean).toBe(true);
      });

      it('refuses FROM and FROM NAMED naming another graph, and protocol dataset parameters', async () => {
        await refused(
          await get(`SELECT * FROM <${OTHER_GRAPH}> WHERE { ?s ?p ?o }`),
          'BAD_USER_INPUT',
          /FROM <urn:bkg:site:sparql-other> is refused/,
        );
        await refused(
          await get(`SELECT * FROM NAMED <${OTHER_GRAPH}> WHERE { GRAPH ?g { ?s ?p ?o } }`),
          'BAD_USER_INPUT',
          /is refused/,
        );
        await refused(
          await get('SELECT * FROM <http://127.0.0.1:9/remote.ttl> WHERE { ?s ?p ?o }'),
          'BAD_USER_INPUT',
          /is refused/,
        );
        const dataset = await h.fetch(
          `${path()}?${new URLSearchParams({ query: 'ASK {}', 'default-graph-uri': OTHER_GRAPH })}`,
        );
        expect(dataset.status).toBe(400);
        expect(((await dataset.json()) as Json)['default-graph-uri'][0]).toMatch(/dataset is fixed/);
      });

      it('keeps a FROM within the site: the site graph alone', async () => {
        const body = await select(`SELECT (COUNT(*) AS ?n) FROM <${OWN_GRAPH}> WHERE { ?s ?p ?o }`);
        expect(Number(body.results.bindings[0].n.value)).toBe(8);
      });

      it('refuses SERVICE, extension functions, and every update (INSERT, LOAD, DROP), leaving the other site as it was', async () => {
        await refused(
          await get('SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }'),
          'BAD_USER_INPUT',
          /SERVICE is refused/,
        );
        await refused(
          await get('SELECT (<bif:http_get>("http://127.0.0.1:9/") AS ?x) WHERE {}'),
          'BAD_USER_INPUT',
          /function <bif:http_get> is refused/,
        );
        for (const update of [
          `INSERT DATA { GRAPH <${OTHER_GRAPH}> { <urn:x> <urn:y> <urn:z> } }`,
          `LOAD <http://127.0.0.1:9/x.ttl> INTO GRAPH <${OWN_GRAPH}>`,
          `DROP GRAPH <${OTHER_GRAPH}>`,
        ]) {
          await refused(await get(update), 'BAD_USER_INPUT', /read-only/);
        }
        const form = await h.fetch(path(), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ update: `DROP GRAPH <${OTHER_GRAPH}>` }).toString(),
        });
        expect(form.status).toBe(400);
        const direct = await h.fetch(path(), {
          method: 'POST',
          headers: { 'content-type': 'application/sparql-update' },
          body: `DROP GRAPH <${OTHER_GRAPH}>`,
        });
        await refused(direct, 'BAD_USER_INPUT', /read-only/);
        const other = await h.fetch(`/api/v1/sites/${OTHER}/graph`, { headers: { accept: 'application/n-triples' } });
        expect(await other.text()).toContain('"Other site\'s secret"');
      });

      it('stops a cartesian explosion at the result cap', async () => {
        await refused(
          await get('SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }'),
          'QUERY_TOO_COMPLEX',
          new RegExp(`more than ${MAX_RESULTS} rows`),
        );
        await refused(
          await get('CONSTRUCT { ?a <urn:p> ?d } WHERE { ?a ?b ?c . ?d ?e ?f }', 'application/n-triples'),
          'QUERY_TOO_COMPLEX',
          /more than 500 triples/,
        );
        // Triples are deduplicated: one triple from every solution is still over the cap, not cut at the LIMIT.
        await refused(
          await get('CONSTRUCT { <urn:a> <urn:p> <urn:b> } WHERE { ?a ?b ?c . ?d ?e ?f }', 'application/n-triples'),
          'QUERY_TOO_COMPLEX',
          /more than 500 solutions/,
        );
        // Within the cap with a LIMIT of the client's own.
        expect((await select('SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } LIMIT 20')).results.bindings).toHaveLength(20);
        const few = await get(
          'CONSTRUCT { ?a <urn:p> ?d } WHERE { ?a ?b ?c . ?d ?e ?f } LIMIT 30',
          'application/n-triples',
        );
        expect(few.status).toBe(200);
        expect((await few.text()).trim().split('\n').length).toBeLessThanOrEqual(30);
      });

      it('stops a cartesian explosion at the deadline, and answers the next query', async () => {
        const started = performance.now();
        await refused(await get(EXPLOSION), 'QUERY_TOO_COMPLEX', new RegExp(`longer than ${timeoutMs} ms`));
        expect(performance.now() - started).toBeLessThan(timeoutMs + 5000);
        expect((await select('ASK { ?s ?p "AHU 1" }')).boolean).toBe(true);
      });
    });

    describe.skipIf(storeEnv !== EMBEDDED)('access, the same on every store (only on the embedded store)', () => {
      const ask = (site: string) =>
        `/api/v1/sites/${site}/sparql?${new URLSearchParams({ query: 'ASK { ?s ?p ?o }' })}`;

      it('follows tenancy: a key reads its sites, other sites are 404, anonymous callers read the demo site', async () => {
        const key = (await createKey(h, { name: 'own reader', sites: [OWN] })).key;
        expect((await fetchAs(h, key)(ask(OWN))).status).toBe(200);
        expect((await fetchAs(h, key)(ask(OTHER))).status).toBe(404);
        expect((await fetchAs(h, key)(ask('nowhere'))).status).toBe(404);
        const anonymous = fetchAs(h, null);
        const demo = await anonymous(ask('demo'));
        expect(demo.status).toBe(200);
        // The rate limits of every other endpoint, per client.
        expect(demo.headers.get('ratelimit-policy')).toMatch(/^1000000;/);
        expect((await anonymous(ask(OWN))).status).toBe(404);
        expect((await fetchAs(h, 'bkg_not_a_key')(ask('demo'))).status).toBe(401);
      });

      it('keeps answering GraphQL while a client query runs to its deadline', async () => {
        const long = get(EXPLOSION);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const started = performance.now();
        const answer = await h.graphql(`{ equipment(siteId: "${OWN}", is: "AHU") { name } }`);
        expect(answer.data.equipment).toEqual([{ name: 'AHU 1' }]);
        expect(performance.now() - started).toBeLessThan(1000);
        expect((await long).status).toBe(400);
      });
    });
  });
}
