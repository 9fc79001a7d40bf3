import { describe, expect, it } from "vitest";
import type { ReplayPolicy, ReplayQueueItem } from "../../../src/core/replay/replay-policy.js";
import { fromQueuePolicy } from "../../../src/core/replay/replay-policy.js";
import { hybrid } from "../../../src/core/queue/queue-policy.js";
import { simulateReplay } from "../../../src/core/replay/simulate-replay.js";
import { compiled } from "./fixtures.js";

/** Holds P4 items back until nothing better has waited for an hour: deliberately not work-conserving. */
function lazyForP4(): ReplayPolicy {
  const inner = fromQueuePolicy(hybrid);
  return {
    name: "lazy",
    createQueue: (now, workers) => {
      const q = inner.createQueue(now, workers);
      const held: ReplayQueueItem[] = [];
      return {
        get size() {
          return q.size + held.length;
        },
        push: (item, t) => (item.band === 4 ? held.push(item) : q.push(item, t)),
        pop: (t) => q.pop(t) ?? (held.length > 0 && t - (held[0] as ReplayQueueItem).createdAt >= 3_600_000 ? held.shift() : undefined),
      };
    },
  };
}

describe("the work-conservation audit", () => {
  const trace = compiled({ a: { at: 0, dur: 2 }, low: { at: 0.5, dur: 1, band: 4 }, b: { at: 3, dur: 1 }, c: { at: 4, dur: 1 } });

  it("counts the moments a policy leaves a worker idle beside a ready item", () => {
    const sim = simulateReplay(trace, lazyForP4(), { workers: 2 });
    // low is ready at 0.5h with a worker free and is held: one moment. By the next event (a
    // finishes at 2h) it has waited 1.5h and is released, so the audit counts exactly one.
    expect(sim.idleWithWork).toBe(1);
    expect(sim.start[1]).toBe(sim.finish[0]);
  });

  it("counts zero for the same trace under a work-conserving policy", () => {
    expect(simulateReplay(trace, fromQueuePolicy(hybrid), { workers: 2 }).idleWithWork).toBe(0);
  });

  it("reports items a policy never started instead of hanging", () => {
    const never: ReplayPolicy = { name: "never", createQueue: () => ({ size: 0, push: () => undefined, pop: () => undefined }) };
    const sim = simulateReplay(trace, never, { workers: 1 });
    expect(sim.unfinished).toBe(4);
    expect(sim.idleWithWork).toBeGreaterThan(0);
  });
});
