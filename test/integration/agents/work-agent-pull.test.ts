/**
 * `work` mode with an agent preset against the fake GitHub, in the shipped workflow's three jobs:
 * `check` (the bot's token) hands the brief on, `agent` (no GitHub credential at all) runs the
 * stand-in `claude` in its own checkout and writes its result and patch, `land` (the bot's token)
 * applies the patch to ITS OWN checkout, publishes it as one commit on `bosun/<n>-<slug>` with one
 * pull request for the item, and records the landing (stop and cost) in the claim record — the item
 * is then "PR open, gate pending", never done; a later epoch (after a land that failed once the PR
 * was open, and a re-approval) reuses that branch and pull request. The check and land jobs belong
 * to the run the App dispatched (GITHUB_RUN_ID), as on a runner. Only the check job's `brief` output and
 * the agent's two files cross between the jobs, as on a runner. Judged from the fake's own state and
 * request log and the stand-in's record, not from Bosun's outputs.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import work from "../../../src/action/modes/work.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { REPO, schedulerFixture } from "../scheduler/scheduler-fixture.js";
import { standInBin, type Scenario } from "../../support/agents/stand-in-bin.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
type Io = ReturnType<typeof memoryActionIo>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";
const RUNNER = { GITHUB_TOKEN: "ghs_runnerTokenThatMustNotLeak0001", ACTIONS_RUNTIME_TOKEN: "actions-runtime-secret-0002" };

/** A fresh checkout of the same start commit's content: each job checks the repository out for itself. */
async function checkout(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-work-checkout-"));
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "src/keep.ts"), "export const keep = 1;\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "start");
  return dir;
}

async function setup(scenarios: Scenario[], tool: "claude" | "codex" | "aider" | "openhands" = "claude") {
  const fixture = await schedulerFixture(CONFIG);
  f = fixture;
  fixture.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
  fixture.fake.setFile(REPO, "main", "src/keep.ts", "export const keep = 1;\n");
  const n = await fixture.queue("retry-after", "non_goals: [circuit breaking]\nbudget: {steps: 9}\n");
  await fixture.replica("app").tick();
  const comment = [...fixture.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n);
  const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
  const bin = await standInBin({ [tool]: { "retry-after": scenarios } });
  return { fixture, n, hash, bin };
}

const KEYS = { ANTHROPIC_API_KEY: "sk-ant-test-key-0005", OPENAI_API_KEY: "sk-openai-test-key-0006", CODEX_API_KEY: "codex-test-key-0007", LLM_API_KEY: "llm-test-key-0008" };

interface PhaseOptions {
  /** The agent step's extra inputs (agent-env, agent-command...). */
  readonly agentInputs?: Record<string, string>;
  /** The agent job's workspace (default: a fresh checkout). */
  readonly agentWorkspace?: string;
  /** Rewrites the agent's files before the land reads them, as a hostile agent (or artifact) could. */
  readonly tamper?: (files: { result: string; patch: string }) => Promise<void>;
}

/**
 * The three jobs, as docs/workflows/bosun-work-<agent>.yml runs them. The agent job's environment
 * holds the runner's own tokens (a runner always sets them) and every model key; the App token is
 * in the check and land jobs only. The land job has its own checkout, at the dispatched commit.
 */
