/** The dashboard's Setup section: doctor's problems with their fixes, inert markdown, written at once when they change. */
import { describe, expect, it } from "vitest";
import type { AppOctokit } from "../../../src/app/app-octokit.js";
import { throttledDashboard } from "../../../src/app/dashboard/throttled-dashboard.js";
import type { DashboardState } from "../../../src/core/dashboard/dashboard-state.js";
import { renderDashboard } from "../../../src/core/dashboard/render-dashboard.js";
import { renderSetupSection } from "../../../src/core/dashboard/render-setup-section.js";
import { setupSectionOf } from "../../../src/core/dashboard/setup-section.js";
import { couldNotCheck, ok, problem } from "../../../src/core/setup/setup-finding.js";

const T = Date.parse("2026-11-30T12:00:00Z");
const base: DashboardState = { repo: "acme/app", generatedAt: T, idle: true, policy: "hybrid", configProblems: [{ field: "pools", message: "bad" }], pools: [], needsHuman: [], invalid: [], recentLands: [] };

describe("the Setup section", () => {
  const findings = [
    ok("config", ".github/bosun.yml on main is valid"),
    problem("required-checks", "main requires bosun/gate from any source", "require it from the App", "bosun/gate"),
    problem("workflows", ".github/workflows/x.yml: job 'a' reads secrets the template does not: @mona <img src=x> `code`", "undo it", ".github/workflows/x.yml"),
    couldNotCheck("environment-secrets", "HTTP 403", "an admin's token"),
    couldNotCheck("environment-secrets", "HTTP 403 again", "an admin's token"),
  ];

  it("lists each problem with its check, subject and fix; names the checks it could not make once each", () => {
    const lines = renderSetupSection(setupSectionOf("acme/app", findings));
    expect(lines[0]).toBe("## Setup");
    expect(lines).toContain("`bosun doctor` finds 2 problems in this repository's setup; each one voids a guarantee until it is fixed:");
    expect(lines).toContain("- **required-checks** (bosun/gate): main requires bosun/gate from any source. Fix: require it from the App");
    expect(lines.join("\n")).toContain("Not checked here (the App's permissions do not reach them): `environment-secrets`. An admin checks them with `npx bosun doctor --repo acme/app`.");
  });

  it("keeps text from the repository inert: no mention, HTML or code span gets through", () => {
    const text = renderSetupSection(setupSectionOf("acme/app", findings)).join("\n");
    expect(text).not.toContain("@mona");
    expect(text).toContain("@\u200bmona \\<img src=x\\> \\`code\\`");
  });

  it("says so when every check the App can make holds; shows nothing before the first read", () => {
    expect(renderSetupSection(setupSectionOf("acme/app", [ok("config", "valid")]))).toEqual(["## Setup", "", "Every setup check the App can make holds.", ""]);
    expect(renderSetupSection(undefined)).toEqual([]);
  });

  it("sits in the dashboard after the configuration problems, and the same state renders the same body", () => {
    const state = { ...base, setup: setupSectionOf("acme/app", findings) };
    const body = renderDashboard(state);
    expect(body.indexOf("## Configuration problems")).toBeLessThan(body.indexOf("## Setup"));
    expect(renderDashboard(state)).toBe(body);
    expect(renderDashboard(base)).not.toContain("## Setup");
  });

  it("a new setup problem is written at once, not after the routine interval", async () => {
    const written: string[] = [];
    const refresh = throttledDashboard(
      async (_o, _r, body) => {
        written.push(body);
        return "updated";
      },
      { now: () => T, minIntervalMs: 300_000 },
    );
    const repo = { owner: "acme", repo: "app" };
    await refresh({} as AppOctokit, repo, { ...base, setup: setupSectionOf("acme/app", [ok("config", "valid")]) });
    expect(await refresh({} as AppOctokit, repo, { ...base, setup: setupSectionOf("acme/app", findings) })).toBe("updated");
    expect(written[1]).toContain("main requires bosun/gate from any source");
  });
});
