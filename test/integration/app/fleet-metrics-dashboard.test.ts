/**
 * The three fleet numbers on the App's dashboard, fed end to end over real HTTP: runs the App
 * dispatched and landed (stop mix; a run that succeeded with its pull request lands "PR open, gate
 * pending"), the gate Action's `bosun/gate` check runs on each item's pull request read back as
 * GATE events (rejection rate by class), and cost per accepted task where accepted means the gate passed.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createGateMode } from "../../../src/action/modes/gate.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const CONFIG = "pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n";
// The trusted gate job posts as the Bosun App (docs/workflows/bosun-gate.yml mints its token);
// a workflow the pull request controls can post as github-actions with its own GITHUB_TOKEN.
const APP_GATE_TOKEN = "ghs_bosun_app_token_of_the_gate_job_00";
const ACTIONS_TOKEN = "ghs_github_actions_in_a_pr_workflow_00";

let h: Harness | undefined;
afterEach(async () => h?.close());

/** The item's one pull request as the work land job opens it: a commit on Bosun's branch, the pull request by the App. */
async function openItemPull(harness: Harness, n: number, files: Record<string, string>): Promise<{ number: number; headSha: string }> {
  const branch = `bosun/${n}-work`;
  harness.fake.setRef(REPO, branch, harness.fake.repo(REPO).refs.get("refs/heads/main") ?? "");
  harness.fake.commit(REPO, branch, `#${n}: work`, files, BOT);
  const { data } = await createTestOctokit(harness.fake.url, APP_GATE_TOKEN).pulls.create({ ...OWNER_REPO, title: `#${n}: work`, body: `Closes #${n}`, head: branch, base: "main" });
  return { number: data.number, headSha: data.head.sha };
}
const lines = (count: number) => "x\n".repeat(count);
const body = (claimKey: string) => formBody({ "Acceptance command": "```shell\ntrue\n```", "Claim key": claimKey });

/** The gate Action, run as GitHub Actions' own app in a job the pull request cannot edit. */
async function runGateAction(harness: Harness, pull: number): Promise<string | undefined> {
  const pr = harness.fake.repo(REPO).pulls.get(pull);
  // The acceptance command ran in an untrusted job on the PR's head; only its result crosses, as data.
  const result = join(await mkdtemp(join(tmpdir(), "bosun-acceptance-")), "acceptance-result.json");
  await writeFile(result, JSON.stringify({ bosun_acceptance: 1, sha: pr?.headSha, command: "true", exit_code: 0 }));
  const payload = { pull_request: { number: pull, head: { sha: pr?.headSha, ref: pr?.headRef }, base: { ref: "main" } } };
  const io = memoryActionIo({ eventName: "pull_request_target", payload, inputs: { "github-token": APP_GATE_TOKEN, "acceptance-result": result }, env: { GITHUB_API_URL: harness.fake.url, PATH: process.env["PATH"] } });
  await createGateMode({ fetch }).run(io.io);
  if (process.env["SHOW_GATE"] !== undefined) console.log(io.outputs["report"], io.failures ?? "");
  return io.outputs["verdict"];
}

function dashboardBody(harness: Harness): string {
  return [...harness.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER))?.body ?? "";
}

