/** The one decision step with money facts, as a table: what it claims, holds, refuses, and when it is paused. */
import { describe, expect, test } from "vitest";
import { decideStep } from "../../../src/core/engine/decide-step.js";
import type { Decision } from "../../../src/core/engine/decision.js";
import type { StepBudget, StepOptions } from "../../../src/core/engine/step-state.js";
import { exponentialBackoff } from "../../../src/core/engine/engine-options.js";
import type { BudgetCap } from "../../../src/core/budget/budget-cap.js";

const M = 1_000_000;
const options: StepOptions = { maxAttempts: 3, backoffMs: exponentialBackoff(1000, 300_000), poolSize: (p) => ({ a: 3, b: 3 })[p] ?? 0, pools: ["a", "b"] };
const fleet: BudgetCap = { name: "fleet", window: "day", micros: 5 * M };
const poolA: BudgetCap = { name: "pool-a", window: "day", micros: 2 * M, pool: "a" };
const money = (rooms: Array<[BudgetCap, number]>, itemCap?: number, p90?: number): StepBudget => ({ rooms: rooms.map(([cap, used]) => ({ cap, used, resetsAt: 86_400_000 })), itemCap: () => itemCap, p90: () => p90 });
const short = (d: Decision): string => (d.kind === "claim" ? `claim ${d.id}${d.reserve === undefined ? "" : ` ${d.reserve / M}`}` : d.kind === "hold" ? `hold ${d.id} ${d.hold.cap}` : d.kind === "refuse" ? `refuse ${d.id}` : d.kind === "paused" ? `paused ${d.hold?.cap ?? ""}`.trim() : d.kind);

describe("decideStep with a budget", () => {
  const cases: Array<{ name: string; ready: Array<{ id: string; pool: string; usd?: number; taskClass?: string }>; budget?: StepBudget; busy?: number; heldByBudget?: number; out: string[] }> = [
    { name: "without money facts nothing changes: claims carry no reservation", ready: [{ id: "x", pool: "a", usd: 1 * M }], out: ["claim x"] },
    { name: "items reserve their own figure and are claimed while it fits", ready: [{ id: "x", pool: "b", usd: 2 * M }, { id: "y", pool: "b", usd: 3 * M }], budget: money([[fleet, 0]]), out: ["claim x 2", "claim y 3"] },
    { name: "the best item that does not fit is held and nothing behind it jumps the queue, however cheap", ready: [{ id: "x", pool: "b", usd: 2 * M }, { id: "y", pool: "b", usd: 4 * M }, { id: "z", pool: "b", usd: 1 }], budget: money([[fleet, 0]]), out: ["claim x 2", "hold y fleet"] },
    { name: "held with work in flight: not paused (a landing may free room)", ready: [{ id: "y", pool: "b", usd: 4 * M }], budget: money([[fleet, 2 * M]]), busy: 1, out: ["hold y fleet"] },
    { name: "held with nothing in flight and nothing else waiting: paused, naming the cap", ready: [{ id: "y", pool: "b", usd: 4 * M }], budget: money([[fleet, 2 * M]]), out: ["hold y fleet", "paused fleet"] },
    { name: "a pool's cap holds only that pool: the other pool's items still run", ready: [{ id: "x", pool: "a", usd: 3 * M }, { id: "y", pool: "a", usd: 1 }, { id: "z", pool: "b", usd: 1 * M }], budget: money([[fleet, 0], [poolA, 0]]), out: ["hold x pool-a", "hold y pool-a", "claim z 1"] },
    { name: "no figure of its own: the per-item cap, then the p90 of its class", ready: [{ id: "x", pool: "b" }], budget: money([[fleet, 0]], 0.5 * M, 0.2 * M), out: ["claim x 0.5"] },
    { name: "no figure and no per-item cap: the p90", ready: [{ id: "x", pool: "b", taskClass: "bugfix" }], budget: money([[fleet, 0]], undefined, 0.2 * M), out: ["claim x 0.2"] },
    { name: "no figure at all under a cap: refused, and the next item is still looked at", ready: [{ id: "x", pool: "b" }, { id: "y", pool: "b", usd: 1 * M }], budget: money([[fleet, 0]]), out: ["refuse x", "claim y 1"] },
    { name: "no figure and no cap covering its pool: claimed as before", ready: [{ id: "x", pool: "b" }], budget: money([[poolA, 0]]), out: ["claim x"] },
    { name: "items the face holds back count: paused, not idle", ready: [], budget: money([[fleet, 5 * M]]), heldByBudget: 3, out: ["paused"] },
    { name: "an empty queue with nothing held is idle", ready: [], budget: money([[fleet, 5 * M]]), out: ["idle"] },
  ];
  test.each(cases)("$name", ({ ready, budget, busy, heldByBudget, out }) => {
    const decisions = decideStep({ now: 0, held: [], ready, ...(budget === undefined ? {} : { budget }), ...(busy === undefined ? {} : { busy: new Map([["b", busy]]) }), ...(heldByBudget === undefined ? {} : { heldByBudget }) }, options);
    expect(decisions.map(short)).toEqual(out);
  });

  test("a lazy feed gives up nothing past a fleet-wide hold", () => {
    let read = 0;
    function* feed() {
      for (let i = 0; i < 100; i++) {
        read++;
        yield { id: `i${i}`, pool: "b", usd: 2 * M };
      }
    }
    decideStep({ now: 0, held: [], ready: feed(), budget: money([[fleet, 0]]) }, options);
    expect(read).toBe(3);
  });
});
