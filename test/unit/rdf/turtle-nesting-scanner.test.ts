import { describe, expect, it } from 'vitest';
import { NestingTooDeep } from '../../../src/rdf/nesting-scanner.ts';
import { TurtleNestingScanner } from '../../../src/rdf/turtle-nesting-scanner.ts';

const LIMIT = 8;
const turtle = () => new TurtleNestingScanner('Turtle', LIMIT, false);
const sparql = () => new TurtleNestingScanner('SPARQL', LIMIT, true);

/** What scanning `text` whole throws (undefined when it passes). */
function refusal(text: string, scanner = turtle()): NestingTooDeep | undefined {
  try {
    scanner.scan(text);
    return undefined;
  } catch (error) {
    if (error instanceof NestingTooDeep) return error;
    throw error;
  }
}

/** The same, with the bytes fed in chunks of `size`. */
function chunkedRefusal(text: string, size: number): NestingTooDeep | undefined {
  const bytes = Buffer.from(text);
  const scanner = turtle();
  try {
    for (let i = 0; i < bytes.length; i += size) scanner.push(bytes.subarray(i, i + size));
    return undefined;
  } catch (error) {
    return error as NestingTooDeep;
  }
}

const nested = (depth: number, open = '[ <urn:p> ', close = ' ]') =>
  `<urn:a> <urn:p> ${open.repeat(depth)}<urn:o>${close.repeat(depth)} .\n`;

