/**
 * The engine under money caps, over many seeds: whatever the pool, the costs, the order runs end
 * in and the failures, reported spend never passes the cap; what did not fit is held (queued, not
 * failed); and the next drain with a higher cap runs exactly the held items.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Engine } from "../../../src/core/engine/engine.js";
import type { EngineLoop, IdleSummary, RunResult, RunShare } from "../../../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../../../src/core/engine/engine-options.js";
import type { WorkItem } from "../../../src/core/engine/work-item.js";
import { done, failed } from "../../../src/core/stop/stop.js";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";
import { MemorySpendLedger } from "../../../src/adapters/memory/memory-spend-ledger.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import type { BudgetCap } from "../../../src/core/budget/budget-cap.js";
import { toMicros } from "../../../src/core/budget/budget-cap.js";
import type { ClaimStore } from "../../../src/core/claims/claim-store.js";
import type { Clock } from "../../../src/core/engine/clock.js";

const M = 1_000_000;

interface Plan {
  /** Per item: its own budget.usd (micros) or none, what its run reports (micros, or none), whether the first attempt fails retryably, how long it runs. */
  readonly items: ReadonlyArray<{ usd?: number | undefined; reports: number | undefined; flaky: boolean; turns: number }>;
  readonly pool: number;
  readonly capMicros: number;
  readonly itemCap: number;
}

const planArb: fc.Arbitrary<Plan> = fc.record({
  items: fc.array(
    fc.record({
      usd: fc.option(fc.integer({ min: 1, max: 3 * M }), { nil: undefined }),
      // What the run reports, as a share of its reservation (an agent that keeps to its cap), or nothing.
      reports: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }),
      flaky: fc.boolean(),
      turns: fc.integer({ min: 0, max: 6 }),
    }),
    { minLength: 1, maxLength: 25 },
  ),
  pool: fc.integer({ min: 1, max: 6 }),
  capMicros: fc.integer({ min: 0, max: 12 * M }),
  itemCap: fc.integer({ min: 1, max: 2 * M }),
});

function world(plan: Plan) {
  const items: WorkItem<null>[] = plan.items.map((p, i) => ({ id: `i${i}`, band: 2, createdAt: i, unblocks: 0, pool: "default", claimKey: `task:i${i}`, blockedBy: [], payload: null, ...(p.usd === undefined ? {} : { usd: p.usd }) }));
  const runs: Array<{ id: string; share: number | undefined; reported: number | undefined }> = [];
  let live = 0;
  let liveReserved = 0;
  let maxCommitted = 0;
  let spent = 0;
  const loop: EngineLoop<null> = {
    name: "budgeted",
    selectQueue: async () => items,
    tierPolicy: () => "standard",
    dispatch: async (claim, it, _tier, _control, share?: RunShare) => {
      const p = plan.items[Number(it.id.slice(1))] as Plan["items"][number];
      const reserve = share === undefined ? undefined : toMicros(share.usd);
      live++;
      liveReserved += reserve ?? 0;
      maxCommitted = Math.max(maxCommitted, spent + liveReserved);
      for (let t = 0; t < p.turns; t++) await new Promise<void>((r) => setImmediate(r));
      live--;
      liveReserved -= reserve ?? 0;
      // It reports a share of what it was handed: never more (it keeps to its cap), or nothing.
      const reported = p.reports === undefined || reserve === undefined ? undefined : Math.floor((reserve * p.reports) / 1000);
      spent += reported ?? reserve ?? 0;
      runs.push({ id: it.id, share: reserve, reported });
      const result: RunResult = p.flaky && claim.epoch === 1 ? { stop: failed("retry", "flaky") } : { stop: done() };
      return reported === undefined ? result : { ...result, cost: { wall_clock_s: 0, usd: reported / M } };
    },
    land: async () => {},
    onIdle: () => {},
  };
  return { items, loop, runs, stats: () => ({ live, spent, maxCommitted }) };
}

async function drain(loop: EngineLoop<null>, store: ClaimStore, clock: Clock, ledger: MemorySpendLedger, plan: Plan, holder: string): Promise<{ summary: IdleSummary; journal: MemoryJournal }> {
  const journal = new MemoryJournal();
  const engine = new Engine(loop, store, clock, journal, { ...ENGINE_DEFAULTS, holder, pool: plan.pool, backoffMs: () => 0, budget: { ledger, itemCap: plan.itemCap } });
  return { summary: await engine.run(), journal };
}

