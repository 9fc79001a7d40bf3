import { describe, expect, it } from "vitest";
import type { DashboardState } from "../../../src/core/dashboard/dashboard-state.js";
import type { AppOctokit } from "../../../src/app/app-octokit.js";
import { throttledDashboard } from "../../../src/app/dashboard/throttled-dashboard.js";

const T = Date.parse("2026-11-30T12:00:00Z");
const base: DashboardState = { repo: "acme/app", generatedAt: T, idle: false, policy: "hybrid", configProblems: [], pools: [{ name: "default", size: 2, queue: [], inFlight: [] }], needsHuman: [], invalid: [], recentLands: [] };
const octokit = {} as AppOctokit;
const repo = { owner: "acme", repo: "app" };

function setup() {
  let now = T;
  const written: string[] = [];
  const refresh = throttledDashboard(
    async (_o, _r, body) => {
      written.push(body);
      return "updated";
    },
    { now: () => now, minIntervalMs: 300_000 },
  );
  return { refresh, written, advance: (ms: number) => (now += ms) };
}

describe("the throttled dashboard", () => {
  it("writes the first state, then routine changes at most once per interval", async () => {
    const d = setup();
    expect(await d.refresh(octokit, repo, base)).toBe("updated");
    d.advance(60_000);
    expect(await d.refresh(octokit, repo, { ...base, recentLands: [{ issue: 3, title: "x", ok: true, summary: "done", at: T }] })).toBe("deferred");
    d.advance(240_000);
    expect(await d.refresh(octokit, repo, { ...base, recentLands: [{ issue: 3, title: "x", ok: true, summary: "done", at: T }] })).toBe("updated");
    expect(d.written).toHaveLength(2);
    expect(d.written[1]).toContain("#3");
  });

  it("writes at once what a maintainer acts on: idle, an item for a human, an invalid brief, a broken config", async () => {
    const d = setup();
    await d.refresh(octokit, repo, base);
    expect(await d.refresh(octokit, repo, { ...base, idle: true })).toBe("updated");
    expect(await d.refresh(octokit, repo, { ...base, idle: true, needsHuman: [{ issue: 4, title: "y", reason: "failed" }] })).toBe("updated");
    expect(await d.refresh(octokit, repo, { ...base, idle: true, needsHuman: [{ issue: 4, title: "y", reason: "failed" }], invalid: [{ issue: 5, title: "z", problems: ["goal: required"] }] })).toBe("updated");
    expect(await d.refresh(octokit, repo, { ...base, idle: true, needsHuman: [{ issue: 4, title: "y", reason: "failed" }], invalid: [{ issue: 5, title: "z", problems: ["goal: required"] }], configProblems: [{ field: "pools", message: "bad" }] })).toBe("updated");
    // The same headline again, a moment later: nothing new to act on.
    expect(await d.refresh(octokit, repo, { ...base, idle: true, needsHuman: [{ issue: 4, title: "y", reason: "failed" }], invalid: [{ issue: 5, title: "z", problems: ["goal: required"] }], configProblems: [{ field: "pools", message: "bad" }] })).toBe("deferred");
    expect(d.written).toHaveLength(5);
  });
});
