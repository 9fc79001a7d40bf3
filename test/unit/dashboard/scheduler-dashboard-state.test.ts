import { describe, expect, it } from "vitest";
import { schedulerDashboardState } from "../../../src/app/dashboard/scheduler-dashboard-state.js";
import type { TickView } from "../../../src/core/scheduler/tick-plan.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { renderDashboard } from "../../../src/core/dashboard/render-dashboard.js";

const T = Date.UTC(2026, 0, 1);
const parsed = parseConfig("pools: { default: { size: 1, dispatch: { kind: comment } }, gpu: { size: 0, dispatch: { kind: comment } } }\n");
if (!parsed.ok) throw new Error("config should parse");
const config = parsed.config;

const view: TickView = {
  idle: false,
  landed: [],
  inFlight: [{ n: 3, title: "Running", pool: "default", holder: "app-1", epoch: 1, leaseUntil: T + 4 * 60_000 }],
  queue: [{ pool: "default", items: [{ n: 7, title: "Next", band: 2, reason: "P2" }] }],
  waiting: [{ n: 8, title: "Edited", reason: "labelled bosun:hold" }, { n: 9, title: "Child", reason: "blocked by parent" }],
  review: [{ n: 4, title: "Reviewed", pull: 12, state: "review", gate: "pass" }],
  needsHuman: [{ n: 5, title: "Broken", reason: "failed: exit 3" }],
  invalid: [],
  notes: [{ n: 6, title: "Forged", note: "its claim ref points at a commit not written by Bosun (unsigned)" }],
};

function body(recentLands = [] as Parameters<typeof schedulerDashboardState>[0]["recentLands"]): string {
  return renderDashboard(schedulerDashboardState({ repo: "acme/app", now: T, config, problems: [], view, recentLands }));
}

describe("the scheduler's dashboard", () => {
  it("lists an in-flight item once, under In flight, with its lease end relative to now", () => {
    const text = body();
    expect(text.match(/#3 Running/g)).toHaveLength(1);
    expect(text).toContain("- #3 Running: held by `app-1`, epoch 1, lease ends in 4 min (2026-01-01 00:04 UTC)");
    expect(text).toContain("1. [ ] <!-- bosun:hold=7 --> #7 Next (P2)");
  });

  it("says a pool of size 0 dispatches nothing, and only for that pool", () => {
    const text = body();
    expect(text.match(/Size 0: nothing in this pool is dispatched/g)).toHaveLength(1);
    expect(text.indexOf("Size 0")).toBeGreaterThan(text.indexOf("## Pool `gpu`"));
  });

  it("shows what is in review, what waits and why, and what a maintainer should know", () => {
    const text = body();
    expect(text).toContain("**Working**: 1 queued, 1 in flight, 1 in review, 1 waiting.");
    expect(text).toContain("- #4 Reviewed: pull request #12, bosun/gate pass");
    expect(text).toContain("- #9 Child: blocked by parent");
    expect(text).toContain("- #6 Forged: its claim ref points at a commit not written by Bosun \\(unsigned\\)");
  });

  it("offers a release box for a held item and a retry box for one landed to a human; lands keep their titles", () => {
    const text = body([
      { issue: 6, title: "Retrying", ok: false, summary: "exit 75", at: T },
      { issue: 2, title: "Shipped", ok: true, summary: "done", at: T },
    ]);
    expect(text).toContain("- [ ] <!-- bosun:release=8 --> #8 Edited");
    expect(text).toContain("- [ ] <!-- bosun:retry=5 --> #5 Broken: failed: exit 3");
    expect(text).not.toContain("bosun:retry=6");
    expect(text).toContain("- [ ] <!-- bosun:requeue=2 --> ✅ #2 Shipped: done (2026-01-01 00:00 UTC)");
    expect(text).not.toContain("\\#");
  });

  it("shows each cap's spend, reservations, what is left and when it resets, and spend by what became of the runs", () => {
    const M = 1_000_000;
    const budget = {
      caps: [
        { name: "budgets.fleet.day_usd", window: "day" as const, micros: 5 * M, spent: 1.25 * M, reserved: 0.5 * M, resetsAt: T + 86_400_000 },
        { name: "budgets.pools.default.week_usd", window: "week" as const, pool: "default", micros: 20 * M, spent: 21 * M, reserved: 0, resetsAt: T + 4 * 86_400_000 },
      ],
      today: { accepted: 0.75 * M, failed: 0.5 * M, open: 0.5 * M },
      week: { accepted: 15 * M, failed: 6 * M, open: 0.5 * M },
    };
    const text = renderDashboard(schedulerDashboardState({ repo: "acme/app", now: T, config, problems: [], view: { ...view, budget }, recentLands: [] }));
    expect(text).toContain("| `budgets.fleet.day_usd`: $5.00 per UTC day | $1.25 | $0.50 | $3.25 | 2026-01-02 00:00 UTC |");
    // Past its cap (a run's reported cost overran its reservation): nothing left, never a negative figure.
    expect(text).toContain("| `budgets.pools.default.week_usd`: $20.00 per week | $21.00 | $0.00 | $0.00 | 2026-01-05 00:00 UTC |");
    expect(text).toContain("Spent today (UTC): $1.75 — $0.75 on accepted work, $0.50 on runs that failed, were refused or were never accepted, $0.50 on runs in flight or in review.");
    expect(text).toContain("Spent this week (from Monday): $21.50 — $15.00 on accepted work, $6.00 on runs that failed");
  });

  it("says the fleet is paused by its budget, naming the cap, rather than working or idle", () => {
    const paused = "held by budget: budgets.fleet.day_usd has $0.20 left of its UTC day, the item reserves $0.50; resets 2026-01-02T00:00:00.000Z";
    const text = renderDashboard(schedulerDashboardState({ repo: "acme/app", now: T, config, problems: [], view: { ...view, inFlight: [], review: [], waiting: [], paused }, recentLands: [] }));
    expect(text).toContain("**Paused by budget**: 1 queued, nothing in flight: held by budget: budgets.fleet.day\\_usd has $0.20 left");
    expect(text).not.toContain("**Working**");
  });
});
