// Graph uploads nested past what Oxigraph's parsers hold (#16): a 10 KB JSON-LD document 1,000
// objects deep trapped the embedded store, and every GraphQL query of every site failed until a
// restart; the validator trapped the same way. The nesting is now counted as the body arrives
// (src/store/rdf-nesting.ts): such an upload is a 400 naming the limit, nothing parses it, and
// another site's GraphQL and SPARQL queries answer as before, during the attack and after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, exportTriples, fetchAs, type Fetch } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { RDF_NESTING_LIMIT } from '../../../src/store/rdf-nesting.ts';
import { INNOCENT_TTL, duringAttack, innocentQueries } from './hostile-support.ts';

/** `{"@id": "urn:a", "urn:p": {"urn:p": … }}`, `depth` objects deep (1,000: 10 KB). */
const jsonLd = (depth: number) => `{"@id": "urn:a", ${'"urn:p": {'.repeat(depth - 1)}"urn:p": "x"${'}'.repeat(depth)}`;
const propertyLists = (depth: number) => `<urn:a> <urn:p> ${'[ <urn:p> '.repeat(depth)}"x"${' ]'.repeat(depth)} .\n`;
const collections = (depth: number) => `<urn:a> <urn:p> ${'( '.repeat(depth)}"x"${' )'.repeat(depth)} .\n`;
const tripleTerms = (depth: number) =>
  `<urn:a> <urn:p> ${'<<( <urn:s> <urn:p> '.repeat(depth)}"x"${' )>>'.repeat(depth)} .\n`;

type Json = any;

describe('graph uploads nested past the limit', () => {
  let h: Harness;
  let writer: Fetch;
  let reader: Fetch;
  let before: string[];

  const upload = async (
    as: Fetch,
    path: string,
    type: string,
    body: string,
    method = 'PUT',
  ): Promise<{ status: number; body: Json }> => {
    const res = await as(`/api/v1/sites/attacker/${path}`, { method, headers: { 'content-type': type }, body });
    return { status: res.status, body: await res.json() };
  };
  const refusedFor = (syntax: string) => ({
    status: 400,
    body: {
      code: 'BAD_USER_INPUT',
      limit: RDF_NESTING_LIMIT,
      detail: expect.stringContaining(`${syntax} nesting deeper than ${RDF_NESTING_LIMIT} levels`),
    },
  });

  beforeAll(async () => {
    h = await createHarness({ sites: { attacker: INNOCENT_TTL, innocent: INNOCENT_TTL } });
    writer = fetchAs(h, (await createKey(h, { sites: ['attacker'], write: true })).key);
    reader = fetchAs(h, (await createKey(h, { sites: ['attacker'] })).key);
    before = await exportTriples(h, 'attacker');
    // Warm: each site's profile is read by its first query.
    await innocentQueries(h, 'innocent');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('refuses the 1,000-deep JSON-LD load with a 400 naming the limit, while another site’s queries answer', async () => {
    for (const method of ['PUT', 'POST']) {
      const { attack } = await duringAttack(
        () => upload(writer, 'graph', 'application/ld+json', jsonLd(1000), method),
        () => innocentQueries(h, 'innocent'),
      );
      expect(attack).toMatchObject(refusedFor('JSON-LD'));
      expect(attack.body.detail).toBe(
        `The application/ld+json body is refused: JSON-LD nesting deeper than ${RDF_NESTING_LIMIT} levels of { } or [ ] at line 1 column ${17 + RDF_NESTING_LIMIT * 10}.`,
      );
    }
    await innocentQueries(h, 'innocent');
    expect(await exportTriples(h, 'attacker')).toEqual(before);
  });

  it('refuses deep Turtle property lists, collections and triple terms, and N-Triples triple terms', async () => {
    const attacks = [
      ['text/turtle', propertyLists(1000), 'Turtle'],
      ['text/turtle', collections(100_000), 'Turtle'],
      // Oxigraph traps at about 3,100 nested triple terms.
      ['text/turtle', tripleTerms(5000), 'Turtle'],
      ['application/n-triples', tripleTerms(5000), 'N-Triples'],
    ] as const;
    for (const [type, body, syntax] of attacks) {
      const { attack } = await duringAttack(
        () => upload(writer, 'graph', type, body),
        () => innocentQueries(h, 'innocent'),
      );
      expect(attack, `${syntax} ${body.slice(16, 40)}…`).toMatchObject(refusedFor(syntax));
    }
    expect(await exportTriples(h, 'attacker')).toEqual(before);
  });

  it('refuses the deep JSON-LD to the validator, read key or load with ?validate=1, and validates another model after', async () => {
    const { attack } = await duringAttack(
      () => upload(reader, 'graph/validate', 'application/ld+json', jsonLd(1000), 'POST'),
      () => innocentQueries(h, 'innocent'),
    );
    expect(attack).toMatchObject(refusedFor('JSON-LD'));
    expect(await upload(writer, 'graph?validate=1', 'application/ld+json', jsonLd(1000))).toMatchObject(
      refusedFor('JSON-LD'),
    );
    expect(await upload(reader, 'graph/validate', 'text/turtle', tripleTerms(5000), 'POST')).toMatchObject(
      refusedFor('Turtle'),
    );
    const report = await upload(reader, 'graph/validate', 'text/turtle', INNOCENT_TTL, 'POST');
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect(report.body.summary).toMatchObject({ violations: 0 });
  });

  it('finds the nesting past the first megabytes of an upload, and names its line', async () => {
    const flat = '<urn:a> <urn:p> "a flat line [ ( {" .\n'.repeat(100_000);
    const { attack } = await duringAttack(
      () => upload(writer, 'graph', 'text/turtle', `${flat}${tripleTerms(5000)}`),
      () => innocentQueries(h, 'innocent'),
    );
    expect(attack).toMatchObject({ ...refusedFor('Turtle'), body: { ...refusedFor('Turtle').body, line: 100_001 } });
    expect(await exportTriples(h, 'attacker')).toEqual(before);
  });

  it(`loads models nested ${RDF_NESTING_LIMIT} levels deep, and brackets in strings do not count`, async () => {
    expect(await upload(writer, 'graph', 'application/ld+json', jsonLd(RDF_NESTING_LIMIT))).toMatchObject({
      status: 200,
      body: { triples: RDF_NESTING_LIMIT },
    });
    expect(await upload(writer, 'graph', 'text/turtle', propertyLists(RDF_NESTING_LIMIT))).toMatchObject({
      status: 200,
      body: { triples: RDF_NESTING_LIMIT + 1 },
    });
    const brackets = `<urn:a> <urn:p> "${'[ ( {'.repeat(10_000)}", """${'<<( '.repeat(10_000)}""" .\n`;
    expect(await upload(writer, 'graph', 'text/turtle', brackets)).toMatchObject({ status: 200, body: { triples: 2 } });
    await innocentQueries(h, 'innocent');
  });
});
