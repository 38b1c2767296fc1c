import { describe, expect, it, vi } from 'vitest';
import { GraphReadings } from '../../../src/query/graph-readings.ts';
import type { GraphStore } from '../../../src/store/graph-store.ts';
import { InstrumentedStore } from '../../../src/store/instrumented-store.ts';
import { selectQuery } from '../../support/select-query.ts';

/** A store that answers each select with how many it has answered (or fails once when told); replacing a graph tells the readings. */
function countingStore(readMs = 0) {
  let reads = 0;
  let failNext = false;
  let running = 0;
  let mostAtOnce = 0;
  const inner = {
    name: 'fake',
    select: async () => {
      reads++;
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      if (readMs > 0) await new Promise((resolve) => setTimeout(resolve, readMs));
      running--;
      if (failNext) {
        failNext = false;
        throw new Error('down');
      }
      return [{ n: { type: 'literal', value: String(reads) } }];
    },
    replaceGraph: async () => ({ triples: 0 }),
  } as unknown as GraphStore;
  const store = new InstrumentedStore(inner);
  const readings = (keptFor: (ms: number) => number | undefined) =>
    new GraphReadings(
      store,
      async (runner, graph) =>
        `${graph}:${(await runner.select(selectQuery('SELECT ?n WHERE {}'), graph))[0]!.n!.value}`,
      keptFor,
    );
  return { store, readings, reads: () => reads, mostAtOnce: () => mostAtOnce, failNext: () => (failNext = true) };
}

describe('GraphReadings', () => {
  it('reads a graph once until it changes, and again after', async () => {
    const { store, readings, reads } = countingStore();
    const kept = readings(() => undefined);
    expect(await Promise.all([kept.of('g'), kept.of('g')])).toEqual(['g:1', 'g:1']);
    expect(await kept.of('g')).toBe('g:1');
    await store.replaceGraph('g', '', 'text/turtle');
    expect(await kept.of('g')).toBe('g:2');
    expect(reads()).toBe(2);
  });

  it('reads a graph changed again and again while it is read one reading at a time, skipping those superseded', async () => {
    const { store, readings, reads, mostAtOnce } = countingStore(20);
    const kept = readings(() => undefined);
    const asked: Array<Promise<string>> = [];
    // A burst of changes, each followed by a read (what the site caches do after every change).
    for (let i = 0; i < 50; i++) {
      await store.replaceGraph('g', '', 'text/turtle');
      asked.push(kept.of('g'));
    }
    const answers = await Promise.all(asked);
    // The first reading and the last: those between were superseded before they began, and answer the last.
    expect(mostAtOnce()).toBe(1);
    expect(reads()).toBe(2);
    expect(answers.at(-1)).toBe('g:2');
    expect(new Set(answers.slice(1))).toEqual(new Set(['g:2']));
  });

  it('renews a reading once the time keptFor gives has passed, answering the old one until the new one is read', async () => {
    vi.useFakeTimers();
    try {
      const { readings, reads } = countingStore();
      const kept = readings((ms) => Math.max(5000, 10 * ms));
      expect(await kept.of('g')).toBe('g:1');
      vi.advanceTimersByTime(4000);
      expect(await kept.of('g')).toBe('g:1');
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(2000);
      expect(await Promise.all([kept.of('g'), kept.of('g')])).toEqual(['g:1', 'g:1']);
      await vi.waitFor(() => expect(reads()).toBe(2));
      expect(await kept.of('g')).toBe('g:2');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the old reading when its renewal fails, and tries again next time', async () => {
    vi.useFakeTimers();
    try {
      const { readings, reads, failNext } = countingStore();
      const kept = readings(() => 5000);
      expect(await kept.of('g')).toBe('g:1');
      vi.advanceTimersByTime(6000);
      failNext();
      expect(await kept.of('g')).toBe('g:1');
      await vi.waitFor(() => expect(reads()).toBe(2));
      expect(await kept.of('g')).toBe('g:1');
      await vi.waitFor(() => expect(reads()).toBe(3));
      expect(await kept.of('g')).toBe('g:3');
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a renewal that was read while the graph changed', async () => {
    vi.useFakeTimers();
    try {
      const { store } = countingStore();
      // The second read (the renewal) is held until released: the graph changes while it is in flight.
      let release = () => {};
      let reads = 0;
      const kept = new GraphReadings(
        store,
        async () => {
          const read = ++reads;
          if (read === 2) await new Promise<void>((resolve) => (release = resolve));
          return read;
        },
        () => 5000,
      );
      expect(await kept.of('g')).toBe(1);
      vi.advanceTimersByTime(6000);
      expect(await kept.of('g')).toBe(1);
      await store.replaceGraph('g', '', 'text/turtle');
      release();
      expect(await kept.of('g')).toBe(3);
      // The renewal read before the change has resolved since: it did not take the new reading's place.
      await Promise.resolve();
      expect(await kept.of('g')).toBe(3);
      expect(reads).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads again after a failed read', async () => {
    const { readings, failNext } = countingStore();
    const kept = readings(() => undefined);
    failNext();
    await expect(kept.of('g')).rejects.toThrow('down');
    expect(await kept.of('g')).toBe('g:2');
  });
});
