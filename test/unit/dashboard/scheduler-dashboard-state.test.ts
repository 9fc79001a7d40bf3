import { describe, expect, it } from "vitest";
import { schedulerDashboardState } from "../../../src/app/dashboard/scheduler-dashboard-state.js";
import type { TickReport } from "../../../src/app/scheduler/reconcile-tick.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { renderDashboard } from "../../../src/core/dashboard/render-dashboard.js";

const T = Date.UTC(2026, 0, 1);
const parsed = parseConfig("pools: { default: { size: 1, dispatch: { kind: comment } }, gpu: { size: 0, dispatch: { kind: comment } } }\n");
if (!parsed.ok) throw new Error("config should parse");
const config = parsed.config;

const report: TickReport = {
  busy: false,
  idle: false,
  dispatched: [],
  landed: [],
  reclaimed: [],
  revived: [],
  inFlight: [{ issue: 3, title: "Running", pool: "default", holder: "app-1", epoch: 1, leaseUntil: T + 4 * 60_000 }],
  queue: [{ pool: "default", items: [{ issue: 3, title: "Running", band: 2, reason: "P2" }, { issue: 7, title: "Next", band: 2, reason: "P2" }] }],
  skipped: [{ issue: 8, title: "Edited", reason: "labelled bosun:hold" }],
};

function body(recentLands = [] as Parameters<typeof schedulerDashboardState>[0]["recentLands"]): string {
  return renderDashboard(schedulerDashboardState({ repo: "acme/app", now: T, config, problems: [], report, recentLands, shadow: { ticks: 0, differing: 0 } }));
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

  it("offers a release box for a held item and a retry box for one landed to a human; lands keep their titles", () => {
    const text = body([
      { issue: 5, title: "Broken", ok: false, disposition: "human", summary: "failed: exit 3", at: T },
      { issue: 6, title: "Retrying", ok: false, disposition: "retry", summary: "exit 75", at: T },
      { issue: 2, title: "Shipped", ok: true, disposition: "ok", summary: "done", at: T },
    ]);
    expect(text).toContain("- [ ] <!-- bosun:release=8 --> #8 Edited");
    expect(text).toContain("- [ ] <!-- bosun:retry=5 --> #5 Broken: failed: exit 3");
    expect(text).not.toContain("bosun:retry=6");
    expect(text).toContain("- [ ] <!-- bosun:requeue=2 --> ✅ #2 Shipped: done (2026-01-01 00:00 UTC)");
    expect(text).not.toContain("\\#");
  });
});
