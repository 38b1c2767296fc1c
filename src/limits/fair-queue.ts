import { AppError, serviceUnavailable } from '../errors/app-error.ts';

/** A slot of a shared engine, held while one piece of work runs on it. */
export interface Slot {
  /** Which of the engine's slots (0 … slots − 1): the lane, or thread, the work runs on. */
  readonly index: number;
  /** Gives the slot back; calling it again does nothing. */
  release(): void;
  /** Keeps the thread for the engine's own work (counted against no key) instead of giving it back. */
  keep(): Slot;
}

interface Waiter {
  /** The slots this work may run on (all when unset). */
  readonly eligible: ((index: number) => boolean) | undefined;
  readonly grant: (slot: Slot) => void;
  readonly reject: (error: Error) => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/**
 * The slots of a shared engine (its threads), handed out fairly across keys (sites). Each key
 * waits in a queue of its own, keys are served in turn, and one key holds at most `perKey` slots at
 * once: a tenant with many slow requests waits behind itself, never in front of the others, and
 * cannot hold every thread. Work whose client went away leaves the queue at once.
 */
export class FairQueue {
  private readonly free: number[];
  /** Keys with work waiting, each with its queue. */
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly held = new Map<string, number>();
  /** When each key busy now was last served (a counter): the least recently served goes first. */
  private readonly lastServed = new Map<string, number>();
  private turns = 0;

  constructor(
    slots: number,
    private readonly perKey: number,
    /** Most pieces of work one key may have waiting; past it the next is refused (429). */
    private readonly maxWaitingPerKey = 256,
  ) {
    this.free = Array.from({ length: slots }, (_, i) => i);
  }

  /** Pieces of work waiting for a slot, over every key. */
  get queued(): number {
    let n = 0;
    for (const queue of this.waiting.values()) n += queue.length;
    return n;
  }

  /**
   * Waits for a slot for `key`, one of those `eligible` says it may run on (a thread that has the
   * graph it reads); rejects when `signal` aborts first.
   */
  acquire(key: string, signal?: AbortSignal, eligible?: (index: number) => boolean): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(cancelled(signal));
    return new Promise<Slot>((grant, reject) => {
      const queue = this.waiting.get(key) ?? [];
      if (queue.length >= this.maxWaitingPerKey) {
        reject(
          new AppError(
            'RATE_LIMITED',
            `More than ${this.maxWaitingPerKey} requests of this site are waiting for this engine; send fewer at once.`,
          ),
        );
        return;
      }
      const waiter: Waiter = {
        eligible,
        grant,
        reject,
        signal,
        onAbort: () => {
          const current = this.waiting.get(key);
          const at = current?.indexOf(waiter) ?? -1;
          if (at < 0) return;
          current!.splice(at, 1);
          if (current!.length === 0) {
            this.waiting.delete(key);
            if (!this.held.has(key)) this.lastServed.delete(key);
          }
          reject(cancelled(signal));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      queue.push(waiter);
      this.waiting.set(key, queue);
      this.dispatch();
    });
  }

  /**
   * Takes slot `index` now if it is free, ahead of every waiter (the engine's own work on that
   * thread: applying a write, rebuilding it); undefined when it is held.
   */
  take(index: number): Slot | undefined {
    const at = this.free.indexOf(index);
    if (at < 0) return undefined;
    this.free.splice(at, 1);
    return this.grant(undefined, index);
  }

  /** Hands out free slots again: what a waiter is eligible for has changed. */
  wake(): void {
    this.dispatch();
  }

  private dispatch(): void {
    while (this.free.length > 0) {
      const next = this.nextWaiter();
      if (!next) return;
      const { key, at } = next;
      const queue = this.waiting.get(key)!;
      const waiter = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(key);
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.held.set(key, (this.held.get(key) ?? 0) + 1);
      this.lastServed.set(key, ++this.turns);
      waiter.grant(this.grant(key, this.free.splice(at, 1)[0]!));
    }
  }

  /** A slot given to `key`'s work, or taken by the engine (`undefined`: counted against no key). */
  private grant(key: string | undefined, index: number): Slot {
    let released = false;
    const letGo = () => {
      if (released) throw new Error('slot already released');
      released = true;
      if (key === undefined) return;
      const n = this.held.get(key)! - 1;
      if (n > 0) this.held.set(key, n);
      else {
        this.held.delete(key);
        // A key with nothing running or waiting has had its turns: forgotten, it starts afresh.
        if (!this.waiting.has(key)) this.lastServed.delete(key);
      }
    };
    return {
      index,
      release: () => {
        if (released) return;
        letGo();
        this.free.push(index);
        this.dispatch();
      },
      keep: () => {
        letGo();
        return this.grant(undefined, index);
      },
    };
  }

  /**
   * Of the keys that hold fewer than their share of slots and whose first waiter may run on a free
   * slot, the one served least recently, with where that slot is in `free`.
   */
  private nextWaiter(): { key: string; at: number } | undefined {
    let next: { key: string; at: number } | undefined;
    let nextTurn = Infinity;
    for (const [key, queue] of this.waiting) {
      if ((this.held.get(key) ?? 0) >= this.perKey) continue;
      const turn = this.lastServed.get(key) ?? 0;
      if (turn >= nextTurn) continue;
      const eligible = queue[0]!.eligible;
      const at = eligible ? this.free.findIndex(eligible) : 0;
      if (at >= 0) [next, nextTurn] = [{ key, at }, turn];
    }
    return next;
  }
}

/**
 * The error of work stopped by its request's `signal`: the request's refusal when it
 * went over its budget (`RequestWork.signal`), else cancelled (its client went away).
 */
export const cancelled = (signal?: AbortSignal, cause?: unknown): Error =>
  signal?.reason instanceof AppError ? signal.reason : serviceUnavailable('The request was cancelled.', cause);
