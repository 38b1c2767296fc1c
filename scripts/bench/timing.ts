/**
 * Latency samples and their percentiles. Every mode of a query is run in the same rounds (one
 * of each per round), so load from other processes falls on all of them alike.
 */

/** The p-th percentile (0–100) of samples, nearest rank; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

/** Median and 95th percentile of a series of timings, in milliseconds. */
export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly runs: number;
}

export const latencyOf = (samples: readonly number[]): Latency => ({
  p50: percentile(samples, 50),
  p95: percentile(samples, 95),
  runs: samples.length,
});

export interface RoundOptions {
  /** Rounds after the warm-up. */
  readonly iterations: number;
  /** Stop adding rounds once this much time went into them (slow queries at large sizes). */
  readonly budgetMs: number;
  /** At least this many rounds, whatever the budget. */
  readonly minIterations?: number;
  /** Unrecorded rounds first, up to this many or until `WARM_UP_MS` went into them (at least one). */
  readonly warmUpRounds?: number;
}

/**
 * The warm-up's time limit. The gateway's code is JavaScript the JIT compiles as it runs: timed
 * after one warm-up round, `buildings` on 100k took 2.7 ms at p50, after a thousand 1.1 ms; a
 * service under load has long since compiled it.
 */
export const WARM_UP_MS = 2000;

/** Warm-up rounds per query on the embedded store (other stores: one). */
export const WARM_UP_ROUNDS = 20;

/**
 * Runs `round` (one timing per mode) for the warm-up, then `iterations` times, or fewer when the
 * budget runs out, and returns the timings per mode.
 */
export async function rounds(options: RoundOptions, round: () => Promise<readonly number[]>): Promise<number[][]> {
  const warming = performance.now();
  for (let i = 0; i < (options.warmUpRounds ?? 0); i++) {
    if (i >= 1 && performance.now() - warming > WARM_UP_MS) break;
    await round();
  }
  const samples: number[][] = [];
  const started = performance.now();
  for (let i = 0; i < options.iterations; i++) {
    if (i >= (options.minIterations ?? 1) && performance.now() - started > options.budgetMs) break;
    const times = await round();
    times.forEach((t, mode) => (samples[mode] ??= []).push(t));
  }
  return samples;
}

/** Milliseconds for a table: two decimals below 10, one below 100, none above. */
export const ms = (x: number): string =>
  !Number.isFinite(x) ? '–' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0);
