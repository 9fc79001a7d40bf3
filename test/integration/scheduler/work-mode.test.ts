import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import work from "../../../src/action/modes/work.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";
import { runWorkPhases } from "./work-phases.js";

const exec = promisify(execFile);

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";

async function dispatched(extra = ""): Promise<{ fixture: Fixture; n: number; hash: string; run: { sha: string; runId: number } }> {
  const fixture = await schedulerFixture(CONFIG);
  fixture.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
  const n = await fixture.queue("job", extra);
  await fixture.replica("app").tick();
  const comment = [...fixture.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n);
  const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
  const runId = fixture.runsOf(n)[0]?.id ?? 0;
  return { fixture, n, hash, run: { sha: fixture.fake.repo(REPO).refs.get("refs/heads/main") ?? "", runId } };
}

let current: { run: { sha: string; runId: number } } | undefined;
async function runWork(fixture: Fixture, inputs: Record<string, string>) {
  return runWorkPhases(fixture.fake.url, inputs, {}, undefined, current?.run);
}

describe("the Action's work mode", () => {
  it("runs the agent on the frozen brief and records its structured stop, with evidence and cost, in the claim record; done with no pull request goes to a human", async () => {
    const d = await dispatched();
    f = d.fixture;
    current = d;
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": 'echo "working on $BOSUN_ITEM at epoch $BOSUN_EPOCH"; echo \'{"kind":"done","reason":"did it","cost":{"tokens":12,"usd":0.5}}\' > "$BOSUN_RESULT"' });
    expect([...io.check.failures, ...(io.agent?.failures ?? [])]).toEqual([]);
    expect(JSON.parse(io.land?.outputs["stop"] ?? "{}")).toEqual({ kind: "done", reason: "did it" });
    // Done is the agent's claim; without a pull request nothing can be judged, so a human looks.
    expect(f.labelsOf(d.n)).toEqual(["bosun:needs-human", "bosun:ready"]);
    const status = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === d.n && c.body.startsWith("<!-- bosun:status -->"));
    // BOSUN_ITEM is the brief's id (an issue's brief defaults to its number; this one names itself).
    expect(status?.body).toContain("working on job at epoch 1");
    expect(status?.body).toContain("no pull request");
    const snapshot = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === d.n && c.body.startsWith("<!-- bosun:snapshot -->"));
    expect(snapshot?.updatedAt).toBe(snapshot?.createdAt);
  });

  it("a run Bosun did not dispatch does nothing: no check, no agent, no record — even on an item really held at that epoch", async () => {
    const d = await dispatched();
    f = d.fixture;
    // The agent starts the same workflow itself with the same inputs (it has write access).
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const { createTestOctokit } = await import("../../fake-github/test-octokit.js");
    const { data } = await createTestOctokit(f.fake.url, "t-agent").request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { owner: "acme", repo: "app", workflow_id: "bosun-work.yml", ref: "main", inputs: { item: String(d.n), epoch: "1", brief_hash: d.hash }, return_run_details: true });
    current = { run: { sha: d.run.sha, runId: (data as { workflow_run_id: number }).workflow_run_id } };
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": "touch should-not-run" });
    expect(io.check.failures[0]).toMatch(/not dispatched by bosun\[bot\] \(GitHub says agent started it/);
    expect(io.agent).toBeUndefined();
    expect(f.labelsOf(d.n)).toContain("bosun:claimed");
  });

  it("a re-run of Bosun's run works on nothing: the agent job re-run on its own (the check's outputs kept from attempt 1) runs no agent, and the land job refuses the re-run", async () => {
    const d = await dispatched();
    f = d.fixture;
    const inputs = { item: String(d.n), epoch: "1", "brief-hash": d.hash };
    // Attempt 1, Bosun's: the check passes; the agent job then fails (its runner died), nothing lands.
    const temp = await mkdtemp(join(tmpdir(), "bosun-rerun-"));
    const check = memoryActionIo({ inputs: { ...inputs, "github-token": "t-bot", "bot-login": "bosun[bot]", "work-phase": "check" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: f.fake.url, RUNNER_TEMP: temp }, event: d.run });
    await work.run(check.io);
    expect(check.failures).toEqual([]);
    f.fake.completeWorkflowRun(REPO, d.run.runId, "failure");
    // The agent (write access) re-runs the failed jobs: GitHub runs the agent job and the land job again, with the check's outputs from attempt 1.
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const { createTestOctokit } = await import("../../fake-github/test-octokit.js");
    const agent = createTestOctokit(f.fake.url, "t-agent");
    await agent.actions.reRunWorkflowFailedJobs({ owner: "acme", repo: "app", run_id: d.run.runId });
    const { data: rerun } = await agent.actions.getWorkflowRun({ owner: "acme", repo: "app", run_id: d.run.runId });
    // What the runner sets in the re-run's jobs, from GitHub's record of the run.
    const runnerEnv = { GITHUB_RUN_ATTEMPT: String(rerun.run_attempt), GITHUB_TRIGGERING_ACTOR: rerun.triggering_actor?.login ?? "" };
    const workspace = await mkdtemp(join(tmpdir(), "bosun-rerun-ws-"));
    const agentJob = memoryActionIo({ inputs: { ...inputs, "work-phase": "agent", brief: check.outputs["brief"] ?? "", "reserve-usd": check.outputs["reserve-usd"] ?? "", "agent-command": "touch agent-ran" }, eventName: "workflow_dispatch", payload: {}, env: { RUNNER_TEMP: temp, GITHUB_WORKSPACE: workspace, PATH: process.env["PATH"], ...runnerEnv } });
    await work.run(agentJob.io);
    expect(agentJob.failures[0]).toMatch(/refusing to run the agent: this is attempt 2 of the run \(a re-run by agent\)/);
    expect(existsSync(join(workspace, "agent-ran"))).toBe(false);
    const land = memoryActionIo({ inputs: { ...inputs, "github-token": "t-bot", "bot-login": "bosun[bot]", "work-phase": "land" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: f.fake.url, RUNNER_TEMP: temp, GITHUB_WORKSPACE: workspace, ...runnerEnv }, event: d.run });
    await work.run(land.io);
    expect(land.failures[0]).toMatch(/refusing to act: this run was not dispatched by bosun\[bot\]/);
    expect(f.labelsOf(d.n)).toContain("bosun:claimed");
  });

  it("refuses to act on a stale epoch, and changes nothing", async () => {
    const d = await dispatched();
    f = d.fixture;
    current = d;
    const before = f.fake.accounting.count({ kind: "write" }) + f.fake.accounting.count({ kind: "create" });
    const io = await runWork(f, { item: String(d.n), epoch: "2", "brief-hash": d.hash, "agent-command": "touch should-not-run" });
    expect(io.check.failures[0]).toMatch(/stale epoch: this run has epoch 2, the item is held at epoch 1/);
    expect(io.agent).toBeUndefined();
    expect(f.fake.accounting.count({ kind: "write" }) + f.fake.accounting.count({ kind: "create" })).toBe(before);
    expect(f.labelsOf(d.n)).toContain("bosun:claimed");
  });

  it("refuses to act when the brief's hash is not the approved one", async () => {
    const d = await dispatched();
    f = d.fixture;
    current = d;
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": "sha256:" + "0".repeat(64), "agent-command": "true" });
    expect(io.check.failures[0]).toMatch(/the approved brief is sha256:/);
  });

  it("kills an agent that outruns the brief's wall clock and lands out of budget for a human", async () => {
    const d = await dispatched("budget: {wall_clock: 1s}\n");
    f = d.fixture;
    current = d;
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": "sleep 20" });
    expect(JSON.parse(io.land?.outputs["stop"] ?? "{}")).toMatchObject({ kind: "out_of_budget", limit: "wall_clock" });
    expect(f.labelsOf(d.n)).toEqual(["bosun:needs-human", "bosun:ready"]);
  });

  it("the single-job form is gone: without work-phase nothing runs, and the agent phase refuses a token before running anything", async () => {
    const d = await dispatched();
    f = d.fixture;
    const dir = await mkdtemp(join(tmpdir(), "bosun-work-"));
    const marker = join(dir, "agent-ran");
    const inputs = { "github-token": "t-bot", item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": `touch '${marker}'` };
    const single = memoryActionIo({ inputs, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: f.fake.url, RUNNER_TEMP: dir, GITHUB_WORKSPACE: dir } });
    await work.run(single.io);
    expect(single.failures[0]).toMatch(/work-phase/);
    const withToken = memoryActionIo({ inputs: { ...inputs, "work-phase": "agent", brief: "{}" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: f.fake.url, RUNNER_TEMP: dir, GITHUB_WORKSPACE: dir } });
    await work.run(withToken.io);
    expect(withToken.failures[0]).toMatch(/the agent phase takes no github-token/);
    expect(existsSync(marker)).toBe(false);
    expect(f.labelsOf(d.n)).toContain("bosun:claimed");
  });

  it("the land job reads the agent's result as hostile data: a result for another item, epoch or brief, or a malformed one, lands nothing", async () => {
    const d = await dispatched();
    f = d.fixture;
    const dir = await mkdtemp(join(tmpdir(), "bosun-work-"));
    const good = { bosun_work: 1, item: d.n, epoch: 1, brief_hash: d.hash, stop: { kind: "done", reason: "x" }, evidence: { command: "a", exit: 0, lines: [] } };
    const forged: [string, unknown][] = [
      ["another item", { ...good, item: d.n + 1 }],
      ["another epoch", { ...good, epoch: 2 }],
      ["another brief", { ...good, brief_hash: "sha256:" + "1".repeat(64) }],
      ["no stop", { ...good, stop: { kind: "yes" } }],
      ["too big", { ...good, evidence: { command: "a", exit: 0, lines: ["x".repeat(70_000)] } }],
    ];
    for (const [name, body] of forged) {
      const path = join(dir, `${name}.json`);
      await writeFile(path, JSON.stringify(body));
      const land = memoryActionIo({ inputs: { "github-token": "t-bot", "bot-login": "bosun[bot]", item: String(d.n), epoch: "1", "brief-hash": d.hash, "work-phase": "land", "work-result": path }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: f.fake.url }, event: d.run });
      await work.run(land.io);
      expect(land.failures[0], name).toMatch(/refusing to land/);
    }
    expect(f.labelsOf(d.n)).toContain("bosun:claimed");
  });

  it("the agent's changes leave as a patch (its commits and untracked files), for the land job to apply", async () => {
    const d = await dispatched();
    f = d.fixture;
    const env = { GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@x", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@x" };
    // A workspace that is a git repository at a base commit, as actions/checkout leaves it.
    const io = await runWorkPhases(f.fake.url, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": 'echo hi > new.txt; git add new.txt; git -c user.name=a -c user.email=a@x commit -qm agent; echo more > other.txt' }, env, async (dir) => {
      await exec("git", ["init", "-q", dir]);
      await exec("git", ["-C", dir, "-c", "user.name=a", "-c", "user.email=a@x", "commit", "-q", "--allow-empty", "-m", "base"]);
    }, d.run);
    const patch = await readFile(io.agent?.outputs["work-patch"] ?? "", "utf8");
    expect(patch).toMatch(/\+\+\+ b\/new.txt/);
    expect(patch).toMatch(/\+\+\+ b\/other.txt/);
  });
});
