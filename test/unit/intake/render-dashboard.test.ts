/** The dashboard body: deterministic markdown with the marker, escaped user text, every section the state holds. */
import { describe, expect, test } from "vitest";
import { DASHBOARD_MARKER, type DashboardState } from "../../../src/core/dashboard/dashboard-state.js";
import { renderDashboard } from "../../../src/core/dashboard/render-dashboard.js";

const T = Date.UTC(2026, 0, 1);
const base: DashboardState = { repo: "acme/app", generatedAt: T, idle: true, policy: "hybrid", configProblems: [], pools: [{ name: "default", size: 2, queue: [], inFlight: [] }], needsHuman: [], invalid: [], recentLands: [] };

describe("renderDashboard", () => {
  test("an idle fleet says so, under the marker", () => {
    const body = renderDashboard(base);
    expect(body.startsWith(`${DASHBOARD_MARKER}\n`)).toBe(true);
    expect(body).toContain("**Idle**");
    expect(body).toContain("Queue: empty.");
  });

  test("every section of a busy state, in order, with the reason for each position and lease ends", () => {
    const body = renderDashboard({
      ...base,
      idle: false,
      configProblems: [{ field: "pools.gpu.size", message: "must be a whole number" }],
      pools: [
        {
          name: "default",
          size: 2,
          queue: [
            { issue: 4, title: "First", band: 0, reason: "P0, waiting 2.0h" },
            { issue: 9, title: "Second", band: 2, reason: "P2, waiting 5.0h" },
          ],
          inFlight: [{ issue: 3, title: "Running", holder: "drain-1", epoch: 2, leaseUntil: T + 1_800_000, runUrl: "https://github.com/acme/app/actions/runs/1" }],
        },
      ],
      needsHuman: [{ issue: 5, title: "Stuck", reason: "cannot classify the failure" }],
      invalid: [{ issue: 6, title: "Bad", problems: ["size_cap: must be a whole number"] }],
      recentLands: [{ issue: 2, title: "Done", ok: true, summary: "npm test exit 0", at: T }],
      shadow: { policy: "index", ticks: 40, differing: 4 },
    });
    expect(body).toContain("`pools.gpu.size`: must be a whole number");
    expect(body.indexOf("1. [ ] <!-- bosun:hold=4 --> #4 First (P0): P0, waiting 2.0h")).toBeLessThan(body.indexOf("2. [ ] <!-- bosun:hold=9 --> #9 Second (P2)"));
    expect(body).toContain("lease ends in 30 min (2026-01-01 00:30 UTC)");
    expect(body).toContain("- [ ] <!-- bosun:retry=5 --> #5 Stuck: cannot classify the failure");
    expect(body).toContain("`size_cap: must be a whole number`");
    expect(body).toContain("differed on 4 of 40 ticks (10.0%)");
    const order = ["Configuration problems", "Pool `default`", "Needs a human", "Invalid briefs", "Recent lands", "Shadow policy"].map((s) => body.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i > 0)).toBe(true);
  });

  test("titles cannot inject markup, mentions or HTML", () => {
    const body = renderDashboard({ ...base, idle: false, needsHuman: [{ issue: 1, title: "@mona <img src=x> [x](http://e) **b**\n## Fake", reason: "r" }] });
    expect(body).not.toContain("@mona");
    expect(body).not.toMatch(/(?<!\\)<img/); // escaped with a backslash: shown, not rendered
    expect(body).not.toMatch(/^## Fake/m);
  });

  test("the same state renders the same body whatever the time, so unchanged dashboards are not rewritten", () => {
    expect(renderDashboard({ ...base, generatedAt: T + 60_000 })).toBe(renderDashboard(base));
  });

  test("shows claim denials by reason, so the guard's false-denial rate can be watched", () => {
    const body = renderDashboard({ ...base, denials: { similar: 3, evidence: 1, "not-ready": 2 } });
    expect(body).toContain("## Claims denied");
    expect(body).toContain("evidence 1, not-ready 2, similar 3");
    expect(renderDashboard(base)).not.toContain("Claims denied");
  });
});

