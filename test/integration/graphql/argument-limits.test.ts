// Text filters longer than any name or IRI a building has are refused before anything is planned
// or sent to the store (docs/security.md, "Input, subscriptions, CORS and quotas"): a 5 MB name
// once cost a large site the whole request deadline, whether it came as a literal or a variable.
import { describe, expect, it } from 'vitest';
import { FILTER_TEXT_LIMITS } from '../../../src/compiler/filter-text-limits.ts';
import { generateBuilding } from '../../support/generated-building.ts';
import { graphqlSuite } from '../../support/graphql-suite.ts';
import { onEmbeddedStore } from '../../support/harness.ts';

const FIVE_MB = 'a'.repeat(5 * 1024 * 1024);
const NAME_LIMIT = FILTER_TEXT_LIMITS.name;

// A large site is what a refused filter must not cost, and the refusals come before any store: the
// embedded store's run shows it. On the other stores (the same suite again) the site only has to
// answer at the limit (with 300 floors the file took 14-22 s on Comunica).
const { harness } = graphqlSuite({ big: generateBuilding(onEmbeddedStore() ? 300 : 20) });

/** Posts a GraphQL request; its HTTP status, its body, and how long it took in ms. */
async function timed(query: string, variables: Record<string, unknown> = {}) {
  const started = performance.now();
  const response = await harness().fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as {
    data?: unknown;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  };
  return { status: response.status, body, ms: performance.now() - started };
}

describe('a text filter longer than its limit', () => {
  it.each([
    ['a variable', 'query($n: String) { equipment(siteId: "big", name: $n) { id } }', { n: FIVE_MB }],
    ['a literal', `{ equipment(siteId: "big", name: "${FIVE_MB}") { id } }`, {}],
  ])('a 5 MB name as %s is refused at once, naming the argument and the limit', async (_as, query, variables) => {
    const { status, body, ms } = await timed(query, variables);
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'name',
      maxLength: NAME_LIMIT,
    });
    expect(body.errors?.[0]?.message).toContain('"name"');
    expect(body.errors?.[0]?.message).toContain(NAME_LIMIT.toLocaleString('en'));
    expect(ms).toBeLessThan(2000);
  });

  it('is refused in a nested field and a fragment as well, one character past the limit', async () => {
    const over = 'a'.repeat(NAME_LIMIT + 1);
    const query = `query($n: String) { building(siteId: "big") { ...F } } fragment F on Building { equipment(recursive: true, name: $n) { id } }`;
    const { status, body } = await timed(query, { n: over });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'name' });
  });

  it('one document is judged by each request’s variables: within, past, then within the limit again', async () => {
    // A document's filter arguments are found once (the parse is cached): the values are each request's.
    const query = 'query($n: String) { equipment(siteId: "big", name: $n) { id } }';
    for (const [n, status] of [
      ['VAV', 200],
      ['a'.repeat(NAME_LIMIT + 1), 400],
      ['AHU', 200],
    ] as const) {
      const answer = await timed(query, { n });
      expect(answer.status, `${n.length} characters`).toBe(status);
      if (status === 400) expect(answer.body.errors?.[0]?.extensions).toMatchObject({ argument: 'name' });
      else expect(answer.body.errors).toBeUndefined();
    }
  });

  it('an IRI argument past its own limit is refused, naming it', async () => {
    const iri = `https://example.org/f#${'x'.repeat(FILTER_TEXT_LIMITS.is)}`;
    const { status, body } = await timed('query($c: String) { point(siteId: "big", equipmentIs: $c) { id } }', {
      c: iri,
    });
    expect(status).toBe(400);
    expect(body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'equipmentIs',
      maxLength: FILTER_TEXT_LIMITS.is,
    });
  });
});

describe('a text filter at its limit', () => {
  it('a name of exactly the limit still answers', async () => {
    const { status, body } = await timed('query($n: String) { equipment(siteId: "big", name: $n) { id } }', {
      n: 'a'.repeat(NAME_LIMIT),
    });
    expect(body.errors).toBeUndefined();
    expect(status).toBe(200);
    expect(body.data).toEqual({ equipment: [] });
  });

  it('and a name that matches is found as before', async () => {
    const { body } = await timed('{ equipment(siteId: "big", name: "VAV 12a") { id } }');
    expect(body.data).toEqual({ equipment: [{ id: 'V12a' }] });
  });
});
