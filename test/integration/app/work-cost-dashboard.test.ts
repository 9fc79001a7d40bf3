/**
 * The cost of the work the App dispatched, on its dashboard, over real HTTP: a `workflow` pool's
 * run goes through the Action's three `work` jobs, whose land job posts a `bosun/work` record
 * (stop and cost) as the Bosun App; the App journals the run's LAND with that cost, and the gate's
 * pass makes it an accepted task. Adversaries: the same record posted by `github-actions` or by
 * another app, a record naming another epoch or run, a malformed cost, and a record that only
 * arrives after the App has landed the run.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createGateMode } from "../../../src/action/modes/gate.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { renderWorkRecordMarker, workRecordCheckName } from "../../../src/core/journal/work-record-marker.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import type { WorkflowRunRecord } from "../../fake-github/state.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { runWorkPhases } from "../scheduler/work-phases.js";
import { formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const CONFIG = "pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n";
// The work workflow's check and land jobs, and the trusted gate job, mint the Bosun App's token.
const APP_TOKEN = "ghs_bosun_app_token_of_a_work_job_0000";
// Any workflow, including one a pull request edits, can post check runs as github-actions.
const ACTIONS_TOKEN = "ghs_github_actions_in_a_pr_workflow_00";
const OTHER_APP_TOKEN = "ghs_some_other_app_installed_here_0000";

let h: Harness | undefined;
afterEach(async () => h?.close());

async function start(): Promise<Harness> {
  const harness = await startHarness({ config: CONFIG, scheduler: true, dashboardIntervalMs: 0 });
  // The work jobs are an Action run on the wall clock: the App's (manual) clock starts from now too,
  // so the leases it grants are live when the land job checks them.
  harness.clock.advance(Date.now() - harness.clock.now());
  const fake = harness.fake;
  fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  fake.addInstallation({ id: 777, appId: 15368, appSlug: "github-actions", repos: [REPO] });
  fake.addInstallation({ id: 778, appId: 9001, appSlug: "bosun-lookalike", repos: [REPO] });
  fake.state.tokens.set(APP_TOKEN, { kind: "bot", login: "bosun[bot]", installationId: 501 });
  fake.state.tokens.set(ACTIONS_TOKEN, { kind: "bot", login: "github-actions[bot]", installationId: 777 });
  fake.state.tokens.set(OTHER_APP_TOKEN, { kind: "bot", login: "bosun-lookalike[bot]", installationId: 778 });
  return harness;
}

const body = (claimKey: string) => formBody({ "Acceptance command": "```shell\ntrue\n```", "Claim key": claimKey });

/** Approves issues and lets the App dispatch them; returns each issue's run as GitHub holds it. */
async function approve(harness: Harness, keys: readonly string[]): Promise<Array<{ n: number; run: WorkflowRunRecord; hash: string }>> {
  const ns = keys.map((k) => harness.issue(body(k), k));
  for (const n of ns) await harness.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
  await harness.fake.webhooks.flush();
  const runs = [...harness.fake.repo(REPO).workflowRuns.values()];
  return ns.map((n) => {
    const run = runs.find((r) => r.inputs["item"] === String(n));
    if (run === undefined) throw new Error(`#${n} was not dispatched`);
    return { n, run, hash: String(run.inputs["brief_hash"]) };
  });
}

const AGENT_100 = `echo '{"kind":"done","cost":{"tokens":100}}' > "$BOSUN_RESULT"`;
const AGENT_700 = `echo '{"kind":"done","cost":{"tokens":700}}' > "$BOSUN_RESULT"`;

/**
 * The shipped work workflow's jobs for one dispatched run, with the App's token in check and land.
 * `recordLost`: GitHub fails the land job's record write (nothing written); the land goes on.
 */
