import { describe, expect, it } from "vitest";
import { createReplayPolicy, REPLAY_POLICY_NAMES } from "../../../src/core/replay/replay-policies.js";
import { simulateReplay } from "../../../src/core/replay/simulate-replay.js";
import type { CompiledTrace } from "../../../src/core/replay/compile-trace.js";
import { compiled } from "./fixtures.js";
import type { ItemSpec } from "./fixtures.js";

/** Ids in the order their items started (one worker, so the order is the policy's). */
function startOrder(trace: CompiledTrace, policy: string, workers = 1): string[] {
  const p = createReplayPolicy(policy, trace.kindNames.length);
  if (p === undefined) throw new Error(policy);
  const sim = simulateReplay(trace, p, { workers });
  expect(sim.idleWithWork).toBe(0);
  return trace.items.map((item, i) => ({ id: item.id, start: sim.start[i] as number })).sort((a, b) => a.start - b.start || (a.id < b.id ? -1 : 1)).map((x) => x.id);
}

// One worker. h1 (short) and h2 (long) finish first, so the replay has seen one duration of each
// class; while h2 runs, x, u, y, z and d arrive and wait; their start order is the policy's order.
const contention: Record<string, ItemSpec> = {
  h1: { at: 0, dur: 0.1, kind: "short" },
  h2: { at: 0.2, dur: 5, kind: "long" },
  x: { at: 1, dur: 5, kind: "long" },
  u: { at: 1.5, dur: 1, kind: "short", band: 3 },
  y: { at: 2, dur: 0.1, kind: "short" },
  z: { at: 3, dur: 1, kind: "short", band: 1 },
  d: { at: 4, dur: 5, kind: "long", dueAt: 5.5 },
};

describe("each policy's order on a hand-made trace", () => {
  const cases: [policy: string, why: string, order: string[]][] = [
    ["oldest", "takes arrivals in order, whatever the band", ["x", "u", "y", "z", "d"]],
    ["priority", "takes the best band, newest first within it", ["z", "d", "y", "x", "u"]],
    ["hybrid", "takes the best band, oldest first within it", ["z", "x", "y", "d", "u"]],
    ["index", "lets a due date lift an item inside its band, never across bands", ["z", "d", "x", "y", "u"]],
    ["smith", "puts the class seen to be short first inside a band", ["z", "y", "x", "d", "u"]],
    // (wait + 0.25 × (4 − band) × mean) ÷ expected, with mean 2.55 h, short 0.1 h, long 5 h at t = 5.2.
    ["fair", "takes the best response ratio: short classes first, the band a head start, not a wall", ["y", "u", "z", "x", "d"]],
    // y, u and z pass x: 2.1 h of real delay against a 9.2 h arrival-order flow, but the guard
    // counts estimated work (the short class has been seen at 0.1 h, then 0.4 h), about 0.6 h, under
    // its tenth of (time queued − delay + 5 h): it does not trip, and the order is fair's.
    ["fair-guard", "orders as fair while nobody has been delayed past the guard", ["y", "u", "z", "x", "d"]],
    ["fair-static", "without estimates shifts each arrival 15 minutes earlier per band above P4", ["x", "u", "y", "z", "d"]],
  ];
  it.each(cases)("%s %s", (policy, _why, order) => {
    expect(startOrder(compiled(contention), policy)).toEqual(["h1", "h2", ...order]);
  });

  it("covers every replay policy", () => {
    expect(cases.map((c) => c[0]).sort()).toEqual([...REPLAY_POLICY_NAMES].sort());
  });
});

describe("smith learns durations only from completions, never from the future", () => {
  it("with no completion yet it cannot tell long from short and falls back to oldest, then id", () => {
    const trace = compiled({ blocker: { at: 0, dur: 1, kind: "other" }, "a-long": { at: 0.5, dur: 8, kind: "long" }, "b-short": { at: 0.5, dur: 0.1, kind: "short" } });
    // When blocker completes, only "other" has been seen: both classes are estimated alike.
    expect(startOrder(trace, "smith")).toEqual(["blocker", "a-long", "b-short"]);
  });

  it("once a short item of a class has completed, it prefers that class", () => {
    const trace = compiled({
      seen: { at: 0, dur: 0.1, kind: "short" },
      blocker: { at: 0.1, dur: 1, kind: "other" },
      "a-long": { at: 0.5, dur: 8, kind: "long" },
      "b-short": { at: 0.5, dur: 0.1, kind: "short" },
    });
    expect(startOrder(trace, "smith")).toEqual(["seen", "blocker", "b-short", "a-long"]);
  });
});

describe("blocked items wait for their blockers", () => {
  it("starts a dependent only after its blocker completes, even with idle workers", () => {
    const trace = compiled({ a: { at: 0, dur: 2 }, b: { at: 0, dur: 1, band: 0, blockedBy: ["a"] } });
    for (const policy of REPLAY_POLICY_NAMES) {
      const p = createReplayPolicy(policy, trace.kindNames.length);
      const sim = simulateReplay(trace, p as NonNullable<typeof p>, { workers: 4 });
      expect(sim.start[1], policy).toBe(sim.finish[0]);
      expect(sim.idleWithWork, policy).toBe(0);
    }
  });
});
