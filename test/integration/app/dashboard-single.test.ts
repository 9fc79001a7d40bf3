/**
 * One dashboard issue per repository, pinned once, however many writers reach it at the same
 * moment (the intake reporting a broken configuration and a tick, in one process). Judged from
 * what the fake GitHub holds: its issues and its pinned list.
 */
import { afterEach, describe, expect, test } from "vitest";
import type { AppOctokit } from "../../../src/app/app-octokit.js";
import { createDashboardUpsert } from "../../../src/app/dashboard/upsert-dashboard.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

describe("the dashboard issue", () => {
  // Seen failing before the fix: two writers both found no dashboard, and each opened and pinned one.
  test("two writes at once for a repository without one open one dashboard, pin it once, and keep the later body", async () => {
    h = await startHarness();
    const fake = h.fake;
    const octokit = h.as("maintainer") as unknown as AppOctokit;
    const upsert = createDashboardUpsert(async () => "mona");
    const results = await Promise.all([upsert(octokit, OWNER_REPO, `${DASHBOARD_MARKER}\nfirst`), upsert(octokit, OWNER_REPO, `${DASHBOARD_MARKER}\nsecond`), upsert(octokit, OWNER_REPO, `${DASHBOARD_MARKER}\nsecond`)]);
    const dashboards = [...fake.repo(REPO).issues.values()].filter((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER));
    expect(dashboards).toHaveLength(1);
    expect(fake.repo(REPO).pinnedIssues).toEqual([dashboards[0]?.number]);
    expect(dashboards[0]?.body).toBe(`${DASHBOARD_MARKER}\nsecond`);
    expect(results).toEqual(["created", "updated", "unchanged"]);
  });
});