async function runPhases(s: Awaited<ReturnType<typeof setup>>, epoch: number, agent = "claude-code", options: PhaseOptions = {}): Promise<{ check: Io; agent?: Io; land?: Io }> {
  const fake = s.fixture.fake;
  const trusted = { "github-token": "t-bot", "bot-login": "bosun[bot]", item: String(s.n), epoch: String(epoch), "brief-hash": s.hash };
  const sha = fake.repo(REPO).refs.get("refs/heads/main");
  // Every job of the run sees the run the App dispatched for this epoch (GITHUB_RUN_ID).
  const event = { sha: sha ?? "", runId: s.fixture.runsOf(s.n).find((r) => r.epoch === epoch)?.id ?? 0 };
  const check = memoryActionIo({ inputs: { ...trusted, "work-phase": "check" }, eventName: "workflow_dispatch", payload: { repository: { default_branch: "main" } }, env: { GITHUB_API_URL: fake.url, RUNNER_TEMP: await mkdtemp(join(tmpdir(), "bosun-check-")), GITHUB_SHA: sha }, event });
  await work.run(check.io);
  if (check.failures.length > 0) return { check };
  const out = await mkdtemp(join(tmpdir(), "bosun-out-"));
  const files = { result: join(out, "result.json"), patch: join(out, "changes.patch") };
  const agentIo = memoryActionIo({
    inputs: { "work-phase": "agent", "github-token": "", item: String(s.n), epoch: String(epoch), "brief-hash": s.hash, brief: check.outputs["brief"] ?? "", agent, "work-result": files.result, "work-patch": files.patch, ...options.agentInputs },
    eventName: "workflow_dispatch",
    payload: { repository: { default_branch: "main" } },
    env: { ...RUNNER, ...KEYS, PATH: `${s.bin.dir}:${process.env["PATH"] ?? ""}`, HOME: process.env["HOME"], RUNNER_TEMP: await mkdtemp(join(tmpdir(), "bosun-agent-")), GITHUB_WORKSPACE: options.agentWorkspace ?? (await checkout()), GITHUB_SHA: sha },
  });
  await work.run(agentIo.io);
  if (agentIo.failures.length > 0) return { check, agent: agentIo };
  await options.tamper?.(files);
  const land = memoryActionIo({
    inputs: { ...trusted, "work-phase": "land", "open-pull-request": "true", "work-result": files.result, "work-patch": files.patch },
    eventName: "workflow_dispatch",
    payload: { repository: { default_branch: "main" } },
    env: { GITHUB_API_URL: fake.url, RUNNER_TEMP: await mkdtemp(join(tmpdir(), "bosun-land-")), GITHUB_WORKSPACE: await checkout(), GITHUB_SHA: sha },
    event,
  });
  await work.run(land.io);
  return { check, agent: agentIo, land };
}

const landEvent = (io: Io | undefined) => JSON.parse(io?.logs.map((l) => /\s(\{.*"event":"LAND".*\})$/.exec(l)?.[1]).find((l) => l !== undefined) ?? "{}") as { ok?: boolean; stop?: { kind: string; reason?: string }; cost?: { wall_clock_s: number; tokens?: number; usd?: number } };
const pullsOf = (fx: Fixture) => [...fx.fake.repo(REPO).pulls.values()];
/** The item's claim record as the fake holds it (the commit its claim ref points at). */
const recordOf = (fx: Fixture, n: number) => {
  const ref = `refs/bosun/claims/${n}`;
  return parseClaimMessage(fx.fake.repo(REPO).commits.get(fx.fake.repo(REPO).refs.get(ref) ?? "")?.message ?? "", ref);
};

