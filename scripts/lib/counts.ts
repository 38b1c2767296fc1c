/**
 * Sizes on the command line and in file names: `100k`, `1M`, `5M`, `1.5M`, `20000`.
 */

const SUFFIX: Record<string, number> = { '': 1, k: 1e3, K: 1e3, m: 1e6, M: 1e6, g: 1e9, G: 1e9 };

/** Parses `20000`, `20k`, `1M`, `1.5M`, `1_000_000` into a positive integer. */
export function parseCount(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(text.replace(/_/g, '').trim());
  if (!match) throw new RangeError(`Not a count: ${JSON.stringify(text)} (use e.g. 20000, 100k, 1M)`);
  const value = Math.round(Number(match[1]) * (SUFFIX[match[2] ?? ''] ?? 1));
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`Not a positive count: ${text}`);
  return value;
}

/** A short exact label (at most one decimal): 100000 → `100k`, 1000000 → `1M`, 1500000 → `1.5M`, 12345 → `12345`. */
export function formatCount(value: number): string {
  for (const [suffix, factor] of [
    ['G', 1e9],
    ['M', 1e6],
    ['k', 1e3],
  ] as const) {
    if (value >= factor) {
      const scaled = value / factor;
      const text = String(Number(scaled.toFixed(1)));
      if (Number(text) * factor === value) return `${text}${suffix}`;
    }
  }
  return String(value);
}

/** `1234567` → `1,234,567` (for logs and tables; locale-independent). */
export function groupDigits(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