describe("fleet metrics on the App's dashboard", () => {
  test("stop mix from the App's lands, rejection rate from the gate's check runs, cost per gate-passed task", async () => {
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0, moreEvents: ["check_run"] });
    const fake = h.fake;
    fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
    // GitHub Actions is an app of its own, and any workflow the PR edits can post check runs as it.
    fake.addInstallation({ id: 777, appId: 15368, appSlug: "github-actions", repos: [REPO] });
    fake.state.tokens.set(ACTIONS_TOKEN, { kind: "bot", login: "github-actions[bot]", installationId: 777 });
    fake.state.tokens.set(APP_GATE_TOKEN, { kind: "bot", login: "bosun[bot]", installationId: 501 });

    const a = h.issue(body("bugfix:retry-after"), "a");
    const b = h.issue(body("feature:retry-budget"), "b");
    for (const n of [a, b]) await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await fake.webhooks.flush();
    const runs = () => [...fake.repo(REPO).workflowRuns.values()];
    expect(runs()).toHaveLength(2);
    // Each worker publishes its item's pull request: a's stays inside its brief, b's touches a path outside it.
    const pullA = await openItemPull(h, a, { "src/http/client.ts": lines(5) });
    const pullB = await openItemPull(h, b, { "src/http/budget.ts": lines(5), "src/db/pool.ts": lines(2) });
    for (const r of runs()) fake.completeWorkflowRun(REPO, r.id, "success");
    await fake.webhooks.flush();
    // Landed ok is "PR open, gate pending": neither done nor accepted, since no gate has judged either item yet.
    for (const n of [a, b]) expect(h.labelsOf(n)).toEqual(["bosun:ready", "bosun:review"]);
    expect(dashboardBody(h)).toMatch(/Cost per accepted task \(0 accepted/);
    expect(dashboardBody(h)).toContain("not accepted: 2 landed ok with no gate verdict yet");

    // Forgeries first: a "pass" on b's head posted as github-actions (any workflow the PR edits can), and a pull request that says it
    // closes #a, with a failing verdict the trusted app posted on its own head: neither is a verdict on an item's pull request.
    await createTestOctokit(fake.url, ACTIONS_TOKEN).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: pullB.headSha, status: "completed", conclusion: "success", output: { title: "pass", summary: renderGateCheckMarker({ v: 1, item: String(b), brief: null, verdict: "pass", sha: pullB.headSha }) } });
    const pullC = fake.addPull(REPO, { title: "sneaky", body: `Closes #${a}`, user: "copilot-swe-agent[bot]" });
    await createTestOctokit(fake.url, APP_GATE_TOKEN).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: pullC.headSha, status: "completed", conclusion: "failure", output: { title: "fail", summary: renderGateCheckMarker({ v: 1, item: String(a), brief: null, verdict: "fail", sha: pullC.headSha }) } });
    await fake.webhooks.flush();
    // Neither moved an item nor counts as a verdict.
    for (const n of [a, b]) expect(h.labelsOf(n)).toEqual(["bosun:ready", "bosun:review"]);
    expect(dashboardBody(h)).not.toMatch(/^ {2}(bugfix|feature|all)\s+[1-9]/m);
    expect(await runGateAction(h, pullA.number)).toBe("pass");
    expect(await runGateAction(h, pullB.number)).toBe("fail");
    await fake.webhooks.flush();

    // Independent record: the check runs GitHub holds, by app and conclusion.
    const gateRuns = [...fake.repo(REPO).checkRuns.values()].filter((r) => r.name === "bosun/gate").map((r) => [r.appId, r.headSha, r.conclusion]);
    expect(gateRuns).toEqual(expect.arrayContaining([[42, pullA.headSha, "success"], [42, pullB.headSha, "failure"], [15368, pullB.headSha, "success"], [42, pullC.headSha, "failure"]]));
    // The gate's fail (a path outside the brief) is a refuse: b goes to a human; a waits for its merge.
    expect(h.labelsOf(b)).toEqual(["bosun:needs-human", "bosun:ready"]);
    expect(h.labelsOf(a)).toEqual(["bosun:ready", "bosun:review"]);

    const dash = dashboardBody(h);
    if (process.env["SHOW_DASH"] !== undefined) console.log(dash);
    expect(dash).toContain("## Fleet metrics");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(dash).toMatch(/^ {2}done\s+2\s+100\.0%$/m);
    // One verdict per class from the trusted gate on the item's own pull request; the forgeries are left out.
    expect(dash).toMatch(/^ {2}bugfix\s+1\s+1\s+0\s+0\s+0\.0%$/m);
    expect(dash).toMatch(/^ {2}feature\s+1\s+0\s+1\s+0\s+100\.0%$/m);
    expect(dash).toMatch(/^ {2}all\s+2\s+1\s+1\s+0\s+50\.0%$/m);
    expect(dash).toMatch(/Cost per accepted task \(1 accepted/);
    expect(dash).toContain("not accepted: 0 landed ok with no gate verdict yet, 1 landed ok but the gate did not pass");

    // A "verdict" posted by anyone but the App (GitHub Actions' app, on an unrelated pull request)
    // costs nothing: its webhook neither sets off a tick nor a read of any verdict.
    const pos = h.logPosition();
    const elsewhere = fake.addPull(REPO, { title: "unrelated", user: "copilot-swe-agent[bot]" });
    await createTestOctokit(fake.url, ACTIONS_TOKEN).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: elsewhere.headSha, status: "completed", conclusion: "success", output: { title: "pass", summary: "unrelated" } });
    await fake.webhooks.flush();
    expect(h.botRequests(pos).filter((r) => r.includes("/check-runs"))).toEqual([]);
  }, 30_000);
});
