import { describe, expect, it } from "vitest";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { Engine } from "../../../src/core/engine/engine.js";
import type { EngineLoop } from "../../../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../../../src/core/engine/engine-options.js";
import type { WorkItem } from "../../../src/core/engine/work-item.js";
import type { QueuePolicy } from "../../../src/core/queue/queue-policy-type.js";
import { policies } from "../../../src/core/queue/queue-policy.js";
import { done } from "../../../src/core/stop/stop.js";

const MIN = 60_000;
const H = 60 * MIN;
const T0 = Date.UTC(2026, 0, 1);

// One worker, six P2 items queued a minute apart: three of class `migrate` (each takes 2 h) and
// three of class `typo` (each takes 6 minutes), interleaved. The class is the claim key's
// namespace, as the gate and `bosun stats` define a task class. The worker moves the clock by
// its item's real length, so the engine can only learn lengths from the runs it sees end.
const queue: Array<[id: string, cls: "migrate" | "typo"]> = [
  ["m1", "migrate"],
  ["t1", "typo"],
  ["m2", "migrate"],
  ["m3", "migrate"],
  ["t2", "typo"],
  ["t3", "typo"],
];
const LENGTH = { migrate: 2 * H, typo: 6 * MIN } as const;

/** The ids in the order the journal shows them dispatched: what the drain did, not what it says of itself. */
async function dispatchOrder(policy: QueuePolicy): Promise<string[]> {
  const clock = new ManualClock(T0 + 10 * MIN);
  const items: WorkItem<null>[] = queue.map(([id, cls], k) => ({ id, band: 2, createdAt: T0 + k * MIN, unblocks: 0, pool: "default", claimKey: `${cls}:${id}`, blockedBy: [], payload: null }));
  const loop: EngineLoop<null> = {
    name: "timed",
    selectQueue: async () => items,
    tierPolicy: () => "standard",
    dispatch: async (_claim, item) => {
      clock.advance(LENGTH[item.claimKey.split(":")[0] as keyof typeof LENGTH]);
      return { stop: done() };
    },
    land: async () => {},
    onIdle: () => {},
  };
  const journal = new MemoryJournal();
  // Leases far longer than any run, so no lease lapses while the clock jumps.
  await new Engine(loop, new MemoryClaimStore(), clock, journal, { ...ENGINE_DEFAULTS, holder: "h1", pool: 1, leaseMs: 24 * H, policy }).run();
  return journal.events.filter((e) => e.event === "DISPATCH").map((e) => (e as { item: string }).item);
}

describe("the local engine feeds fair the running mean duration of each task class", () => {
  it("oldest takes the items in arrival order (the baseline)", async () => {
    expect(await dispatchOrder(policies.oldest)).toEqual(["m1", "t1", "m2", "m3", "t2", "t3"]);
  });

  it("fair starts in arrival order while nothing has been observed, then puts the class seen to be short first", async () => {
    // m1 and t1 go in arrival order (no run of `typo` seen when m1 ends: both estimated alike).
    // Once t1 has run 6 minutes and m1 2 h, the short class's waiting items jump the long ones.
    expect(await dispatchOrder(policies.fair)).toEqual(["m1", "t1", "t2", "t3", "m2", "m3"]);
  });
});
