/**
 * A push-to-pull queue: producers `push`, one consumer iterates (a GraphQL subscription). Ending
 * the iteration (the client went away) runs the cleanup once. When the consumer falls behind by
 * more than `capacity` items the oldest are dropped: a live view wants the newest values.
 */
export class EventQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private done = false;
  /** Ended by its producer: no more items; the consumer reads those pushed, then the end. */
  private ending = false;
  private readonly cleanups: Array<() => unknown> = [];

  constructor(private readonly capacity = 1000) {}

  /** Runs when the queue ends (once). */
  onClose(cleanup: () => unknown): void {
    if (this.done) runCleanup(cleanup);
    else this.cleanups.push(cleanup);
  }

  push(item: T): void {
    if (this.done || this.ending) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: item, done: false });
      return;
    }
    this.items.push(item);
    if (this.items.length > this.capacity) this.items.shift();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.ending) this.close();
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    this.close();
    return { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<T>> {
    this.close();
    throw error;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  /** Ends the queue once the consumer has read what it holds (the producer's last word, unlike `close`). */
  end(): void {
    if (this.done) return;
    this.ending = true;
    if (this.items.length === 0) this.close();
  }

  /** Ends the queue: pending items are dropped, a waiting consumer is released, cleanups run. */
  close(): void {
    if (this.done) return;
    this.done = true;
    this.items.length = 0;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
    for (const cleanup of this.cleanups.splice(0)) runCleanup(cleanup);
  }
}

// A cleanup's failure has no one to report to: the consumer is gone.
function runCleanup(cleanup: () => unknown): void {
  void Promise.resolve()
    .then(cleanup)
    .catch(() => undefined);
}
