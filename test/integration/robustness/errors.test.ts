// Error behaviour beyond test/integration/graphql/errors.test.ts: a triplestore that is down, how
// unexpected errors are masked (and shown in development), the query limits (depth, aliases, cost,
// tokens) and their configuration, and the code of GraphQL validation errors (docs/errors.md:
// one error type with a code; unexpected errors masked in production).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type GraphQLResult, type Harness } from '../../support/harness.ts';

const equipment = readFileSync(new URL('../../../fixtures/small/equipment.ttl', import.meta.url), 'utf8');

const TIGHT = {
  BKG_GRAPHQL_MAX_DEPTH: '4',
  BKG_GRAPHQL_MAX_ALIASES: '3',
  BKG_GRAPHQL_MAX_COST: '60',
  BKG_GRAPHQL_MAX_TOKENS: '200',
};

let production: Harness;
let development: Harness;
let tight: Harness;
let down: Harness;

beforeAll(async () => {
  [production, development, tight, down] = await Promise.all([
    createHarness({ sites: { eq: equipment }, env: { NODE_ENV: 'production' } }),
    createHarness({ sites: { eq: equipment }, env: { NODE_ENV: 'development' } }),
    createHarness({ sites: { eq: equipment }, env: TIGHT }),
    createHarness({ sites: { eq: equipment } }),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all([production, development, tight, down].map((h) => h?.close()));
});

/** The first error of a response, failing when there is none. */
function firstError(res: GraphQLResult) {
  expect(res.errors?.length, JSON.stringify(res.data)).toBeGreaterThan(0);
  return res.errors![0]!;
}

/** `{ equipment(siteId: "eq") { parts { parts { … { id } } } } }` with `levels` levels of parts. */
const nestedParts = (levels: number) =>
  `{ equipment(siteId: "eq") { ${'parts { '.repeat(levels)}id${' }'.repeat(levels)} } }`;
/** One equipment field with `count` aliased ids. */
const aliasedIds = (count: number) =>
  `{ equipment(siteId: "eq") { ${Array.from({ length: count }, (_, i) => `a${i}: id`).join(' ')} } }`;
/** One equipment field selecting `id` `count` times (no aliases): many tokens, little else. */
const repeatedIds = (count: number) => `{ equipment(siteId: "eq") { ${'id '.repeat(count)}} }`;
/** A wide selection nested `levels` deep: costly by the cost rule's measure, within the other limits. */
const wide = (levels: number): string => {
  const fields =
    'uri id name type typeHierarchy ifcId properties { name value unit } location { id name type uri } partOf { id name type uri } points { id name type unit } systems { id name }';
  let selection = fields;
  for (let i = 0; i < levels; i++) selection = `${fields} parts { ${selection} }`;
  return `{ equipment(siteId: "eq") { ${selection} } }`;
};

describe('a triplestore that is down', () => {
  it('is ready while the store answers', async () => {
    const res = await down.fetch('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', engines: { graph: 'ok' } });
  });

  describe('after the store stops', () => {
    beforeAll(async () => {
      await down.services.store.close();
    });

    it('answers a query with SERVICE_UNAVAILABLE and no internals', async () => {
      const res = await down.graphql('{ equipment(siteId: "eq") { id } }');
      const error = firstError(res);
      expect(error.extensions?.code).toBe('SERVICE_UNAVAILABLE');
      expect(error.message).not.toMatch(/\n\s+at |worker|\.ts:/);
    });

    it('answers every root query with SERVICE_UNAVAILABLE', async () => {
      for (const query of [
        '{ building(siteId: "eq") { id } }',
        '{ point(siteId: "eq") { id } }',
        '{ location(siteId: "eq", locationId: "Plant") { id } }',
        '{ entityByIfcId(siteId: "eq", ifcId: "1xS3BCk291UvhgP2dvNMQJ") { __typename } }',
      ]) {
        expect(firstError(await down.graphql(query)).extensions?.code, query).toBe('SERVICE_UNAVAILABLE');
      }
    });

    it('reports /readyz as 503 with the graph engine unavailable', async () => {
      const res = await down.fetch('/readyz');
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'unavailable', engines: { graph: 'unavailable' } });
    });

    it('still reports /healthz as alive', async () => {
      const res = await down.fetch('/healthz');
      expect(res.status).toBe(200);
    });
  });
});

