import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Band } from "../../../src/core/brief/brief.js";
import { compileTrace } from "../../../src/core/replay/compile-trace.js";
import { policyMetrics } from "../../../src/core/replay/policy-metrics.js";
import { createReplayPolicy, REPLAY_POLICY_NAMES } from "../../../src/core/replay/replay-policies.js";
import { simulateReplay } from "../../../src/core/replay/simulate-replay.js";
import { weightedFlowLowerBound } from "../../../src/core/replay/weighted-flow-lower-bound.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import type { RawTraceItem } from "../../../src/core/replay/trace.js";
import { compiled, H, raw } from "./fixtures.js";

/** Random traces: bursts of arrivals, zero and long durations, dependencies on earlier items, up to 3 pools. */
const traceArb = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 5, noNaN: true })),
      dur: fc.oneof(fc.constant(0), fc.double({ min: 0.01, max: 10, noNaN: true })),
      band: fc.integer({ min: 0, max: 4 }),
      pool: fc.integer({ min: 0, max: 2 }),
      kind: fc.constantFrom("a", "b", "c"),
      deps: fc.array(fc.nat(), { maxLength: 2 }),
      due: fc.option(fc.double({ min: 0, max: 400, noNaN: true }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((specs) => {
    let at = 0;
    const items: RawTraceItem[] = specs.map((s, i) => {
      at += s.gap;
      const blockedBy = i === 0 ? [] : s.deps.map((d) => `i${d % i}`);
      return raw(`i${i}`, { at, dur: s.dur, band: s.band as Band, pool: `p${s.pool}`, kind: s.kind, blockedBy, ...(s.due === undefined ? {} : { dueAt: s.due }) });
    });
    return buildTrace([{ items, problems: [], source: "prop", format: "test" }]);
  });

describe("the lower bound on weighted flow time", () => {
  it("never exceeds any policy's weighted flow time, on any trace and any number of workers", () => {
    fc.assert(
      fc.property(traceArb, fc.integer({ min: 1, max: 5 }), (trace, workers) => {
        const c = compileTrace(trace);
        const bound = weightedFlowLowerBound(c, workers);
        for (const name of REPLAY_POLICY_NAMES) {
          const sim = simulateReplay(c, createReplayPolicy(name, c.kindNames.length) as NonNullable<ReturnType<typeof createReplayPolicy>>, { workers });
          const m = policyMetrics(c, sim, bound.bound);
          expect(sim.unfinished).toBe(0);
          expect(m.idle_with_work).toBe(0);
          // Times are epoch ms in doubles (ulp ~2.4e-4 ms), so a flow is exact only to ~1e-10 h.
          expect(m.lower_bound_weighted_flow_time_h as number).toBeLessThanOrEqual((m.weighted_flow_time_h as number) * (1 + 1e-9) + 1e-9);
          // The WSPT relaxation alone is a bound too, not just the larger of the two.
          expect(bound.wspt).toBeLessThanOrEqual(bound.bound);
        }
      }),
      { numRuns: 400, seed: 20260301 },
    );
  });

  it("is exact for one item: its own length", () => {
    const c = compiled({ a: { at: 0, dur: 3, band: 1 } });
    expect(weightedFlowLowerBound(c, 1).wspt / 4 / H).toBeCloseTo(3, 9);
  });

  it("charges the WSPT relaxation by mean busy time: two items at once on one worker, SPT is optimal and met", () => {
    // Short (1h) then long (2h): mean busy times 0.5 and 2, plus half lengths 0.5 and 1 -> 1 + 3 = 4 h of weight 1 each... weight 3 (P2).
    const c = compiled({ long: { at: 0, dur: 2 }, short: { at: 0, dur: 1 } });
    const b = weightedFlowLowerBound(c, 1);
    expect(b.wspt / 3 / H).toBeCloseTo(4, 9);
    const sim = simulateReplay(c, createReplayPolicy("smith", 1) as NonNullable<ReturnType<typeof createReplayPolicy>>, { workers: 1 });
    const m = policyMetrics(c, sim, b.bound);
    // Smith has no history at t=0 and ties by id ("long" < "short"): long first, flows 2 + 3 = 5 over 2 items.
    expect(m.weighted_flow_time_h).toBeCloseTo(2.5, 9);
    expect(m.gap_to_bound).toBeCloseTo(2.5 / 2, 9);
  });

  it("splits by pool: each pool's workers only serve that pool", () => {
    const one = compiled({ a: { at: 0, dur: 1, pool: "x" }, b: { at: 0, dur: 1, pool: "x" } });
    const two = compiled({ a: { at: 0, dur: 1, pool: "x" }, b: { at: 0, dur: 1, pool: "y" } });
    expect(weightedFlowLowerBound(one, 1).wspt).toBeGreaterThan(weightedFlowLowerBound(two, 1).wspt);
  });
});
