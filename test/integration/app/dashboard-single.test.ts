/**
 * One dashboard issue per repository, pinned once, however many writers reach it at the same
 * moment (the intake reporting a broken configuration and a tick, in one process; or replicas, each
 * its own process). Judged from what the fake GitHub holds: its issues and its pinned list.
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

  // Seen failing before the fix (bench/api-economy-app.ts, three replicas starting together): each
  // replica found no dashboard, opened one and pinned it, and went on writing its own for good.
  test("replicas that each find none at the same moment leave one open dashboard, pinned once, that all of them write", async () => {
    h = await startHarness();
    const fake = h.fake;
    // Each replica its own client and its own upsert (its own memory); neither opens one before both have looked.
    let listed = 0;
    let bothListed: () => void = () => undefined;
    const looked = new Promise<void>((resolve) => (bothListed = resolve));
    const replica = () => {
      const octokit = h?.as("maintainer") as unknown as AppOctokit;
      octokit.hook.after("request", (_response, options) => {
        if (options.method === "GET" && /\/issues(\?|$)/.test(options.url) && ++listed === 2) bothListed();
      });
      octokit.hook.before("request", async (options) => {
        if (options.method === "POST" && options.url.endsWith("/issues")) await looked;
      });
      return { octokit, upsert: createDashboardUpsert(async () => "mona") };
    };
    const [a, b] = [replica(), replica()];
    await Promise.all([a.upsert(a.octokit, OWNER_REPO, `${DASHBOARD_MARKER}\na`), b.upsert(b.octokit, OWNER_REPO, `${DASHBOARD_MARKER}\nb`)]);
    await a.upsert(a.octokit, OWNER_REPO, `${DASHBOARD_MARKER}\na again`);
    await b.upsert(b.octokit, OWNER_REPO, `${DASHBOARD_MARKER}\nb again`);
    const open = [...fake.repo(REPO).issues.values()].filter((i) => i.state === "open" && (i.body ?? "").startsWith(DASHBOARD_MARKER));
    expect(open.map((i) => i.body)).toEqual([`${DASHBOARD_MARKER}\nb again`]);
    expect(fake.repo(REPO).pinnedIssues).toEqual([open[0]?.number]);
  });
});