describe("work mode with an agent preset, in three jobs", () => {
  it("hands the agent the brief and only its key, publishes one commit on bosun/<n>-<slug> with one pull request saying Closes #n and the brief's hash, and journals the stop and cost", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "export const retry = true;\n" } }]);
    const { check, agent, land } = await runPhases(s, 1);
    expect([...check.failures, ...(agent?.failures ?? []), ...(land?.failures ?? [])]).toEqual([]);
    const [record] = await s.bin.records();
    expect(record?.prompt).toContain("Work on retry-after.");
    expect(record?.prompt).toContain(`Closes #${s.n}`);
    expect(record?.prompt).toContain(s.hash);
    expect(record?.prompt).toContain("npm test");
    expect(record?.args[record.args.indexOf("--max-turns") + 1]).toBe("9");
    expect(record?.env).not.toHaveProperty("GITHUB_TOKEN");
    expect(record?.env).not.toHaveProperty("ACTIONS_RUNTIME_TOKEN");
    expect(Object.values(record?.env ?? {})).not.toContain("t-bot");
    expect(Object.values(record?.env ?? {})).not.toContain(RUNNER.GITHUB_TOKEN);
    expect(record?.env["ANTHROPIC_API_KEY"]).toBe("sk-ant-test-key-0005");

    const repo = s.fixture.fake.repo(REPO);
    const pulls = pullsOf(s.fixture);
    expect(pulls).toHaveLength(1);
    const pull = pulls[0];
    expect(pull?.headRef).toBe(`bosun/${s.n}-work-on-retry-after`);
    expect(repo.issues.get(pull?.number ?? 0)?.body).toContain(`Closes #${s.n}`);
    expect(repo.issues.get(pull?.number ?? 0)?.body).toContain(s.hash);
    const head = repo.commits.get(repo.refs.get(`refs/heads/${pull?.headRef ?? ""}`) ?? "");
    expect(head?.parents).toEqual([repo.refs.get("refs/heads/main")]);
    expect(repo.trees.get(head?.tree ?? "")?.get("src/retry.ts")).toBe("export const retry = true;\n");
    expect(repo.trees.get(head?.tree ?? "")?.get("src/keep.ts")).toBe("export const keep = 1;\n");

    // The cost the agent job measured and the agent reported, carried in the result file, on LAND.
    expect(landEvent(land)).toMatchObject({ event: "LAND", ok: true, stop: { kind: "done" }, cost: { tokens: 1650, usd: 0.0421 } });
    expect(landEvent(land).cost?.wall_clock_s).toBeGreaterThan(0);
    // The landing is recorded once, in the claim record Bosun wrote: the stop, the pull request, the cost.
    expect(recordOf(s.fixture, s.n)).toMatchObject({ state: "review", epoch: 1, pull: pull?.number, landing: { stop: { kind: "done" }, cost: { tokens: 1650, usd: 0.0421 } } });
    // A run that succeeded with its pull request is "PR open, gate pending", never done.
    expect(s.fixture.labelsOf(s.n)).toEqual(["bosun:ready", "bosun:review"]);
  });

  it("a retry at a later epoch, after a land that failed with the pull request already open, commits on the same branch and reuses that pull request", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "attempt 1\n" } }, { edits: { "src/retry.ts": "attempt 2\n", "src/other.ts": "x\n" } }]);
    // The land's claim-ref update (a GraphQL updateRefs batch) fails once, once the pull request is
    // open, and does not apply: the run ends with its PR open but its item unlanded.
    const remove = s.fixture.fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", applied: false, when: () => pullsOf(s.fixture).length > 0 });
    const first = await runPhases(s, 1);
    remove();
    expect(first.land?.failures.join("\n")).toMatch(/land could not be written/);
    expect(pullsOf(s.fixture)).toHaveLength(1);
    // The run failed (its land could not be written): the scheduler lands it from the run's
    // conclusion, for a human (a failure nobody classified is never a guessed retry). A maintainer
    // approves it again (a new approval event), and the scheduler dispatches epoch 2.
    for (const run of s.fixture.runsOf(s.n)) s.fixture.fake.completeWorkflowRun(REPO, run.id, "failure");
    await s.fixture.replica("app").tick();
    expect(s.fixture.labelsOf(s.n)).toContain("bosun:needs-human");
    await s.fixture.reapprove(s.n);
    await s.fixture.replica("app").tick();
    expect(s.fixture.runsOf(s.n).map((r) => r.epoch)).toEqual([1, 2]);

    const createsBefore = s.fixture.fake.accounting.count((e) => e.route === "POST /repos/{owner}/{repo}/pulls");
    const second = await runPhases(s, 2);
    expect([...second.check.failures, ...(second.agent?.failures ?? []), ...(second.land?.failures ?? [])]).toEqual([]);
    // One pull request still, and no second create was even attempted: the open one was found first.
    expect(pullsOf(s.fixture)).toHaveLength(1);
    expect(s.fixture.fake.accounting.count((e) => e.route === "POST /repos/{owner}/{repo}/pulls")).toBe(createsBefore);
    const repo = s.fixture.fake.repo(REPO);
    const branch = pullsOf(s.fixture)[0]?.headRef ?? "";
    const head = repo.commits.get(repo.refs.get(`refs/heads/${branch}`) ?? "");
    const previous = repo.commits.get(head?.parents[0] ?? "");
    // The branch moved forward: epoch 2's commit sits on epoch 1's, and holds epoch 2's work.
    expect(previous?.message).toMatch(/epoch 1/);
    expect(head?.message).toMatch(/epoch 2/);
    expect(repo.trees.get(head?.tree ?? "")?.get("src/retry.ts")).toBe("attempt 2\n");
    expect(repo.trees.get(head?.tree ?? "")?.get("src/other.ts")).toBe("x\n");
    expect(second.land?.outputs["pull-request"]).toBe(String(pullsOf(s.fixture)[0]?.number));
    expect(recordOf(s.fixture, s.n)).toMatchObject({ state: "review", epoch: 2, pull: pullsOf(s.fixture)[0]?.number });
  });

  it("lands a done that changed nothing as blocked, and opens no pull request", async () => {
    const s = await setup([{}]);
    const { land } = await runPhases(s, 1);
    expect(landEvent(land).stop).toMatchObject({ kind: "blocked" });
    expect(pullsOf(s.fixture)).toHaveLength(0);
    expect(s.fixture.labelsOf(s.n)).toContain("bosun:needs-human");
  });

  it("refuses an agent-env that names a runner token, before anything runs", async () => {
    const s = await setup([{ edits: { "src/x.ts": "x\n" } }]);
    const { agent, land } = await runPhases(s, 1, "codex", { agentInputs: { "agent-env": "MY_SETTING, GITHUB_TOKEN" } });
    expect(agent?.failures[0]).toMatch(/agent-env: GITHUB_TOKEN is the runner's own credential/);
    expect(land).toBeUndefined();
    expect(await s.bin.records()).toEqual([]);
  });

  it("hands on a name agent-env lists, and still no runner token", async () => {
    const s = await setup([{ edits: { "src/x.ts": "x\n" } }], "codex");
    const { land } = await runPhases(s, 1, "codex", { agentInputs: { "agent-env": "LLM_API_KEY" } });
    expect(land?.failures).toEqual([]);
    const [record] = await s.bin.records();
    expect(record?.env["LLM_API_KEY"]).toBe(KEYS.LLM_API_KEY);
    for (const name of Object.keys(RUNNER)) expect(record?.env, name).not.toHaveProperty(name);
  });
});

