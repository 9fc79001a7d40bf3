/** A seeded pseudo-random source (mulberry32), so fault and delivery patterns replay exactly. */
export interface Prng {
  /** Uniform in [0, 1). */
  next(): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
}

export function createPrng(seed: number): Prng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p) => p >= 1 || (p > 0 && next() < p),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}