describe("the engine under a money cap", () => {
  it("never lets spend and reservations in flight pass the cap, holds what did not fit, and a higher cap runs exactly the held ones", async () => {
    await fc.assert(
      fc.asyncProperty(planArb, async (plan) => {
        const w = world(plan);
        const clock = new ManualClock(Date.UTC(2026, 11, 3, 9));
        const store = new MemoryClaimStore();
        const cap: BudgetCap = { name: "--budget-usd", window: "day", micros: plan.capMicros };
        const first = await drain(w.loop, store, clock, new MemorySpendLedger([cap]), plan, "d1");
        // Reported spend (a run that reported nothing counts its reservation) never passes the cap,
        // nor did spend plus what was reserved by the runs in flight, at any moment.
        expect(w.stats().spent).toBeLessThanOrEqual(plan.capMicros);
        expect(w.stats().maxCommitted).toBeLessThanOrEqual(plan.capMicros);
        // Every run was handed its reservation: the brief's figure, else the per-item cap.
        for (const r of w.runs) expect(r.share).toBe(plan.items[Number(r.id.slice(1))]?.usd ?? plan.itemCap);
        const statuses = [...first.summary.items.values()].map((s) => s.status);
        // Nothing failed or went to a human for money: every item landed ok or is held, queued.
        expect(statuses.every((s) => s === "ok" || s === "held")).toBe(true);
        expect(first.summary.items.size).toBe(plan.items.length);
        const held = [...first.summary.items].filter(([, s]) => s.status === "held").map(([id]) => id);
        for (const id of held) expect(first.journal.events.some((e) => e.event === "HOLD" && e.item === id)).toBe(true);
        // Held by budget means it did not fit: the best held item's reservation is past what was left.
        if (held.length > 0) expect(first.summary.items.get(held[0] as string)?.summary).toMatch(/^held by budget: --budget-usd has \$/);

        // The next drain, with a cap high enough for everything, runs exactly the held ones.
        const before = w.runs.length;
        const second = await drain(w.loop, store, clock, new MemorySpendLedger([{ ...cap, micros: 1000 * M }]), plan, "d2");
        const ranNow = new Set(w.runs.slice(before).map((r) => r.id));
        expect([...ranNow].sort()).toEqual([...held].sort());
        expect([...second.summary.items].filter(([id]) => held.includes(id)).every(([, s]) => s.status === "ok")).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("refuses an item with nothing to reserve while a cap applies, and runs the others", async () => {
    const plan: Plan = { items: [{ reports: 500, flaky: false, turns: 0 }, { usd: 1 * M, reports: 500, flaky: false, turns: 0 }], pool: 2, capMicros: 10 * M, itemCap: 1 };
    const w = world(plan);
    const journal = new MemoryJournal();
    const engine = new Engine(w.loop, new MemoryClaimStore(), new ManualClock(), journal, { ...ENGINE_DEFAULTS, holder: "d", pool: 2, budget: { ledger: new MemorySpendLedger([{ name: "--budget-usd", window: "day", micros: 10 * M }]) } });
    const summary = await engine.run();
    expect(summary.items.get("i0")).toEqual({ status: "denied", summary: expect.stringContaining("no cost to reserve") });
    expect(summary.items.get("i1")?.status).toBe("ok");
    expect(journal.events.filter((e) => e.event === "CLAIM").map((e) => e.item)).toEqual(["i1"]);
  });

  it("an item with no figure of its own reserves the p90 of what its task class reported", async () => {
    const costs = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((c) => c * 0.1 * M);
    const items: WorkItem<null>[] = [{ id: "n", band: 2, createdAt: 0, unblocks: 0, pool: "default", claimKey: "bugfix:n", blockedBy: [], payload: null }];
    const shares: number[] = [];
    const loop: EngineLoop<null> = { name: "p90", selectQueue: async () => items, tierPolicy: () => "standard", dispatch: async (_c, _i, _t, _ctl, share) => (shares.push(share?.usd ?? -1), { stop: done() }), land: async () => {}, onIdle: () => {} };
    const engine = new Engine(loop, new MemoryClaimStore(), new ManualClock(), new MemoryJournal(), { ...ENGINE_DEFAULTS, holder: "d", pool: 1, budget: { ledger: new MemorySpendLedger([{ name: "cap", window: "day", micros: 10 * M }]), pastCosts: new Map([["n", costs]]) } });
    await engine.run();
    expect(shares).toEqual([0.9]);
  });
});