describe("the land job reads the agent's files as hostile data", () => {
  it("a patch that writes outside the tree publishes nothing and lands for a human, naming the patch", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "fine\n" } }]);
    const escape = await mkdtemp(join(tmpdir(), "bosun-escape-"));
    const { land } = await runPhases(s, 1, "claude-code", {
      tamper: async ({ patch }) => writeFile(patch, `diff --git a/../../../../../..${escape}/owned b/../../../../../..${escape}/owned\nnew file mode 100644\n--- /dev/null\n+++ b/../../../../../..${escape}/owned\n@@ -0,0 +1 @@\n+owned\n`),
    });
    expect(land?.failures.join("\n")).toMatch(/the agent's patch does not apply to [0-9a-f]{12}: error: invalid path/);
    await expect(readFile(join(escape, "owned"), "utf8")).rejects.toThrow();
    expect(pullsOf(s.fixture)).toHaveLength(0);
    expect([...s.fixture.fake.repo(REPO).refs.keys()].filter((r) => r.startsWith("refs/heads/bosun/"))).toEqual([]);
    expect(s.fixture.labelsOf(s.n)).toContain("bosun:needs-human");
  });

  it("a patch into .git publishes nothing", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "fine\n" } }]);
    const { land } = await runPhases(s, 1, "claude-code", {
      tamper: async ({ patch }) => writeFile(patch, "diff --git a/.git/hooks/post-commit b/.git/hooks/post-commit\nnew file mode 100755\n--- /dev/null\n+++ b/.git/hooks/post-commit\n@@ -0,0 +1 @@\n+touch /tmp/owned\n"),
    });
    expect(land?.failures.join("\n")).toMatch(/the agent's patch does not apply to [0-9a-f]{12}: error: invalid path/);
    expect(pullsOf(s.fixture)).toHaveLength(0);
  });

  it("a patch that writes through a symbolic link it makes publishes nothing", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "fine\n" } }]);
    const link = "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc\n\\ No newline at end of file\n";
    const through = await runPhases(s, 1, "claude-code", { tamper: async ({ patch }) => writeFile(patch, `${link}diff --git a/l/owned b/l/owned\nnew file mode 100644\n--- /dev/null\n+++ b/l/owned\n@@ -0,0 +1 @@\n+x\n`) });
    expect(through.land?.failures.join("\n")).toMatch(/beyond a symbolic link/);
    expect(pullsOf(s.fixture)).toHaveLength(0);
    expect(s.fixture.labelsOf(s.n)).toContain("bosun:needs-human");
  });

  it("a patch that makes a symbolic link publishes nothing, naming the file", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "fine\n" } }]);
    const { land } = await runPhases(s, 1, "claude-code", { tamper: async ({ patch }) => writeFile(patch, "diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n") });
    expect(land?.failures.join("\n")).toMatch(/l: a symbolic link cannot be published/);
    expect(pullsOf(s.fixture)).toHaveLength(0);
    expect([...s.fixture.fake.repo(REPO).refs.keys()].filter((r) => r.startsWith("refs/heads/bosun/"))).toEqual([]);
  });

  it("a land whose epoch lost the item while the agent ran publishes nothing", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "late\n" } }]);
    const { land } = await runPhases(s, 1, "claude-code", {
      // Between the agent job and the land job, the item goes to a human and back, at epoch 2.
      tamper: async () => {
        for (const run of s.fixture.runsOf(s.n)) s.fixture.fake.completeWorkflowRun(REPO, run.id, "failure");
        await s.fixture.replica("app").tick();
        await s.fixture.reapprove(s.n);
        await s.fixture.replica("app").tick();
        expect(s.fixture.runsOf(s.n).map((r) => r.epoch)).toEqual([1, 2]);
      },
    });
    expect(land?.failures.join("\n")).toMatch(/stale epoch: this run has epoch 1, the item is held at epoch 2/);
    expect(pullsOf(s.fixture)).toHaveLength(0);
    expect([...s.fixture.fake.repo(REPO).refs.keys()].filter((r) => r.startsWith("refs/heads/bosun/"))).toEqual([]);
  });

  it("a patch over the cap is refused unread", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "fine\n" } }]);
    const { land } = await runPhases(s, 1, "claude-code", { tamper: async ({ patch }) => writeFile(patch, "x".repeat(5 * 1024 * 1024 + 1)) });
    expect(land?.failures.join("\n")).toMatch(/larger than 5242880 bytes/);
    expect(pullsOf(s.fixture)).toHaveLength(0);
  });

  it("a cost the result file cannot have measured is refused, not journalled", async () => {
    const s = await setup([{ edits: { "src/retry.ts": "fine\n" } }]);
    const { land } = await runPhases(s, 1, "claude-code", {
      tamper: async ({ result }) => {
        const r = JSON.parse(await readFile(result, "utf8")) as Record<string, unknown>;
        await writeFile(result, JSON.stringify({ ...r, cost: { wall_clock_s: -1, tokens: 1.5 } }));
      },
    });
    expect(land?.failures.join("\n")).toMatch(/refusing to land: .*invalid cost/);
    expect(pullsOf(s.fixture)).toHaveLength(0);
  });
});

