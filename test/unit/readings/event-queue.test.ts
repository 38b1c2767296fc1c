import { describe, expect, it, vi } from 'vitest';
import { EventQueue } from '../../../src/redis/event-queue.ts';

describe('EventQueue', () => {
  it('hands out pushed items in order, to a waiting consumer too', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    const waiting = (async () => [(await queue.next()).value, (await queue.next()).value])();
    queue.push(2);
    expect(await waiting).toEqual([1, 2]);
  });

  it('end() hands out what it holds first, then ends and runs the cleanup', async () => {
    const queue = new EventQueue<number>();
    const cleanup = vi.fn();
    queue.onClose(cleanup);
    queue.push(1);
    queue.push(2);
    queue.end();
    queue.push(3);
    expect([await queue.next(), await queue.next(), await queue.next()]).toEqual([
      { value: 1, done: false },
      { value: 2, done: false },
      { value: undefined, done: true },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  it('drops the oldest items beyond its capacity', async () => {
    const queue = new EventQueue<number>(2);
    for (const n of [1, 2, 3]) queue.push(n);
    expect([(await queue.next()).value, (await queue.next()).value]).toEqual([2, 3]);
  });

  it('return() ends it, releases a waiting consumer and runs the cleanup once', async () => {
    const queue = new EventQueue<number>();
    const cleanup = vi.fn();
    queue.onClose(cleanup);
    const waiting = queue.next();
    await queue.return();
    await queue.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cleanup).toHaveBeenCalledTimes(1);
    queue.push(5);
    expect(await queue.next()).toEqual({ value: undefined, done: true });
  });
});
