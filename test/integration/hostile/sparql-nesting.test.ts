// SPARQL queries nested past what sparqljs and Oxigraph hold (#16): one anonymous query of 700
// nested groups on the demo site trapped Oxigraph and disabled the endpoint for everyone; at
// 1,000+ the confinement overflowed the JS stack (500). Flat lists trap it too, folded into nested
// operators: a thousand OPTIONALs or UNION branches. Both are now refused before anything recursive
// reads them (src/sparql-endpoint/query-nesting.ts): a 400 naming the limit, and another site's
// GraphQL and SPARQL queries answer as before, during the attack and after it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAs, type Fetch } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { QUERY_DEPTH_LIMIT, QUERY_NESTING_LIMIT } from '../../../src/sparql-endpoint/query-nesting.ts';
import { INNOCENT_TTL, duringAttack, innocentQueries } from './hostile-support.ts';

const DEMO_TTL = readFileSync(new URL('../../../fixtures/demo.ttl', import.meta.url), 'utf8');
const accept = 'application/sparql-results+json';

const groups = (depth: number) => `SELECT * WHERE {${'{'.repeat(depth)} ?s ?p ?o ${'}'.repeat(depth)}} LIMIT 1`;
const list = (n: number, item: (i: number) => string, separator = ' ') =>
  Array.from({ length: n }, (_, i) => item(i)).join(separator);

type Json = any;

describe('SPARQL queries nested past the limits', () => {
  let h: Harness;
  let anonymous: Fetch;

  const get = async (query: string): Promise<{ status: number; body: Json }> => {
    const res = await anonymous(`/api/v1/sites/demo/sparql?${new URLSearchParams({ query })}`, { headers: { accept } });
    return { status: res.status, body: await res.json() };
  };
  // Long queries go in the body: a URL holds at most 16 KB.
  const post = async (query: string): Promise<{ status: number; body: Json }> => {
    const res = await anonymous('/api/v1/sites/demo/sparql', {
      method: 'POST',
      headers: { accept, 'content-type': 'application/sparql-query' },
      body: query,
    });
    return { status: res.status, body: await res.json() };
  };
  const tooDeep = {
    status: 400,
    body: {
      code: 'QUERY_TOO_COMPLEX',
      detail: expect.stringContaining(`SPARQL nesting deeper than ${QUERY_NESTING_LIMIT} levels`),
    },
  };
  const tooDeepParsed = {
    status: 400,
    body: {
      code: 'QUERY_TOO_COMPLEX',
      detail: expect.stringContaining(`nests deeper than ${QUERY_DEPTH_LIMIT} levels once parsed`),
    },
  };

  beforeAll(async () => {
    h = await createHarness({ sites: { demo: DEMO_TTL, innocent: INNOCENT_TTL } });
    anonymous = fetchAs(h, null);
    // Warm: each site's profile is read by its first query.
    await innocentQueries(h, 'innocent');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses the anonymous 700-deep query on the demo site with a 400 naming the limit, while another site’s queries answer', async () => {
    const { attack } = await duringAttack(
      () => get(groups(700)),
      () => innocentQueries(h, 'innocent'),
    );
    expect(attack).toMatchObject(tooDeep);
    expect(attack.body.detail).toBe(
      `SPARQL nesting deeper than ${QUERY_NESTING_LIMIT} levels of ( ), [ ], { } or << >> at line 1 column ${16 + QUERY_NESTING_LIMIT}: the endpoint reads no deeper queries.`,
    );
    await innocentQueries(h, 'innocent');
  });

  it('refuses 5,000 nested groups, parentheses or subqueries with a 400, not a stack overflow', async () => {
    const attacks = [
      groups(5000),
      `SELECT * WHERE { ?s ?p ?o FILTER(${'('.repeat(5000)}true${')'.repeat(5000)}) }`,
      `SELECT * WHERE { ${'{ SELECT * WHERE '.repeat(5000)}{ ?s ?p ?o }${' }'.repeat(5000)} }`,
      `SELECT * WHERE { ?s ${'('.repeat(5000)}<urn:p>${')'.repeat(5000)} ?o }`,
    ];
    for (const query of attacks) {
      const { attack } = await duringAttack(
        () => post(query),
        () => innocentQueries(h, 'innocent'),
      );
      expect(attack, query.slice(0, 40)).toMatchObject(tooDeep);
    }
  });

  it('refuses flat lists Oxigraph nests past its stack: OPTIONALs, UNION branches, IN values, a chain of +', async () => {
    const attacks = {
      optionals: `SELECT * WHERE { ?s ?p ?o ${list(1000, () => 'OPTIONAL { ?s ?p ?o }')} }`,
      unions: `ASK { ${list(1000, () => '{ ?s <urn:p> ?o }', ' UNION ')} }`,
      in: `SELECT * WHERE { ?s ?p ?o FILTER(?o IN (${list(13_000, String, ',')})) }`,
      plus: `SELECT * WHERE { ?s ?p ?o FILTER(1${' + 1'.repeat(20_000)} > 0) }`,
    };
    for (const [name, query] of Object.entries(attacks)) {
      const { attack } = await duringAttack(
        () => post(query),
        () => innocentQueries(h, 'innocent'),
      );
      expect(attack, name).toMatchObject(tooDeepParsed);
    }
  });

  it('still answers the demo site’s own queries, a VALUES block of thousands of rows too', async () => {
    const ahus = await get('SELECT (COUNT(?ahu) AS ?n) WHERE { ?ahu a brick:AHU }');
    expect(ahus.status, JSON.stringify(ahus.body)).toBe(200);
    expect(Number(ahus.body.results.bindings[0].n.value)).toBeGreaterThan(0);
    const values = await post(
      `SELECT ?c WHERE { VALUES ?c { ${list(5000, (i) => `<urn:c${i}>`)} brick:AHU } ?ahu a ?c } LIMIT 1`,
    );
    expect(values.status, JSON.stringify(values.body)).toBe(200);
    expect(values.body.results.bindings).toEqual([
      { c: { type: 'uri', value: 'https://brickschema.org/schema/Brick#AHU' } },
    ]);
    await innocentQueries(h, 'innocent');
  });
});