describe("work mode with a preset and no checkout", () => {
  it("lands the item for a human at once, naming the missing checkout, and runs no agent", async () => {
    const s = await setup([{ edits: { "src/x.ts": "x\n" } }]);
    const { land } = await runPhases(s, 1, "claude-code", { agentWorkspace: await mkdtemp(join(tmpdir(), "not-a-checkout-")) });
    expect(land?.failures[0]).toMatch(/open-pull-request needs the repository checked out in GITHUB_WORKSPACE/);
    expect(await s.bin.records()).toEqual([]);
    expect(pullsOf(s.fixture)).toHaveLength(0);
    expect(s.fixture.labelsOf(s.n)).toContain("bosun:needs-human");
  });
});

describe.each([
  ["claude-code", "claude", ["ANTHROPIC_API_KEY"]],
  ["codex", "codex", ["CODEX_API_KEY", "OPENAI_API_KEY"]],
  ["aider", "aider", ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"]],
  ["openhands", "openhands", ["LLM_API_KEY"]],
] as const)("work mode with agent: %s", (agent, tool, own) => {
  it("runs the stand-in with its own key only, opens the item's one pull request, and journals the typed stop and cost", async () => {
    const s = await setup([{ edits: { "src/retry.ts": `by ${tool}\n` } }], tool);
    const { land } = await runPhases(s, 1, agent);
    expect(land?.failures).toEqual([]);
    const [record] = await s.bin.records();
    expect(record?.tool).toBe(tool);
    expect(record?.prompt).toContain(`Closes #${s.n}`);
    for (const [name, value] of Object.entries(KEYS)) {
      if ((own as readonly string[]).includes(name)) expect(record?.env[name]).toBe(value);
      else expect(record?.env, name).not.toHaveProperty(name);
    }
    for (const name of Object.keys(RUNNER)) expect(record?.env, name).not.toHaveProperty(name);
    const pulls = pullsOf(s.fixture);
    expect(pulls.map((p) => p.headRef)).toEqual([`bosun/${s.n}-work-on-retry-after`]);
    const repo = s.fixture.fake.repo(REPO);
    expect(repo.trees.get(repo.commits.get(repo.refs.get(`refs/heads/${pulls[0]?.headRef ?? ""}`) ?? "")?.tree ?? "")?.get("src/retry.ts")).toBe(`by ${tool}\n`);
    const landed = landEvent(land);
    expect(landed.stop).toEqual({ kind: "done" });
    expect(landed.cost?.wall_clock_s).toBeGreaterThan(0);
  });
});

describe("work mode with agent: command and open-pull-request: true", () => {
  it("publishes the command's changes the same way", async () => {
    const s = await setup([]);
    const { land } = await runPhases(s, 1, "command", { agentInputs: { "agent-command": "mkdir -p src && echo from-command > src/cmd.ts", "open-pull-request": "true" } });
    expect(land?.failures).toEqual([]);
    const pulls = pullsOf(s.fixture);
    expect(pulls).toHaveLength(1);
    const repo = s.fixture.fake.repo(REPO);
    expect(repo.trees.get(repo.commits.get(repo.refs.get(`refs/heads/${pulls[0]?.headRef ?? ""}`) ?? "")?.tree ?? "")?.get("src/cmd.ts")).toBe("from-command\n");
  });
});
