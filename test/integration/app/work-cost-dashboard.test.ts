/**
 * The cost of the work the App dispatched, on its dashboard, over real HTTP: a `workflow` pool's
 * run goes through the Action's three `work` jobs, whose land job publishes the item's pull
 * request and records the landing — stop and cost — in the item's claim record, as the Bosun App
 * (docs/lifecycle.md); the App journals that LAND with its cost, and the gate's pass makes it an
 * accepted task. Adversaries: a landing written on the claim ref by anyone but the App, an
 * agent's result with a malformed cost, and a land job that comes after the App landed the run.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import work from "../../../src/action/modes/work.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";
import type { WorkflowRunRecord } from "../../fake-github/state.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const exec = promisify(execFile);
const CONFIG = "pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n";
// The work workflow's check and land jobs, and the trusted gate job, mint the Bosun App's token.
const APP_TOKEN = "ghs_bosun_app_token_of_a_work_job_0000";
const GIT = { GIT_AUTHOR_NAME: "agent", GIT_AUTHOR_EMAIL: "agent@example.com", GIT_COMMITTER_NAME: "agent", GIT_COMMITTER_EMAIL: "agent@example.com" };

let h: Harness | undefined;
afterEach(async () => h?.close());

async function start(): Promise<Harness> {
  const harness = await startHarness({ config: CONFIG, dashboardIntervalMs: 0, moreEvents: ["check_run"] });
  // The work jobs are an Action run on the wall clock: the App's (manual) clock starts from now too,
  // so the leases it grants are live when the land job checks them.
  harness.clock.advance(Math.max(0, Date.now() - harness.clock.now()));
  harness.fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  harness.fake.state.tokens.set(APP_TOKEN, { kind: "bot", login: BOT, installationId: 501 });
  harness.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
  return harness;
}

const body = (claimKey: string) => formBody({ "Acceptance command": "```shell\ntrue\n```", "Claim key": claimKey });

type Dispatched = { n: number; run: WorkflowRunRecord; hash: string };

/** Approves issues and lets the App dispatch them; returns each issue's run as GitHub holds it. */
async function approve(harness: Harness, keys: readonly string[]): Promise<Dispatched[]> {
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

/** An agent that changes one file in the brief's paths and reports its stop and cost. */
const agentCosting = (cost: string) => `mkdir -p src/http && echo 'export const retryAfter = true;' > src/http/client.ts && echo '{"kind":"done","cost":${cost}}' > "$BOSUN_RESULT"`;

/**
 * The shipped work workflow's three jobs for one dispatched run: `check` and `land` with the App's
 * token, each in a checkout of its own (the land job applies the agent's patch to its checkout and
 * publishes the item's pull request), the agent between them with no token.
 */
async function runWorkJobs(harness: Harness, d: Dispatched, agent: string, options: { tamper?: (result: Record<string, unknown>) => void } = {}) {
  const root = await mkdtemp(join(tmpdir(), "bosun-work-"));
  const [agentDir, landDir, temp] = [join(root, "agent"), join(root, "land"), join(root, "temp")];
  await exec("git", ["init", "-q", agentDir]);
  await exec("git", ["-C", agentDir, "commit", "-q", "--allow-empty", "-m", "base"], { env: { ...process.env, ...GIT } });
  await exec("git", ["clone", "-q", agentDir, landDir]);
  const run = { event: { sha: d.run.headSha, runId: d.run.id } };
  const common = { item: String(d.n), epoch: String(d.run.inputs["epoch"]), "brief-hash": d.hash, "open-pull-request": "true" };
  const trusted = { ...common, "github-token": APP_TOKEN, "bot-login": BOT };
  const payload = { repository: { default_branch: "main" } };
  const check = memoryActionIo({ inputs: { ...trusted, "work-phase": "check" }, eventName: "workflow_dispatch", payload, env: { GITHUB_API_URL: harness.fake.url, RUNNER_TEMP: temp }, ...run });
  await work.run(check.io);
  expect(check.failures).toEqual([]);
  const agentJob = memoryActionIo({ inputs: { ...common, "work-phase": "agent", brief: check.outputs["brief"] ?? "", "agent-command": agent }, eventName: "workflow_dispatch", payload, env: { RUNNER_TEMP: temp, GITHUB_WORKSPACE: agentDir, PATH: process.env["PATH"], ...GIT } });
  await work.run(agentJob.io);
  expect(agentJob.failures).toEqual([]);
  // The result crosses to the land job as an artifact: the agent's to write, so data to check.
  const resultPath = agentJob.outputs["work-result"] ?? "";
  if (options.tamper !== undefined) {
    const result = JSON.parse(await readFile(resultPath, "utf8")) as Record<string, unknown>;
    options.tamper(result);
    await writeFile(resultPath, JSON.stringify(result));
  }
  const land = memoryActionIo({ inputs: { ...trusted, "work-phase": "land", "work-result": resultPath }, eventName: "workflow_dispatch", payload, env: { GITHUB_API_URL: harness.fake.url, GITHUB_SHA: d.run.headSha, RUNNER_TEMP: temp, GITHUB_WORKSPACE: landDir, ...GIT }, ...run });
  await work.run(land.io);
  await harness.fake.webhooks.flush();
  return land;
}

/** The trusted gate job's verdict on the item's pull request, posted as the App. */
async function gatePasses(harness: Harness, d: Dispatched): Promise<void> {
  const pull = [...harness.fake.repo(REPO).pulls.values()].find((p) => p.headRef.startsWith(`bosun/${d.n}-`));
  expect(pull).toBeDefined();
  const sha = pull?.headSha ?? "";
  await createTestOctokit(harness.fake.url, APP_TOKEN).checks.create({ ...OWNER_REPO, name: "bosun/gate", head_sha: sha, status: "completed", conclusion: "success", output: { title: "pass", summary: renderGateCheckMarker({ v: 1, item: String(d.n), brief: d.hash, verdict: "pass", sha }) } });
  await harness.fake.webhooks.flush();
}

async function endRun(harness: Harness, d: Dispatched, conclusion: "success" | "failure"): Promise<void> {
  harness.fake.completeWorkflowRun(REPO, d.run.id, conclusion);
  await harness.fake.webhooks.flush();
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
  test("the land job records the cost in the claim record, the App journals it on LAND, and the gate's pass makes it cost per accepted task", async () => {
    h = await start();
    const [a] = await approve(h, ["bugfix:retry-after"]);
    if (a === undefined) throw new Error("not dispatched");
    const land = await runWorkJobs(h, a, `sleep 1; ${agentCosting('{"tokens":4321,"usd":0.12}')}`);
    expect(land.failures).toEqual([]);
    expect(JSON.parse(land.outputs["cost"] ?? "null")).toMatchObject({ tokens: 4321, usd: 0.12 });
    // The landing is "PR open, gate pending", in the claim record GitHub signed for the App.
    expect(h.labelsOf(a.n)).toEqual(["bosun:ready", "bosun:review"]);
    const head = h.fake.repo(REPO).refs.get(`refs/bosun/claims/${a.n}`) ?? "";
    expect(h.fake.repo(REPO).commits.get(head)?.message).toMatch(/"cost":\{[^}]*"tokens":4321/);
    await endRun(h, a, "success");
    await gatePasses(h, a);

    const dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(1 runs\)/);
    expect(dash).toMatch(/Cost per accepted task \(1 accepted — landed ok and gate passed — from 1 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["4,321", "4,321", "0"]);
    expect(costRow(dash, "usd")).toEqual(["0.12", "0.12", "0"]);
    // The wall clock the agent job measured around the agent (it slept a second).
    expect(Number(costRow(dash, "wall clock s")?.[0])).toBeGreaterThanOrEqual(1);
  }, 30_000);

  test("a landing written on the claim ref by anyone but the App is not believed: it moves nothing and its cost is nowhere", async () => {
    h = await start();
    const [a, b] = await approve(h, ["task:trusted", "task:forged"]);
    if (a === undefined || b === undefined) throw new Error("not dispatched");
    expect((await runWorkJobs(h, a, agentCosting('{"tokens":100}'))).failures).toEqual([]);
    // The agent (write access) moves b's claim ref to a record of its own: landed, with a huge cost.
    const agent = createTestOctokit(h.fake.url, "t-agent");
    const ref = `refs/bosun/claims/${b.n}`;
    const parent = h.fake.repo(REPO).refs.get(ref) ?? "";
    const { data: old } = await agent.git.getCommit({ ...OWNER_REPO, commit_sha: parent });
    const message = old.message.replace(/"state":"held"/, `"state":"review","pull":1,"landing":{"stop":{"kind":"done"},"disposition":"ok","summary":"done","by":"work","cost":{"wall_clock_s":30,"tokens":999999,"usd":99}}`);
    expect(message).not.toBe(old.message);
    const { data: forged } = await agent.git.createCommit({ ...OWNER_REPO, message, tree: old.tree.sha, parents: [parent] });
    await agent.git.updateRef({ ...OWNER_REPO, ref: ref.replace(/^refs\//, ""), sha: forged.sha });
    for (const d of [a, b]) await endRun(h, d, "success");
    await gatePasses(h, a);

    const dash = await tickAgain(h, "task:later");
    // The forged record moved nothing: b is not in review, and the App wrote over it with a new grant of its own.
    expect(dash).not.toContain(`#${b.n} task:forged: pull request`);
    expect(dash).toMatch(new RegExp(`#${b.n} task:forged: held by \`app-[^\`]+\`, epoch 2`));
    expect(dash).not.toContain("999,999");
    // a's run and cost alone.
    expect(dash).toMatch(/Stop reasons \(1 runs\)/);
    expect(costRow(dash, "tokens")).toEqual(["100", "100", "0"]);
  }, 30_000);

  test("an agent's result with a malformed cost lands nothing; the App lands the run from its conclusion, without a cost", async () => {
    h = await start();
    const [a] = await approve(h, ["task:negative"]);
    if (a === undefined) throw new Error("not dispatched");
    const land = await runWorkJobs(h, a, agentCosting('{"tokens":100}'), { tamper: (result) => void (result["cost"] = { wall_clock_s: 10, tokens: -5 }) });
    expect(land.failures.join("\n")).toMatch(/refusing to land: .*invalid cost/);
    expect(h.labelsOf(a.n)).toEqual(["bosun:claimed", "bosun:ready"]);
    await endRun(h, a, "failure");
    expect(h.labelsOf(a.n)).not.toContain("bosun:claimed");

    const dash = await tickAgain(h, "task:later");
    expect(dash).toMatch(/Stop reasons \(1 runs\)/);
    expect(costRow(dash, "tokens")?.[2]).toBe("1");
    expect(dash).not.toMatch(/^ {2}tokens\s+-/m);
  }, 30_000);

  test("a land job that comes after the App landed its run writes nothing: that LAND stays without a cost", async () => {
    h = await start();
    const [a] = await approve(h, ["task:late"]);
    if (a === undefined) throw new Error("not dispatched");
    // The run ends (its land job lost) before any landing: the App lands it from the conclusion.
    await endRun(h, a, "failure");
    const before = h.fake.repo(REPO).refs.get(`refs/bosun/claims/${a.n}`);
    const root = await mkdtemp(join(tmpdir(), "bosun-late-"));
    const check = memoryActionIo({ inputs: { item: String(a.n), epoch: "1", "brief-hash": a.hash, "github-token": APP_TOKEN, "bot-login": BOT, "work-phase": "check" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: h.fake.url, RUNNER_TEMP: root }, event: { sha: a.run.headSha, runId: a.run.id } });
    await work.run(check.io);
    expect(check.failures.join("\n")).toMatch(/stale epoch|not held|is (settled|released|review)/);
    expect(h.fake.repo(REPO).refs.get(`refs/bosun/claims/${a.n}`)).toBe(before);

    const dash = await tickAgain(h, "task:even-later");
    expect(dash).toMatch(/Stop reasons \(1 runs\)/);
    expect(costRow(dash, "tokens")?.[2]).toBe("1");
  }, 30_000);
});
