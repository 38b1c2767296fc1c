import { describe, expect, it } from 'vitest';
import { JsonNestingScanner } from '../../../src/rdf/json-nesting-scanner.ts';
import { NestingTooDeep } from '../../../src/rdf/nesting-scanner.ts';

const LIMIT = 8;

/** What scanning `text` in chunks of `size` bytes throws (undefined when it passes). */
function refusal(text: string, size = Infinity): NestingTooDeep | undefined {
  const bytes = Buffer.from(text);
  const scanner = new JsonNestingScanner('JSON-LD', LIMIT);
  try {
    for (let i = 0; i < bytes.length; i += Math.min(size, bytes.length)) scanner.push(bytes.subarray(i, i + size));
    return undefined;
  } catch (error) {
    if (error instanceof NestingTooDeep) return error;
    throw error;
  }
}

/** `{"@id": "urn:a", "urn:p": {"urn:p": … "x" …}}`, `depth` objects deep. */
const objects = (depth: number) => `{"@id": "urn:a", ${'"urn:p": {'.repeat(depth - 1)}"urn:p": "x"${'}'.repeat(depth)}`;

describe('JsonNestingScanner', () => {
  it('passes a document exactly at the limit and refuses one a level deeper, naming the limit, line and column', () => {
    expect(refusal(objects(LIMIT))).toBeUndefined();
    const error = refusal(`\n${objects(LIMIT + 1)}`);
    expect(error?.message).toBe(
      `JSON-LD nesting deeper than ${LIMIT} levels of { } or [ ] at line 2 column ${17 + LIMIT * 10}`,
    );
    expect(error).toMatchObject({ limit: LIMIT, line: 2, column: 17 + LIMIT * 10 });
  });

  it('counts arrays and objects alike, and what closes', () => {
    expect(refusal(`${'['.repeat(LIMIT)}1${']'.repeat(LIMIT)}`)).toBeUndefined();
    expect(refusal(`${'[{"@list": '.repeat(LIMIT / 2)}1${'}]'.repeat(LIMIT / 2)}`)).toBeUndefined();
    expect(refusal(`${'[{"@list": '.repeat(LIMIT / 2)}[1]${'}]'.repeat(LIMIT / 2)}`)).toBeDefined();
    expect(refusal(`[${objects(LIMIT - 1)},${objects(LIMIT - 1)}]`.repeat(100))).toBeUndefined();
  });

  it('skips brackets in strings, with escaped quotes and backslashes', () => {
    const open = '{['.repeat(LIMIT);
    expect(refusal(`{"urn:p": "${open}", "${open}": "a \\" ${open}"}`)).toBeUndefined();
    // An escaped backslash ends nothing: the quote after it closes the string.
    expect(refusal(`["a\\\\", ${'['.repeat(LIMIT)}]`)).toBeDefined();
    expect(refusal(`["\\u005b\\"", ${'['.repeat(LIMIT - 1)}]`)).toBeUndefined();
  });

  it('gives the same answer however the document is cut into chunks', () => {
    const tricky = `{"@context": {"ex": "urn:ex:"}, "ex:p": ["[{\\"", "é{", ${objects(LIMIT - 2)}]}`;
    const deep = `[${tricky}, ${objects(LIMIT)}]`;
    for (const size of [1, 2, 3, 5, 64]) {
      expect(refusal(tricky, size), `chunks of ${size}`).toBeUndefined();
      expect(refusal(deep, size)?.message, `chunks of ${size}`).toBe(refusal(deep)?.message);
    }
  });

  it('scans a large flat document in linear time', () => {
    const item = '{"@id": "urn:x:1", "urn:p": [{"@value": "a \\"[{\\" string", "@type": "urn:t"}]},\n';
    const document = Buffer.from(`[${item.repeat(Math.ceil((64 << 20) / item.length))}{}]`);
    const started = performance.now();
    const scanner = new JsonNestingScanner('JSON-LD', LIMIT);
    for (let i = 0; i < document.length; i += 1 << 20) scanner.push(document.subarray(i, i + (1 << 20)));
    // 64 MiB: well under a second alone, a few on a busy machine; a quadratic scan would take days.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
