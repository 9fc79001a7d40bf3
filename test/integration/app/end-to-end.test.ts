/**
 * The whole app over real HTTP, one item's life on its records (docs/lifecycle.md): a writer's
 * label, the snapshot, the claim and dispatch, the run's landing with its pull request (review,
 * not done), the gate's verdict, the merge (done), and the dashboard all along.
 */
import { afterEach, describe, expect, test } from "vitest";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n";
// The trusted gate job posts `bosun/gate` as the Bosun App (docs/workflows/bosun-gate.yml mints its token).
const APP_GATE_TOKEN = "ghs_bosun_app_token_of_the_gate_job_00";
// Any workflow, including one the pull request edits, can post check runs as github-actions.
const ACTIONS_TOKEN = "ghs_github_actions_in_a_pr_workflow_00";

let h: Harness | undefined;
afterEach(async () => h?.close());

const dashboardBody = (harness: Harness) => [...harness.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER))?.body ?? "";

/** A `bosun/gate` check run on a commit, as whoever holds `token` posts it. */
async function postGate(harness: Harness, token: string, item: number, sha: string, verdict: "pass" | "fail"): Promise<void> {
  const brief = /"hash": "(sha256:[0-9a-f]{64})"/.exec(harness.comments(item).find(([author, body]) => author === BOT && body.includes('"hash"'))?.[1] ?? "")?.[1] ?? null;
  expect(brief).not.toBeNull();
  await createTestOctokit(harness.fake.url, token).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: sha, status: "completed", conclusion: verdict === "pass" ? "success" : "failure", output: { title: verdict, summary: renderGateCheckMarker({ v: 1, item: String(item), brief, verdict, sha }) } });
  await harness.fake.webhooks.flush();
}

/** The item's one pull request as the work land job opens it: a commit on Bosun's branch, the pull request by the App. */
async function openItemPull(harness: Harness, n: number): Promise<{ number: number; headSha: string }> {
  const branch = `bosun/${n}-retry-after`;
  harness.fake.setRef(REPO, branch, harness.fake.repo(REPO).refs.get("refs/heads/main") ?? "");
  harness.fake.commit(REPO, branch, `#${n}: honor Retry-After`, { "src/http/client.ts": "export const retryAfter = true;\n" }, BOT);
  const { data } = await createTestOctokit(harness.fake.url, APP_GATE_TOKEN).pulls.create({ ...OWNER_REPO, title: `#${n}: honor Retry-After`, body: `Closes #${n}`, head: branch, base: "main" });
  return { number: data.number, headSha: data.head.sha };
}

describe("the app from label to done", () => {
  test("label → snapshot and queued → claimed and dispatched → run succeeds with its PR (review) → gate passes → merged → done, on the dashboard", async () => {
    // A dashboard written after every tick, so each step shows at once (the throttle has its own test).
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0, moreEvents: ["check_run"] });
    const fake = h.fake;
    fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
    fake.addInstallation({ id: 777, appId: 15368, appSlug: "github-actions", repos: [REPO] });
    fake.state.tokens.set(ACTIONS_TOKEN, { kind: "bot", login: "github-actions[bot]", installationId: 777 });
    fake.state.tokens.set(APP_GATE_TOKEN, { kind: "bot", login: BOT, installationId: 501 });
    const first = h.issue(formBody({ Priority: "P1" }), "first");
    const second = h.issue(formBody({ Priority: "P2" }), "second");
    for (const n of [second, first]) await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await fake.webhooks.flush();

    const runs = () => [...fake.repo(REPO).workflowRuns.values()].map((r) => ({ id: r.id, item: Number(r.inputs["item"]), epoch: Number(r.inputs["epoch"]), status: r.status }));
    // Pool of one: the P1 item first, whatever the order of approval.
    expect(runs()).toMatchObject([{ item: first, epoch: 1, status: "queued" }]);
    expect(h.labelsOf(first)).toEqual(["bosun:claimed", "bosun:ready"]);
    expect(h.labelsOf(second)).toEqual(["bosun:queued", "bosun:ready"]);
    expect(fake.repo(REPO).refs.has(`refs/bosun/claims/${first}`)).toBe(true);
    expect(dashboardBody(h)).not.toContain("**Idle**");

    // The worker publishes the item's pull request on Bosun's branch, then its run ends.
    const pull = await openItemPull(h, first);
    fake.completeWorkflowRun(REPO, runs()[0]!.id, "success");
    await fake.webhooks.flush();
    // A run that succeeded is "PR open, gate pending", never done: bosun:done means merged.
    expect(h.labelsOf(first)).toEqual(["bosun:ready", "bosun:review"]);
    // On the dashboard it is in review, not among the lands (✅ is for done, ❌ for a failure).
    expect(dashboardBody(h)).toContain(`#${first} first: pull request #${pull.number}, bosun/gate pending`);
    expect(dashboardBody(h)).not.toMatch(new RegExp(`[✅❌] #${first}\\b`));
    // The landing freed the slot: the pool refilled.
    expect(runs().map((r) => r.item)).toEqual([first, second]);
    expect(h.labelsOf(second)).toEqual(["bosun:claimed", "bosun:ready"]);

    // A pass posted by github-actions (any workflow the PR edits can) is no verdict; the App's is.
    await postGate(h, ACTIONS_TOKEN, first, pull.headSha, "pass");
    expect(dashboardBody(h)).not.toMatch(new RegExp(`#${first}[^\\n]*pass`));
    // The App's pass moves nothing (the item waits for separation and a merge, people's moves): its
    // webhook is kept as the verdict, and sets off no tick — no listing, no write.
    const beforePass = h.logPosition();
    await postGate(h, APP_GATE_TOKEN, first, pull.headSha, "pass");
    // (The gate workflow posts as the App too: its one write aside.)
    expect(h.botRequests(beforePass).filter((r) => !r.startsWith("POST /repos/{owner}/{repo}/check-runs "))).toEqual([]);
    expect(h.labelsOf(first)).toEqual(["bosun:ready", "bosun:review"]);
    expect(fake.repo(REPO).issues.get(first)?.state).toBe("open");

    // The merge ends it (this repository does not verify deployments): done, the issue closed as completed.
    await h.as("maintainer").pulls.merge({ ...OWNER_REPO, pull_number: pull.number });
    await fake.webhooks.flush();
    expect(h.labelsOf(first)).toEqual(["bosun:done", "bosun:ready"]);
    expect(fake.repo(REPO).issues.get(first)).toMatchObject({ state: "closed", stateReason: "completed" });

    const dashboard = dashboardBody(h);
    expect(dashboard).toContain(`#${second}`);
    expect(dashboard).toMatch(new RegExp(`✅ #${first} first`));
    // Fleet metrics from the app's own journal: one run, landed done; its gate passed.
    expect(dashboard).toContain("## Fleet metrics");
    expect(dashboard).toMatch(/Stop reasons \(1 runs?\)/);
    expect(dashboard).toMatch(/^ {2}done\s+1\s+100\.0%$/m);
    expect(dashboard).toMatch(/Cost per accepted task \(1 accepted/);
  });
});
