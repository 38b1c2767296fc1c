import { describe, expect, it } from 'vitest';
import { FairQueue, type Slot } from '../../../src/limits/fair-queue.ts';

/** Acquires and records the order in which keys were served. */
function recorder(queue: FairQueue) {
  const served: string[] = [];
  const slots: Slot[] = [];
  const ask = (key: string, signal?: AbortSignal) =>
    queue.acquire(key, signal).then((slot) => {
      served.push(key);
      slots.push(slot);
      return slot;
    });
  return { served, slots, ask };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it('serves sites in turn: one with many waiting queries waits behind itself, not in front of another', async () => {
    const queue = new FairQueue(1, 1);
    const { served, slots, ask } = recorder(queue);
    void ask('a');
    await tick();
    for (let i = 0; i < 5; i++) void ask('a');
    void ask('b');
    await tick();
    // a holds the slot, five more of a wait, then b arrives: b is next.
    slots.shift()!.release();
    await tick();
    expect(served).toEqual(['a', 'b']);
    slots.shift()!.release();
    await tick();
    expect(served).toEqual(['a', 'b', 'a']);
  });

  it('lets one site hold at most its share of the slots, keeping one for the others', async () => {
    const queue = new FairQueue(2, 1);
    const { served, ask } = recorder(queue);
    void ask('slow');
    void ask('slow');
    await tick();
    expect(served).toEqual(['slow']);
    void ask('other');
    await tick();
    expect(served).toEqual(['slow', 'other']);
  });

  it('drops waiting work whose client went away, and serves the next', async () => {
    const queue = new FairQueue(1, 1);
    const { served, slots, ask } = recorder(queue);
    void ask('a');
    await tick();
    const controller = new AbortController();
    const gone = ask('b', controller.signal);
    void ask('c');
    controller.abort();
    await expect(gone).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(queue.queued).toBe(1);
    slots.shift()!.release();
    await tick();
    expect(served).toEqual(['a', 'c']);
  });

  it('refuses work past the most a site may have waiting (429)', async () => {
    const queue = new FairQueue(1, 1, 2);
    void queue.acquire('a');
    void queue.acquire('a');
    void queue.acquire('a');
    await expect(queue.acquire('a')).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // Another site is not affected.
    expect(queue.queued).toBe(2);
    void queue.acquire('b');
    expect(queue.queued).toBe(3);
  });

  it('lets the engine take a free slot ahead of the waiters, and keep a held one', async () => {
    const queue = new FairQueue(2, 2);
    const taken = queue.take(1)!;
    expect(taken.index).toBe(1);
    expect(queue.take(1)).toBeUndefined();
    const { served, slots, ask } = recorder(queue);
    void ask('a');
    void ask('a');
    await tick();
    expect(served).toEqual(['a']);
    expect(slots[0]!.index).toBe(0);
    // The engine keeps slot 0 after a's work (to apply a write): a still waits.
    const kept = slots[0]!.keep();
    await tick();
    expect(served).toEqual(['a']);
    kept.release();
    await tick();
    expect(served).toEqual(['a', 'a']);
    taken.release();
  });

  it('runs work only on the slots it is eligible for, and serves it once one becomes so (a graph being restored)', async () => {
    const queue = new FairQueue(2, 2);
    let restored = new Set<number>();
    const granted: number[] = [];
    // The graph is on no thread yet: the work waits, though both slots are free.
    void queue.acquire('big', undefined, (i) => restored.has(i)).then((slot) => granted.push(slot.index));
    const other = await queue.acquire('demo');
    await tick();
    expect(granted).toEqual([]);
    // The first thread has it.
    restored = new Set([1]);
    queue.wake();
    await tick();
    expect(granted).toEqual([1]);
    other.release();
  });
});
