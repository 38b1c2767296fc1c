/**
 * The main thread is every request's: work on it that grows with an answer (a large answer's rows,
 * records, objects, GraphQL completion and JSON) runs in slices of about `SLICE_MS`, and between
 * two slices the event loop serves what is waiting (a probe, another site's small query) before the
 * work goes on. Measured on the 1M-triple site (docs/api.md, "Large answers"): the largest answer held
 * the main thread for seconds at a time before; now each hold is a slice.
 */
/** How long one slice of a request's work may hold the main thread, in milliseconds. */
export const SLICE_MS = 5;

/** Items between two looks at the clock: reading it costs more than most items do. */
const CHECK_EVERY = 256;

/** The slices of one piece of work. */
export class MainThreadSlices {
  private started = performance.now();
  private unchecked = 0;

  /** `signal`: the request's, when the work is one request's; a slice does not start once it is aborted. */
  constructor(private readonly signal?: AbortSignal) {}

  /**
   * Counts `items` done; once the slice has run its time, lets the event loop run and starts the
   * next. Answers a promise only then (`await` it when it is one): a loop pays no await per item.
   */
  step(items = 1): Promise<void> | undefined {
    this.unchecked += items;
    if (this.unchecked < CHECK_EVERY) return undefined;
    this.unchecked = 0;
    return performance.now() - this.started < SLICE_MS ? undefined : this.next();
  }

  /** Lets the event loop run what waits, then starts a new slice; throws when the request's client has gone. */
  async next(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.signal?.throwIfAborted();
    this.started = performance.now();
  }
}

/** Items sorted at once: a run this long sorts well within a slice. */
const RUN = 2048;

/**
 * Strings sorted in code-unit order, in slices: runs sorted at once, then merged pairwise.
 * `Array.prototype.sort` of 112k IRIs held the main thread for ~160 ms; this takes as long in all.
 */
export async function sortInSlices(items: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const slices = new MainThreadSlices(signal);
  let runs: string[][] = [];
  for (let from = 0; from < items.length; from += RUN) {
    // Without a comparator, sort compares strings by code units.
    runs.push(items.slice(from, from + RUN).sort());
    const pause = slices.step(RUN);
    if (pause) await pause;
  }
  while (runs.length > 1) {
    const merged: string[][] = [];
    for (let i = 0; i < runs.length; i += 2) {
      const [left, right] = [runs[i]!, runs[i + 1]];
      if (!right) {
        merged.push(left);
        continue;
      }
      const out: string[] = new Array(left.length + right.length);
      let [l, r, o] = [0, 0, 0];
      while (l < left.length && r < right.length) {
        out[o++] = right[r]! < left[l]! ? right[r++]! : left[l++]!;
        const pause = slices.step();
        if (pause) await pause;
      }
      while (l < left.length) out[o++] = left[l++]!;
      while (r < right.length) out[o++] = right[r++]!;
      merged.push(out);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}
