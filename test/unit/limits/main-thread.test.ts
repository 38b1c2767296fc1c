// Work in slices of the main thread (src/limits/main-thread.ts, json-in-slices.ts): the results
// are the ones the work done at once gives, and other work runs between the slices.
import { describe, expect, it } from 'vitest';
import { isSmall, jsonInSlices } from '../../../src/limits/json-in-slices.ts';
import { sortInSlices } from '../../../src/limits/main-thread.ts';

const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/** A value with big lists at several depths, and what JSON.stringify leaves out or writes as null. */
function answer(n: number) {
  const point = (i: number) => ({
    id: `p${i}`,
    name: `Point "${i}" \u00e9\u{1F600}`,
    unit: i % 3 ? 'DEG_C' : null,
    skipped: undefined,
    n: i / 7,
    ok: i % 2 === 0,
  });
  return {
    data: {
      point: Array.from({ length: n }, (_, i) => point(i)),
      building: [
        {
          id: 'B',
          points: Array.from({ length: n }, (_, i) => point(i)),
          empty: [],
          nested: [
            [1, 2],
            [undefined, () => 1],
          ],
        },
      ],
      count: n,
    },
    nothing: undefined,
  };
}

describe('jsonInSlices', () => {
  it.each([0, 1, 300, 5000])('writes what JSON.stringify writes, for lists of %i', async (n) => {
    const value = answer(n);
    expect(await text(jsonInSlices(value))).toBe(JSON.stringify(value));
  });

  it('writes small values and primitives at once, as JSON.stringify does', async () => {
    for (const value of [null, 3, 'a"b', [1, undefined], { a: 1, b: undefined }])
      expect(await text(jsonInSlices(value))).toBe(JSON.stringify(value));
  });

  it('counts a value as small by its parts, without walking more than that', () => {
    expect(isSmall({ a: [1, 2, 3] })).toBe(true);
    expect(isSmall(Array.from({ length: 1000 }, () => 1))).toBe(false);
    expect(isSmall([{ points: Array.from({ length: 300 }, () => ({ id: 'x' })) }])).toBe(false);
  });

  it('lets timers run while it writes a large answer', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await text(jsonInSlices(answer(200_000)));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(2);
  });
});

describe('sortInSlices', () => {
  it('sorts as Array.prototype.sort does (code units), across many runs', async () => {
    const items = Array.from(
      { length: 20_000 },
      (_, i) => `https://example.org/${(i * 7919) % 20_000}#x${'\u00e9\u{1F600}'.repeat(i % 3)}`,
    );
    items.push('', 'https://example.org/0#x', 'https://example.org/0#x');
    expect(await sortInSlices(items)).toEqual([...items].sort());
    expect(await sortInSlices([])).toEqual([]);
  });
});
