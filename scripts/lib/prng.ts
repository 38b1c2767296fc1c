/**
 * Small, seeded, deterministic pseudo-random number generator for fixture generators.
 *
 * Mulberry32: 32-bit state, fast, good enough statistical quality for test data, and identical on
 * every platform (only 32-bit integer arithmetic via Math.imul and >>> 0). Never use Math.random()
 * in a generator: the output files must be byte-identical from run to run.
 */

/** 32-bit FNV-1a hash of a string (UTF-16 code units). Deterministic seed derivation. */
export function hashString32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Prng {
  private state: number;

  constructor(seed: number | string) {
    this.state = (typeof seed === 'string' ? hashString32(seed) : seed) >>> 0;
  }

  /** Next 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
      throw new RangeError(`Prng.int: bad range [${min}, ${max}]`);
    }
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform float in [min, max), rounded to `decimals` places when given. */
  float(min: number, max: number, decimals?: number): number {
    const x = min + this.next() * (max - min);
    if (decimals === undefined) return x;
    const f = 10 ** decimals;
    return Math.round(x * f) / f;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('Prng.pick: empty array');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /**
   * An independent child stream derived from this generator's seed material and a label, without
   * advancing this generator. Use it to keep e.g. one stream per building, so that adding a building
   * does not change every building generated after it.
   */
  fork(label: string): Prng {
    return new Prng(hashString32(`${this.state}:${label}`));
  }
}
