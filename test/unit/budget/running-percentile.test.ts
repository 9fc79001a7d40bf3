/** The running p90 an unpriced item reserves: the same value a sort would give, after every add. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RunningPercentile } from "../../../src/core/budget/running-percentile.js";
import { ClassCosts } from "../../../src/core/budget/class-costs.js";

const nearestRank = (values: readonly number[], q: number): number | undefined => [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1];

describe("a running nearest-rank percentile", () => {
  test("is the sorted values' ⌈q·n⌉-th after every value added, ties and all", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 300 }), fc.constantFrom(0.1, 0.5, 0.9, 0.99, 1), (values, q) => {
        const running = new RunningPercentile(q);
        expect(running.value()).toBeUndefined();
        values.forEach((v, i) => {
          running.add(v);
          expect(running.value()).toBe(nearestRank(values.slice(0, i + 1), q));
        });
      }),
      { numRuns: 300 },
    );
  });

  test("a class's p90 is its own runs' only", () => {
    const costs = new ClassCosts();
    for (let i = 1; i <= 10; i++) costs.observe(`bugfix:b${i}`, i * 100);
    costs.observe("docs:d", 7);
    costs.observe("docs:e", Number.NaN);
    expect([costs.p90("bugfix"), costs.p90("docs"), costs.p90("task")]).toEqual([900, 7, undefined]);
  });
});