async function runWorkJobs(harness: Harness, d: { n: number; run: WorkflowRunRecord; hash: string }, agent: string, options: { recordLost?: boolean } = {}) {
  if (options.recordLost === true) harness.fake.faults.add({ kind: "error", status: 502, route: "POST /repos/{owner}/{repo}/check-runs", times: 1 });
  const phases = await runWorkPhases(harness.fake.url, { item: String(d.n), epoch: String(d.run.inputs["epoch"]), "brief-hash": d.hash, "agent-command": agent, "github-token": APP_TOKEN }, {}, undefined, { sha: d.run.headSha, runId: d.run.id });
  if (process.env["SHOW_WORK"] !== undefined) console.log(phases.land?.logs.join("\n"));
  expect([...phases.check.failures, ...(phases.agent?.failures ?? []), ...(phases.land?.failures ?? [])]).toEqual([]);
  return phases;
}

/** A record as a land job writes it, posted with whichever token the test gives. */
async function postRecord(harness: Harness, token: string, d: { n: number; run: WorkflowRunRecord }, over: { epoch?: number; run?: number; cost?: unknown; name?: string } = {}) {
  const epoch = Number(d.run.inputs["epoch"]);
  const marker = renderWorkRecordMarker({ v: 1, item: String(d.n), epoch: over.epoch ?? epoch, run: over.run ?? d.run.id, stop: { kind: "done" }, cost: (over.cost ?? { wall_clock_s: 30, tokens: 999_999, usd: 99 }) as never });
  await createTestOctokit(harness.fake.url, token).checks.create({ ...OWNER_REPO, name: over.name ?? workRecordCheckName(String(d.n), epoch), head_sha: d.run.headSha, status: "completed", conclusion: "neutral", output: { title: "work", summary: marker } });
}

/** The runs end as their jobs did (success), and the gate passes each item's pull request. */
async function endRunsAndGate(harness: Harness, items: ReadonlyArray<{ n: number; run: WorkflowRunRecord }>): Promise<void> {
  for (const d of items) harness.fake.completeWorkflowRun(REPO, d.run.id, "success");
  await harness.fake.webhooks.flush();
  for (const d of items) await gatePasses(harness, d.n);
}

/** The gate Action on a pull request that closes the item, as the App (a job the PR cannot edit). */
async function gatePasses(harness: Harness, n: number): Promise<void> {
  const pr = harness.fake.addPull(REPO, { title: `work on #${n}`, body: `Closes #${n}`, user: "copilot-swe-agent[bot]", files: [{ filename: "src/http/client.ts", status: "modified", additions: 1, deletions: 0, patch: "@@ -1 +1,1 @@\n+x\n" }] });
  const result = join(await mkdtemp(join(tmpdir(), "bosun-acceptance-")), "acceptance-result.json");
  await writeFile(result, JSON.stringify({ bosun_acceptance: 1, sha: pr.headSha, command: "true", exit_code: 0 }));
  const payload = { pull_request: { number: pr.number, head: { sha: pr.headSha, ref: pr.headRef }, base: { ref: "main" } } };
  const io = memoryActionIo({ eventName: "pull_request_target", payload, inputs: { "github-token": APP_TOKEN, "acceptance-result": result }, env: { GITHUB_API_URL: harness.fake.url, PATH: process.env["PATH"] } });
  await createGateMode({ fetch }).run(io.io);
  expect(io.outputs["verdict"]).toBe("pass");
}

/** Any event starts a tick, and the dashboard follows it: here a new approval. */
async function tickAgain(harness: Harness, key: string): Promise<string> {
  const n = harness.issue(body(key), key);
  await harness.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
  await harness.fake.webhooks.flush();
  const dash = [...harness.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER))?.body ?? "";
  if (process.env["SHOW_DASH"] !== undefined) console.log(dash);
  return dash;
}

const costRow = (dash: string, unit: string) => new RegExp(`^ {2}${unit}\\s+(\\S+)\\s+(\\S+)\\s+(\\d+)$`, "m").exec(dash)?.slice(1);

