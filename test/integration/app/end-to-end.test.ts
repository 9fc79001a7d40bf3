/** The whole app over real HTTP: a writer's label, the intake's snapshot, the scheduler's claim and dispatch, the run's landing, the dashboard. */
import { afterEach, describe, expect, test } from "vitest";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n";

let h: Harness | undefined;
afterEach(async () => h?.close());

describe("the app from label to landing", () => {
  test("label → snapshot and queued → claimed and dispatched → run succeeds → done, on the dashboard", async () => {
    // A dashboard written after every tick, so the landing shows at once (the throttle has its own test).
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0 });
    h.fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
    const first = h.issue(formBody({ Priority: "P1" }), "first");
    const second = h.issue(formBody({ Priority: "P2" }), "second");
    for (const n of [second, first]) await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();

    const runs = () => [...h!.fake.repo(REPO).workflowRuns.values()].map((r) => ({ id: r.id, item: Number(r.inputs["item"]), epoch: Number(r.inputs["epoch"]), status: r.status }));
    // Pool of one: the P1 item first, whatever the order of approval.
    expect(runs()).toMatchObject([{ item: first, epoch: 1, status: "queued" }]);
    expect(h.labelsOf(first)).toEqual(["bosun:claimed", "bosun:queued", "bosun:ready"]);
    expect(h.fake.repo(REPO).refs.has(`refs/bosun/claims/${first}`)).toBe(true);

    h.fake.completeWorkflowRun(REPO, runs()[0]!.id, "success");
    await h.fake.webhooks.flush();
    expect(h.labelsOf(first)).toEqual(["bosun:done", "bosun:ready"]);
    // The landing refilled the pool.
    expect(runs().map((r) => r.item)).toEqual([first, second]);

    const dashboard = [...h.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER));
    expect(dashboard?.body).toContain(`#${second}`);
    expect(dashboard?.body).toMatch(new RegExp(`#${first}`));
    // Fleet metrics from the app's own journal: one run, landed done.
    expect(dashboard?.body).toContain("## Fleet metrics");
    expect(dashboard?.body).toMatch(/Stop reasons \(1 runs?\)/);
    expect(dashboard?.body).toMatch(/^ {2}done\s+1\s+100\.0%$/m);
  });
});
