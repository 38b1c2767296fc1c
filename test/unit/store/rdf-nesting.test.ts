import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RdfSyntaxError, type RdfFormat, type RdfSource } from '../../../src/store/graph-store.ts';
import { parseTriples } from '../../../src/store/rdf-input.ts';
import { RDF_NESTING_LIMIT } from '../../../src/store/rdf-nesting.ts';

const BASE = 'urn:bkg:site:test';

async function count(data: RdfSource, format: RdfFormat): Promise<number> {
  let triples = 0;
  for await (const batch of parseTriples(data, format, BASE)) triples += batch.length;
  return triples;
}

async function refusal(data: RdfSource, format: RdfFormat): Promise<RdfSyntaxError> {
  try {
    await count(data, format);
  } catch (error) {
    return error as RdfSyntaxError;
  }
  throw new Error('the document was not refused');
}

/** `{"@id": "urn:a", "urn:p": {"urn:p": … }}`, `depth` objects deep: one triple per object but the innermost. */
const jsonLd = (depth: number) => `{"@id": "urn:a", ${'"urn:p": {'.repeat(depth - 1)}"urn:p": "x"${'}'.repeat(depth)}`;
const propertyLists = (depth: number) => `<urn:a> <urn:p> ${'[ <urn:p> '.repeat(depth)}"x"${' ]'.repeat(depth)} .\n`;
const collections = (depth: number) => `<urn:a> <urn:p> ${'( '.repeat(depth)}"x"${' )'.repeat(depth)} .\n`;
const tripleTerms = (depth: number) =>
  `<urn:a> <urn:p> ${'<<( <urn:s> <urn:p> '.repeat(depth)}"x"${' )>>'.repeat(depth)} .\n`;

describe('parseTriples and nesting', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-nesting-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`reads documents ${RDF_NESTING_LIMIT} levels deep in every nesting form`, async () => {
    expect(await count(jsonLd(RDF_NESTING_LIMIT), 'application/ld+json')).toBe(RDF_NESTING_LIMIT);
    expect(await count(propertyLists(RDF_NESTING_LIMIT), 'text/turtle')).toBe(RDF_NESTING_LIMIT + 1);
    expect(await count(collections(RDF_NESTING_LIMIT), 'text/turtle')).toBe(2 * RDF_NESTING_LIMIT + 1);
    expect(await count(tripleTerms(RDF_NESTING_LIMIT / 2), 'application/n-triples')).toBe(1);
  });

  it('refuses the 1,000-deep JSON-LD that traps Oxigraph as a syntax error naming the limit, and the parser stays sound', async () => {
    const error = await refusal(jsonLd(1000), 'application/ld+json');
    expect(error).toBeInstanceOf(RdfSyntaxError);
    expect(error.message).toBe(
      `JSON-LD nesting deeper than ${RDF_NESTING_LIMIT} levels of { } or [ ] at line 1 column ${17 + RDF_NESTING_LIMIT * 10}`,
    );
    expect(error).toMatchObject({ line: 1, column: 17 + RDF_NESTING_LIMIT * 10 });
    // Oxigraph never saw it: its instance in this thread still parses.
    expect(await count(jsonLd(3), 'application/ld+json')).toBe(3);
  });

  it('refuses deep Turtle and N-Triples in every nesting form', async () => {
    for (const [document, format] of [
      [propertyLists(RDF_NESTING_LIMIT + 1), 'text/turtle'],
      [collections(100_000), 'text/turtle'],
      [tripleTerms(5000), 'text/turtle'],
      [tripleTerms(5000), 'application/n-triples'],
    ] as const) {
      expect((await refusal(document, format)).message).toMatch(
        new RegExp(`nesting deeper than ${RDF_NESTING_LIMIT} levels`),
      );
    }
  });

  it('refuses a deep part of a file past its first chunks, before the parser reads it', async () => {
    const path = join(dir, 'late.ttl');
    const flat = '<urn:a> <urn:p> "[ ( a flat line" .\n'.repeat(100_000);
    await writeFile(path, `${flat}${tripleTerms(5000)}`);
    const error = await refusal({ path }, 'text/turtle');
    expect(error).toMatchObject({ line: 100_001 });
    expect(error.message).toMatch(/^Turtle nesting deeper than/);
  });

  it('reads a text of several chunks with characters of every width at their edges', async () => {
    // Characters of 1 to 4 bytes: the 1 MiB chunks end next to multi-byte ones.
    const literal = 'é € 𝄞 [ ( '.repeat(97);
    const text = `<urn:a> <urn:p> "${literal}" .\n`.repeat(Math.ceil((3 << 20) / 2000));
    const objects = new Set<string>();
    for await (const batch of parseTriples(text, 'text/turtle', BASE))
      for (const quad of batch) objects.add(quad.object.value);
    expect([...objects]).toEqual([literal]);
  });
});
