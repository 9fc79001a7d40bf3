/**
 * The three fleet numbers on the App's dashboard, fed end to end over real HTTP: runs the App
 * dispatched and landed (stop mix), the gate Action's `bosun/gate` check runs read back as GATE
 * events (rejection rate by class), and cost per accepted task where accepted means the gate passed.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createGateMode } from "../../../src/action/modes/gate.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";
import type { PullFileRecord } from "../../fake-github/state.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const CONFIG = "pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n";
// The trusted gate job posts as the Bosun App (docs/workflows/bosun-gate.yml mints its token);
// a workflow the pull request controls can post as github-actions with its own GITHUB_TOKEN.
const APP_GATE_TOKEN = "ghs_bosun_app_token_of_the_gate_job_00";
const ACTIONS_TOKEN = "ghs_github_actions_in_a_pr_workflow_00";

let h: Harness | undefined;
afterEach(async () => h?.close());

const text = (path: string, additions = 1): PullFileRecord => ({ filename: path, status: "modified", additions, deletions: 0, patch: `@@ -1 +1,${additions} @@\n${"+x\n".repeat(additions)}` });
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
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0 });
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
    for (const r of runs()) fake.completeWorkflowRun(REPO, r.id, "success");
    await fake.webhooks.flush();
    expect(h.labelsOf(a)).toContain("bosun:done");
    expect(h.labelsOf(b)).toContain("bosun:done");
    // Landed ok is not accepted: no gate has judged either item yet.
    expect(dashboardBody(h)).toMatch(/Cost per accepted task \(0 accepted/);
    expect(dashboardBody(h)).toContain("not accepted: 2 landed ok with no gate verdict yet");

    // a's pull request stays inside its brief: pass. b's touches a path outside it: fail.
    const pullA = fake.addPull(REPO, { title: "retry-after", body: `Closes #${a}`, user: "copilot-swe-agent[bot]", files: [text("src/http/client.ts", 5)] });
    const pullB = fake.addPull(REPO, { title: "budget", body: `Closes #${b}`, user: "copilot-swe-agent[bot]", files: [text("src/http/budget.ts", 5), text("src/db/pool.ts", 2)] });
    expect(await runGateAction(h, pullA.number)).toBe("pass");
    expect(await runGateAction(h, pullB.number)).toBe("fail");
    // Forgeries: a "pass" on b's head posted as github-actions (any workflow the PR edits can), and a pull request that says it closes #a but
    // was judged against another brief (here: b's), posted by the trusted app.
    const bHash = /"brief":"(sha256:[0-9a-f]{64})"/.exec(fake.repo(REPO).checkRuns.get(Math.max(...fake.repo(REPO).checkRuns.keys()))?.output.summary ?? "")?.[1] ?? null;
    expect(bHash).not.toBeNull();
    await createTestOctokit(fake.url, ACTIONS_TOKEN).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: pullB.headSha, status: "completed", conclusion: "success", output: { title: "pass", summary: renderGateCheckMarker({ v: 1, item: String(b), brief: bHash, verdict: "pass", sha: pullB.headSha }) } });
    const pullC = fake.addPull(REPO, { title: "sneaky", body: `Closes #${a}`, user: "copilot-swe-agent[bot]", files: [text("src/http/x.ts", 1)] });
    await createTestOctokit(fake.url, APP_GATE_TOKEN).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: pullC.headSha, status: "completed", conclusion: "failure", output: { title: "fail", summary: renderGateCheckMarker({ v: 1, item: String(b), brief: bHash, verdict: "fail", sha: pullC.headSha }) } });

    // Independent record: the check runs GitHub holds, by app and conclusion.
    const gateRuns = [...fake.repo(REPO).checkRuns.values()].filter((r) => r.name === "bosun/gate").map((r) => [r.appId, r.headSha, r.conclusion]);
    expect(gateRuns).toEqual(expect.arrayContaining([[42, pullA.headSha, "success"], [42, pullB.headSha, "failure"], [15368, pullB.headSha, "success"], [42, pullC.headSha, "failure"]]));

    // Any event that starts a tick refreshes the dashboard; here a third approval.
    const c = h.issue(body("task:other"), "c");
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: c, labels: ["bosun:ready"] });
    await fake.webhooks.flush();

    const dash = dashboardBody(h);
    if (process.env["SHOW_DASH"] !== undefined) console.log(dash);
    expect(dash).toContain("## Fleet metrics");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(dash).toMatch(/^ {2}done\s+2\s+100\.0%$/m);
    // One verdict per class from the trusted gate; the other app's pass and the mismatched brief are left out.
    expect(dash).toMatch(/^ {2}bugfix\s+1\s+1\s+0\s+0\s+0\.0%$/m);
    expect(dash).toMatch(/^ {2}feature\s+1\s+0\s+1\s+0\s+100\.0%$/m);
    expect(dash).toMatch(/^ {2}all\s+2\s+1\s+1\s+0\s+50\.0%$/m);
    expect(dash).toContain("1 posted by an app that is not trusted");
    expect(dash).toMatch(/Cost per accepted task \(1 accepted/);
    expect(dash).toContain("not accepted: 0 landed ok with no gate verdict yet, 1 landed ok but the gate did not pass");

    // Reading the verdicts again when nothing changed costs 304s only (no rate limit).
    const pos = h.logPosition();
    const d = h.issue(body("task:later"), "d");
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: d, labels: ["bosun:ready"] });
    await fake.webhooks.flush();
    const reads = h.botRequests(pos).filter((r) => r.includes("/check-runs"));
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r).toMatch(/ 304$/);
  }, 30_000);
});