describe('unexpected errors', () => {
  const SECRET = 'engine exploded reading /var/lib/bkg/graphs/4f3a.nq with password hunter2';

  /** Runs `query` on `h` while its store fails with an error the service does not expect. */
  async function withBrokenStore(h: Harness, query: string): Promise<GraphQLResult> {
    const store = h.services.store;
    const select = store.select;
    store.select = async () => {
      throw new TypeError(SECRET);
    };
    try {
      return await h.graphql(query);
    } finally {
      store.select = select;
    }
  }

  it('are masked as INTERNAL_SERVER_ERROR in production, with nothing of the cause in the response', async () => {
    const res = await withBrokenStore(production, '{ equipment(siteId: "eq") { id } }');
    const error = firstError(res);
    expect(error.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(error.path).toEqual(['equipment']);
    const body = JSON.stringify(res);
    for (const leak of ['exploded', '/var/lib', 'hunter2', 'TypeError', 'stack', '.ts:'])
      expect(body).not.toContain(leak);
  });

  it('are masked as INTERNAL_SERVER_ERROR with the default (test) environment too', async () => {
    const res = await withBrokenStore(tight, '{ equipment(siteId: "eq") { id } }');
    expect(firstError(res).extensions?.code).toBe('INTERNAL_SERVER_ERROR');
    expect(JSON.stringify(res)).not.toContain('exploded');
  });

  it('are shown in development', async () => {
    const res = await withBrokenStore(development, '{ equipment(siteId: "eq") { id } }');
    expect(firstError(res).message).toContain(SECRET);
  });

  it('leave the service answering afterwards', async () => {
    const res = await production.graphql('{ equipment(siteId: "eq", is: "AHU") { id } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.equipment.length).toBeGreaterThan(0);
  });
});

describe('query limits', () => {
  /** Expects `res` to be refused as QUERY_TOO_COMPLEX with a message matching `message`. */
  function tooComplex(res: GraphQLResult, message: RegExp): void {
    expect(res.data ?? undefined).toBeUndefined();
    const error = firstError(res);
    expect(error.message).toMatch(message);
    // Over a limit is not a syntax error: the message does not say it is.
    expect(error.message).not.toMatch(/syntax/i);
    expect(error.extensions?.code).toBe('QUERY_TOO_COMPLEX');
  }

  describe('with the default limits (depth 12, 30 aliases, cost 5000, 2000 tokens)', () => {
    it.each([
      ['depth 10', nestedParts(8)],
      ['30 aliases', aliasedIds(30)],
      ['about 400 tokens', repeatedIds(400)],
      ['a cost under 5000', wide(4)],
    ])('runs a query within them (%s)', async (_what, query) => {
      const res = await production.graphql(query);
      expect(res.errors).toBeUndefined();
      expect(res.data.equipment.length).toBeGreaterThan(0);
    });

    it.each([
      ['nested too deep', nestedParts(14), /depth.*\b12\b/i],
      ['with too many aliases', aliasedIds(31), /alias.*\b30\b/i],
      ['that costs too much', wide(9), /cost.*\b5000\b/i],
      ['with too many tokens', repeatedIds(2100), /token.*\b2000\b/i],
    ])('refuses a query %s, saying so', async (_what, query, message) => {
      tooComplex(await production.graphql(query), message);
    });

    it('runs no triplestore query for a refused request', async () => {
      production.resetRoundTrips();
      for (const query of [nestedParts(14), aliasedIds(31), wide(9), repeatedIds(2100)])
        await production.graphql(query);
      expect(production.roundTrips()).toBe(0);
    });
  });

  describe('configured through the environment (depth 4, 3 aliases, cost 60, 200 tokens)', () => {
    it.each([
      ['nested too deep', nestedParts(5), /depth.*\b4\b/i],
      ['with too many aliases', aliasedIds(4), /alias.*\b3\b/i],
      ['that costs too much', wide(0), /cost.*\b60\b/i],
      ['with too many tokens', repeatedIds(250), /token.*\b200\b/i],
    ])('refuses a query %s that the defaults allow, naming the configured limit', async (_what, query, message) => {
      expect((await production.graphql(query)).errors).toBeUndefined();
      tooComplex(await tight.graphql(query), message);
    });

    it('runs a query within them', async () => {
      const res = await tight.graphql(aliasedIds(3));
      expect(res.errors).toBeUndefined();
      expect(res.data.equipment.length).toBeGreaterThan(0);
    });
  });
});

describe('GraphQL validation errors have code GRAPHQL_VALIDATION_FAILED', () => {
  it.each([
    ['an unknown field', '{ equipment(siteId: "eq") { nope } }', /nope/],
    ['an unknown argument', '{ equipment(siteId: "eq", colour: "red") { id } }', /colour/],
    [
      'a value not in the NameMatch enum',
      '{ equipment(siteId: "eq", name: "a", nameMatch: FOO) { id } }',
      /FOO|NameMatch/,
    ],
    ['a missing siteId', '{ equipment { id } }', /siteId/],
    ['an argument of the wrong type', '{ equipment(siteId: 42) { id } }', /String|42/],
    ['a selection missing on an object field', '{ equipment(siteId: "eq") }', /selection/i],
    ['an unknown type in a fragment', '{ entityByIfcId(siteId: "eq", ifcId: "x") { ... on Robot { id } } }', /Robot/],
  ])('%s', async (_what, query, message) => {
    const res = await production.graphql(query);
    expect(res.data ?? undefined).toBeUndefined();
    const error = firstError(res);
    expect(error.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(error.message).toMatch(message);
  });
});

describe('a GraphQL request in a body GraphQL does not read', () => {
  it('answers 415 with a GraphQL error saying to send JSON, for text/plain and XML', async () => {
    for (const type of ['text/plain', 'application/xml']) {
      const res = await production.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': type },
        body: '{ building(siteId: "eq") { name } }',
      });
      expect(res.status).toBe(415);
      const body = await res.json();
      expect(body.errors[0]).toMatchObject({
        message: expect.stringContaining('application/json'),
        extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' },
      });
    }
    // JSON, and GraphQL's own body type, are still read.
    const json = await production.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ building(siteId: "eq") { name } }' }),
    });
    expect(json.status).toBe(200);
  });
});
