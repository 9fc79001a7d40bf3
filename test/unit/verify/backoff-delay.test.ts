import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { mixSeed, seededRandom } from "../../../src/core/random/seeded-random.js";
import { backoffDelay } from "../../../src/core/verify/backoff-delay.js";

describe("seededRandom", () => {
  it("replays the same stream for the same seed and a different one for another seed", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect([c(), c(), c()]).not.toEqual(xs);
  });

  it("stays in [0, 1)", () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = seededRandom(seed);
        for (let i = 0; i < 20; i++) {
          const x = r();
          if (x < 0 || x >= 1) return false;
        }
        return true;
      }),
    );
  });

  it("mixSeed gives different seeds for different salts", () => {
    expect(new Set([0, 1, 2, 3, 4].map((salt) => mixSeed(7, salt))).size).toBe(5);
  });
});

describe("backoffDelay", () => {
  const noJitter = { baseMs: 100, factor: 2, maxMs: 1000, jitter: 0 };

  it.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [4, 800],
    [5, 1000],
    [12, 1000],
  ])("without jitter, retry %i waits %i ms (doubling, capped)", (attempt, ms) => {
    expect(backoffDelay(noJitter, attempt, 1)).toBe(ms);
  });

  it("with jitter, is deterministic per seed, never above the uncapped-by-jitter delay, and varies across seeds", () => {
    const policy = { ...noJitter, jitter: 0.5 };
    const schedule = (seed: number) => [1, 2, 3, 4, 5, 6].map((n) => backoffDelay(policy, n, seed));
    expect(schedule(9)).toEqual(schedule(9));
    expect(schedule(9)).not.toEqual(schedule(10));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer(), (attempt, seed) => {
        const d = backoffDelay(policy, attempt, seed);
        const ceiling = Math.min(1000, 100 * 2 ** (attempt - 1));
        return d <= ceiling && d >= ceiling * 0.5 - 1;
      }),
    );
  });
});