describe('TurtleNestingScanner', () => {
  it('passes a document exactly at the limit and refuses one a level deeper, naming the limit, line and column', () => {
    expect(refusal(nested(LIMIT))).toBeUndefined();
    const error = refusal(`# a model\n${nested(LIMIT + 1)}`);
    expect(error?.message).toBe(
      `Turtle nesting deeper than ${LIMIT} levels of ( ), [ ], { } or << >> at line 2 column ${17 + LIMIT * 10}`,
    );
    expect(error).toMatchObject({ limit: LIMIT, line: 2, column: 17 + LIMIT * 10 });
  });

  it('counts collections, graphs and triple terms as property lists', () => {
    expect(refusal(nested(LIMIT + 1, '( ', ' )'))).toBeDefined();
    expect(refusal(`${'{ '.repeat(LIMIT + 1)}`)).toBeDefined();
    expect(refusal(nested(LIMIT + 1, '<< <urn:s> <urn:p> ', ' >>'))).toBeDefined();
    expect(refusal(nested(LIMIT / 2, '<<( <urn:s> <urn:p> ', ' )>>'))).toBeUndefined();
    expect(refusal(nested(LIMIT / 2 + 1, '<<( <urn:s> <urn:p> ', ' )>>'))).toBeDefined();
    // An IRI just before `>>` ends at its own `>`.
    expect(refusal(nested(LIMIT, '<<<urn:s> <urn:p> ', '>>'))).toBeUndefined();
  });

  it('counts what closes: many shallow nests in a row pass', () => {
    expect(refusal(nested(LIMIT).repeat(1000))).toBeUndefined();
  });

  it('skips brackets in strings of every form, with their escapes', () => {
    const open = '[ ( { << '.repeat(LIMIT);
    for (const literal of [
      `"${open}"`,
      `'${open}'`,
      `"""${open}\n"" " ${open}"""`,
      `'''${open}\n'' ' ${open}'''`,
      `"a \\" ${open}"`,
      `'a \\' ${open}'`,
      `"""a \\""" ${open}"""`,
    ]) {
      expect(refusal(`<urn:a> <urn:p> ${literal} .\n`), literal).toBeUndefined();
    }
    // An escaped backslash ends nothing: the quote after it closes the string.
    expect(refusal(`<urn:a> <urn:p> "a\\\\" .\n${nested(LIMIT + 1)}`)).toBeDefined();
    // An empty string, then code.
    expect(refusal(`<urn:a> <urn:p> "" .\n${nested(LIMIT + 1)}`)).toBeDefined();
    // A long string ends at its first three closing quotes.
    expect(refusal(`<urn:a> <urn:p> """a""" .\n${nested(LIMIT + 1)}`)).toBeDefined();
  });

  it('skips brackets in IRIs and comments, and an escaped character of a local name', () => {
    expect(refusal(`<urn:a(((((((((((> <urn:p> <urn:[[[[[[[[[[[[[> .\n`)).toBeUndefined();
    expect(refusal(`<urn:a> <urn:p> <urn:o> . # ${'['.repeat(LIMIT + 1)}\n<urn:a> <urn:p> "#" .\n`)).toBeUndefined();
    expect(refusal(`@prefix ex: <urn:ex:> .\nex:a ex:p ex:b${'\\('.repeat(LIMIT + 1)} .\n`)).toBeUndefined();
    // `\'` in a local name starts no string that could hide the brackets after it.
    expect(refusal(`@prefix ex: <urn:ex:> .\nex:a ex:p ex:b\\' ; ex:q ${'[ ex:p '.repeat(LIMIT + 1)}'`)).toBeDefined();
  });

  it('ends a comment at the line end, and counts what follows', () => {
    expect(refusal(`# [ [ [\n${nested(LIMIT + 1)}`)).toBeDefined();
    expect(refusal(`# [ [ [\r${nested(LIMIT + 1)}`)).toBeDefined();
  });

  it('gives the same answer however the document is cut into chunks', () => {
    const tricky = `@prefix ex: <urn:ex:> . # [ (\nex:a ex:p "x [ \\" (" , '''y\n'' [''' , <urn:a[(> , ex:b\\( ;\n ex:q ${'[ ex:p '.repeat(LIMIT - 1)}"""z"""${' ]'.repeat(LIMIT - 1)} .\n`;
    const deep = `${tricky}${nested(LIMIT + 1)}`;
    for (const size of [1, 2, 3, 5, 7, 64]) {
      expect(chunkedRefusal(tricky, size), `chunks of ${size}`).toBeUndefined();
      expect(chunkedRefusal(deep, size)?.message, `chunks of ${size}`).toBe(refusal(deep)?.message);
    }
  });

  it('counts columns in characters, not bytes', () => {
    expect(refusal(`<urn:é> <urn:p> "ü" ; <urn:p> ${'['.repeat(LIMIT + 1)}`)?.column).toBe(30 + LIMIT + 1);
  });

  it('scans a large flat document in linear time', () => {
    const line =
      '<https://example.org/bldg#VAV-1> <https://brickschema.org/schema/Brick#hasPoint> "a [ ( string" . # [ (\n';
    const document = Buffer.from(line.repeat(Math.ceil((64 << 20) / line.length)));
    const started = performance.now();
    const scanner = turtle();
    for (let i = 0; i < document.length; i += 1 << 20) scanner.push(document.subarray(i, i + (1 << 20)));
    // 64 MiB: well under a second alone, a few on a busy machine; a quadratic scan would take days.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('TurtleNestingScanner for SPARQL', () => {
  it('takes `<` for less-than when no IRI follows, and counts the brackets after it', () => {
    expect(
      refusal(`SELECT * WHERE { FILTER(?a < 3 || ${'('.repeat(LIMIT)}?b${')'.repeat(LIMIT)}) }`, sparql()),
    ).toBeDefined();
    // No space: as sparqljs lexes it, `<(((…` is not an IRI (a space or `{` comes before any `>`).
    expect(
      refusal(`SELECT * WHERE { FILTER(?a<${'('.repeat(LIMIT)}?b${')'.repeat(LIMIT)} ) }`, sparql()),
    ).toBeDefined();
    // `#` and quotes after such a `<` are code again: a comment, a string.
    expect(refusal(`SELECT * WHERE { FILTER(?a<'x') ${'{'.repeat(LIMIT)} } # '\n`, sparql())).toBeDefined();
  });

  it('skips an IRIREF as sparqljs lexes it, brackets and `#` inside it', () => {
    expect(refusal(`SELECT * WHERE { ?s <urn:p(((((((((#> ?o FILTER(?a<?b) }`, sparql())).toBeUndefined();
    // `\` is no IRI character in SPARQL: `<a\>` is no IRI, and what follows is counted.
    expect(refusal(`SELECT * WHERE { FILTER(?a <a\\${'('.repeat(LIMIT)}> 1) }`, sparql())).toBeDefined();
  });

  it('rescans at most once: a query of a million `<` that start no IRI is linear', () => {
    const started = performance.now();
    expect(refusal(`ASK { FILTER(${'1<a'.repeat(1_000_000)}) }`, sparql())).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('counts nested groups up to the limit', () => {
    const query = (depth: number) => `SELECT * WHERE ${'{'.repeat(depth)} ?s ?p ?o ${'}'.repeat(depth)}`;
    expect(refusal(query(LIMIT), sparql())).toBeUndefined();
    expect(refusal(query(LIMIT + 1), sparql())?.message).toMatch(
      /^SPARQL nesting deeper than 8 levels .* at line 1 column 24$/,
    );
  });
});