describe("the cost of the App's workflow runs on its dashboard", () => {
  test("the land job's record gives the LAND its cost, and the gate's pass makes it cost per accepted task", async () => {
    h = await start();
    const fake = h.fake;
    const [a] = await approve(h, ["bugfix:retry-after"]);
    if (a === undefined) throw new Error("not dispatched");
    const phases = await runWorkJobs(h, a, `sleep 1; echo '{"kind":"done","cost":{"tokens":4321,"usd":0.12}}' > "$BOSUN_RESULT"`);
    // Independent record: the land job's check run, posted by the Bosun App (app 42) on the run's commit.
    const records = [...fake.repo(REPO).checkRuns.values()].filter((r) => r.name === `bosun/work #${a.n} epoch 1`);
    expect(records.map((r) => [r.appId, r.headSha, r.conclusion])).toEqual([[42, a.run.headSha, "neutral"]]);
    expect(h.labelsOf(a.n)).toContain("bosun:done");
    fake.completeWorkflowRun(REPO, a.run.id, "success");
    await fake.webhooks.flush();
    await gatePasses(h, a.n);

    const dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(1 runs\)/);
    expect(dash).toMatch(/Cost per accepted task \(1 accepted — landed ok and gate passed — from 1 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["4,321", "4,321", "0"]);
    expect(costRow(dash, "usd")).toEqual(["0.12", "0.12", "0"]);
    // The wall clock the agent job measured around the agent (it slept a second).
    const wall = Number(costRow(dash, "wall clock s")?.[0]);
    expect(wall).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(phases.land?.outputs["cost"] ?? "null")).toMatchObject({ tokens: 4321, usd: 0.12 });
    expect(dash).toContain("Work costs: 1 `bosun/work` records read");
  }, 30_000);

  test("a record posted by github-actions or by another app is not believed", async () => {
    h = await start();
    const fake = h.fake;
    const [a, b] = await approve(h, ["task:trusted", "task:forged"]);
    if (a === undefined || b === undefined) throw new Error("not dispatched");
    await runWorkJobs(h, a, AGENT_100);
    // b's land job lands, but its own record never reaches GitHub; others post one in its name.
    await runWorkJobs(h, b, AGENT_100, { recordLost: true });
    await postRecord(h, ACTIONS_TOKEN, b);
    await postRecord(h, OTHER_APP_TOKEN, b);
    expect([...fake.repo(REPO).checkRuns.values()].map((r) => r.appId).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual([42, 9001, 15368]);
    await endRunsAndGate(h, [a, b]);

    const dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(dash).toMatch(/Cost per accepted task \(2 accepted/);
    // Only the Bosun App's own record counts: the forged 999,999 tokens are nowhere.
    expect(costRow(dash, "tokens")).toEqual(["100", "50", "1"]);
    expect(dash).toContain("2 posted by an app that is not the Bosun App");
  }, 30_000);

  test("a record naming another epoch or another run never lands this claim", async () => {
    h = await start();
    const fake = h.fake;
    const [a, b] = await approve(h, ["task:right", "task:wrong"]);
    if (a === undefined || b === undefined) throw new Error("not dispatched");
    await runWorkJobs(h, a, AGENT_100);
    await runWorkJobs(h, b, AGENT_100, { recordLost: true });
    // Under b's epoch-1 name but saying epoch 2; and one naming a's run instead of b's.
    await postRecord(h, APP_TOKEN, b, { epoch: 2 });
    await postRecord(h, APP_TOKEN, b, { run: a.run.id });
    expect([...fake.repo(REPO).checkRuns.values()].filter((r) => r.appId === 42)).toHaveLength(3);
    await endRunsAndGate(h, [a, b]);

    const dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["100", "50", "1"]);
    expect(dash).toContain("1 names another item or epoch");
    expect(dash).toContain("1 names another workflow run");
  }, 30_000);

  test("a malformed cost is left out and the dashboard says why", async () => {
    h = await start();
    const [a, b] = await approve(h, ["task:fine", "task:negative"]);
    if (a === undefined || b === undefined) throw new Error("not dispatched");
    await runWorkJobs(h, a, AGENT_100);
    await runWorkJobs(h, b, AGENT_100, { recordLost: true });
    await postRecord(h, APP_TOKEN, b, { cost: { wall_clock_s: 10, tokens: -5 } });
    await endRunsAndGate(h, [a, b]);

    const dash = await tickAgain(h, "task:later");
    // b's whole cost is left out (its wall clock too): a number that does not validate is never journalled.
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["100", "50", "1"]);
    expect(costRow(dash, "wall clock s")?.[2]).toBe("1");
    expect(dash).toContain("1 invalid cost (cost.tokens: must not be negative)");
  }, 30_000);

  test("a record that arrives after the App journalled the run's LAND is never read: that LAND stays without a cost", async () => {
    h = await start();
    const fake = h.fake;
    const [a, b] = await approve(h, ["task:in-time", "task:late"]);
    if (a === undefined || b === undefined) throw new Error("not dispatched");
    await runWorkJobs(h, a, AGENT_100);
    await runWorkJobs(h, b, AGENT_100, { recordLost: true });
    await endRunsAndGate(h, [a, b]);
    let dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    const pos = h.logPosition();
    await postRecord(h, APP_TOKEN, b, { cost: { wall_clock_s: 10, tokens: 100 } });

    dash = await tickAgain(h, "task:even-later");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["100", "50", "1"]);
    // Nothing asked GitHub for a record on the runs' commit once both LANDs were journalled.
    expect(fake.accounting.log.filter((e) => e.seq > pos && e.method === "GET" && e.path.endsWith(`/commits/${b.run.headSha}/check-runs`))).toEqual([]);
  }, 30_000);

  test("a record the land job could not post: the App journals the run's LAND from its conclusion once the run has ended, without a cost, and not before", async () => {
    h = await start();
    const fake = h.fake;
    const [a, b] = await approve(h, ["task:lost-record", "task:applied-502"]);
    if (a === undefined || b === undefined) throw new Error("not dispatched");
    // a: GitHub fails the record's write and writes nothing; b: it writes the record and still answers 502.
    const pa = await runWorkJobs(h, a, AGENT_700, { recordLost: true });
    fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/check-runs", times: 1 });
    const pb = await runWorkJobs(h, b, AGENT_700);
    for (const p of [pa, pb]) expect(p.land?.logs.join("\n")).toMatch(/could not post the bosun\/work record/);
    expect([...fake.repo(REPO).checkRuns.values()].map((r) => r.name)).toEqual([`bosun/work #${b.n} epoch 1`]);
    for (const d of [a, b]) await gatePasses(h, d.n);

    // Both claims are landed; a's run still runs and has no record: its LAND waits for the run's end.
    let dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(1 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["700", "700", "0"]);

    for (const d of [a, b]) fake.completeWorkflowRun(REPO, d.run.id, "success");
    await fake.webhooks.flush();
    dash = await tickAgain(h, "task:even-later");
    expect(dash).toMatch(/Stop reasons \(2 runs\)/);
    expect(dash).toMatch(/Cost per accepted task \(2 accepted/);
    expect(costRow(dash, "tokens")).toEqual(["700", "350", "1"]);
  }, 30_000);

  test("a land job that posted its record but could not write the land: the App lands the failed run and takes the cost from the record", async () => {
    h = await start();
    const fake = h.fake;
    const [a] = await approve(h, ["task:land-write-fails"]);
    if (a === undefined) throw new Error("not dispatched");
    // Every claim write fails once the record is on GitHub: the land job's land cannot be written.
    const recorded = () => [...fake.repo(REPO).checkRuns.values()].some((r) => r.name === workRecordCheckName(String(a.n), 1));
    const remove = fake.faults.add({ kind: "error", status: 500, route: /^(POST \/graphql|PATCH \/repos\/\{owner\}\/\{repo\}\/git\/refs)/, when: recorded });
    const phases = await runWorkPhases(h.fake.url, { item: String(a.n), epoch: "1", "brief-hash": a.hash, "agent-command": AGENT_700, "github-token": APP_TOKEN }, {}, undefined, { sha: a.run.headSha, runId: a.run.id });
    remove();
    expect(phases.land?.failures.join("\n")).toMatch(/the land could not be written/);
    expect(h.labelsOf(a.n)).toContain("bosun:claimed");
    // The land job failed, so the run fails; the App lands the item from that (to a human).
    fake.completeWorkflowRun(REPO, a.run.id, "failure");
    await fake.webhooks.flush();
    expect(h.labelsOf(a.n)).toContain("bosun:needs-human");

    const dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/^ {2}failed\s+1\s+100\.0%$/m);
    // Paid for, though not accepted: the total carries it.
    expect(costRow(dash, "tokens")?.[0]).toBe("700");
    expect(costRow(dash, "tokens")?.[2]).toBe("0");
  }, 30_000);
});
