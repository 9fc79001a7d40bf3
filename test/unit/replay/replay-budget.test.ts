/**
 * A replay under a daily money budget follows the drain's rule: an item starts only when it fits
 * in what the UTC day has left; the best item that does not fit holds everything behind it until
 * the next UTC midnight; an item dearer than a whole day is left out with what waits on it.
 */
import { describe, expect, it } from "vitest";
import { oldest } from "../../../src/core/queue/queue-policy.js";
import { fromQueuePolicy } from "../../../src/core/replay/replay-policy.js";
import type { ReplayQueueItem } from "../../../src/core/replay/replay-policy.js";
import { createFairGuardPolicy } from "../../../src/core/replay/fair-guard-policy.js";
import { importJournal } from "../../../src/core/replay/import-journal.js";
import { settleCosts, traceCostProblem } from "../../../src/core/replay/replay-budget.js";
import { runReplay } from "../../../src/core/replay/run-replay.js";
import { simulateReplay } from "../../../src/core/replay/simulate-replay.js";
import { compiled, H, T0, traceOf } from "./fixtures.js";

const M = 1_000_000;

describe("a replay under a daily budget", () => {
  const items = {
    a: { at: 0, dur: 1, usd: 4 },
    b: { at: 0, dur: 1, usd: 4 },
    c: { at: 0.5, dur: 1, usd: 1 },
    d: { at: 30, dur: 1, usd: 2 },
    dear: { at: 1, dur: 1, usd: 7 },
    after: { at: 1, dur: 1, usd: 0.5, blockedBy: ["dear"] },
  };

  it("holds the best item that does not fit, and everything behind it, until the next UTC day", () => {
    const trace = compiled(items);
    const costs = settleCosts(trace);
    const sim = simulateReplay(trace, fromQueuePolicy(oldest), { workers: 2, budget: { dailyMicros: 6 * M, cost: costs.micros, until: T0 + 96 * H } });
    const startH = (id: string) => ((sim.start[trace.items.findIndex((i) => i.id === id)] as number) - T0) / H;
    // a fits ($4 of $6); b does not ($8): held, and c ($1, which would fit) does not jump it.
    expect([startH("a"), startH("b"), startH("c"), startH("d")]).toEqual([0, 24, 24, 48]);
    // Day two: b and c spend $5, so d ($2) waits for day three.
    expect(sim.budget).toEqual({ heldDays: 2, neverFits: 1 });
    expect(Number.isNaN(startH("dear")) && Number.isNaN(startH("after"))).toBe(true);
    // Held for money is not idling beside waiting work.
    expect(sim.idleWithWork).toBe(0);
  });

  it("reports per policy what the budget completed by the end of the day the work ended without one, and at what flow time", () => {
    const trace = traceOf(items);
    const ample = runReplay(trace, { policies: ["oldest", "fair-guard"], workers: 2, budgetUsd: 1000 });
    const tight = runReplay(trace, { policies: ["oldest", "fair-guard"], workers: 2, budgetUsd: 6 });
    // Without a budget the last item (d) ends on day two: the horizon is that day's end.
    expect(ample.budget?.horizon).toBe(new Date(T0 + 48 * H).toISOString());
    for (const [k, p] of (ample.budget?.policies ?? []).entries()) {
      expect(p).toMatchObject({ completed: 6, items: 6, held_days: 0, never_fits: 0, spent_usd: 18.5 });
      expect(p.weighted_flow_time_h).toBeCloseTo(ample.metrics[k]?.weighted_flow_time_h as number, 9);
    }
    const o = tight.budget?.policies.find((p) => p.policy === "oldest");
    // By the end of day two: a, b and c; d starts on day three; dear never fits, after waits on it.
    expect(o).toMatchObject({ completed: 3, items: 6, held_days: 2, never_fits: 1, spent_usd: 9 });
    // Flow times (P2, equal weights): a 1h, b 25h, c 24.5h.
    expect(o?.weighted_flow_time_h).toBeCloseTo((1 + 25 + 24.5) / 3, 9);
  });

  it("a trace without a cost is refused with the reason; items without one cost the median of the others", () => {
    expect(traceCostProblem(traceOf({ x: { at: 0, dur: 1 } }))).toMatch(/none of the trace's 1 items records a cost: a Bosun journal records/);
    const costs = settleCosts(compiled({ x: { at: 0, dur: 1, usd: 1 }, y: { at: 0, dur: 1, usd: 3 }, z: { at: 0, dur: 1 } }));
    expect([...costs.micros]).toEqual([1 * M, 3 * M, 2 * M]);
    expect(costs).toMatchObject({ known: 2, estimated: 1, rule: expect.stringContaining("the median of the recorded costs, $2.00") });
  });

  it("fair-guard takes back a start the budget held: the items it jumped are not charged for it", () => {
    const policy = createFairGuardPolicy(1);
    // A P0 item jumps two older P2 items; were they charged for a start that did not happen, they
    // would count as overdue (queued no time at all, yet jumped) and be served first.
    const make = () => {
      const q = policy.createQueue(0, 1);
      const item = (id: string, band: 0 | 2, createdAt: number, ix: number) => ({ id, band, createdAt, unblocks: 0, pool: "p", ix, kind: 0, unblockWeight: 0 }) as ReplayQueueItem;
      // Created at the same moment: the older two only by their ids (the tie-break).
      q.push(item("old1", 2, 0, 0), 10);
      q.push(item("old2", 2, 0, 1), 10);
      q.push(item("z-hot", 0, 0, 2), 10);
      return q;
    };
    const plain = make();
    const held = make();
    const first = held.pop(10) as ReplayQueueItem;
    expect(first.id).toBe("z-hot");
    held.putBack?.(first, 10);
    const order = (q: ReturnType<typeof make>) => Array.from({ length: 3 }, () => q.pop(10)?.id);
    expect(order(held)).toEqual(order(plain));
  });
});

describe("what a journal says an item cost", () => {
  const line = (t: number, fields: Record<string, unknown>) => JSON.stringify({ v: 1, t: new Date(T0 + t * 60_000).toISOString(), ...fields });
  it("each attempt: its reported cost, else what it reserved; one with neither leaves the item's cost unknown", () => {
    const text = [
      line(0, { event: "DISPATCH", item: "reported", epoch: 1, reserve_usd: 2 }),
      line(1, { event: "LAND", item: "reported", epoch: 1, ok: true, cost: { usd: 0.25, wall_clock_s: 60 } }),
      // The first attempt reported nothing and keeps its reservation; the second reported.
      line(0, { event: "DISPATCH", item: "kept", epoch: 1, reserve_usd: 0.5 }),
      line(1, { event: "LAND", item: "kept", epoch: 1, ok: false, cost: { wall_clock_s: 60 } }),
      line(2, { event: "DISPATCH", item: "kept", epoch: 2, reserve_usd: 0.5 }),
      line(3, { event: "LAND", item: "kept", epoch: 2, ok: true, cost: { usd: 0.125 } }),
      // A worker that died: its attempt never landed, and its reservation counts.
      line(0, { event: "DISPATCH", item: "died", epoch: 1, reserve_usd: 1 }),
      line(5, { event: "RECLAIM", item: "died", from: "d1", epoch: 1 }),
      line(6, { event: "DISPATCH", item: "died", epoch: 2, reserve_usd: 1 }),
      line(7, { event: "LAND", item: "died", epoch: 2, ok: true, cost: { usd: 0.75 } }),
      line(0, { event: "DISPATCH", item: "unknown", epoch: 1 }),
      line(1, { event: "LAND", item: "unknown", epoch: 1, ok: true }),
    ].join("\n");
    const costs = Object.fromEntries(importJournal(text, "j").items.map((i) => [i.id, i.cost]));
    expect(costs).toEqual({ reported: 0.25, kept: 0.625, died: 1.75, unknown: undefined });
  });
});
