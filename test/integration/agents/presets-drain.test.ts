/**
 * Each agent preset, run by `bosun drain --agent NAME` against a stand-in executable on PATH that
 * has the real tool's name and flags and prints its documented output. What is checked comes
 * from the stand-in's own record (arguments, environment, prompt) and from the journal file.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";
import { standInBin, type Scenario, type StandInRecord } from "../../support/agents/stand-in-bin.js";

const RUNNER_SECRETS = {
  GITHUB_TOKEN: "ghs_runnerTokenThatMustNotLeak0001",
  ACTIONS_RUNTIME_TOKEN: "actions-runtime-secret-0002",
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: "oidc-request-secret-0003",
  AWS_SECRET_ACCESS_KEY: "aws-secret-that-no-agent-needs-0004",
};
const MODEL_KEYS = {
  ANTHROPIC_API_KEY: "sk-ant-test-key-0005",
  OPENAI_API_KEY: "sk-openai-test-key-0006",
  CODEX_API_KEY: "codex-test-key-0007",
  LLM_API_KEY: "llm-test-key-0008",
};

const BRIEF = (id: string, extra = ""): string =>
  [
    `id: ${id}`,
    "goal: Honor Retry-After on 429 and 503 in the HTTP client wrapper.",
    "constraints:",
    "  paths: [src/http/**, test/http/**, '!src/http/vendor.ts']",
    "  notes: [keep the public request() signature, no new dependencies]",
    "non_goals: [exponential backoff, circuit breaking]",
    "acceptance: {command: node --test test/http}",
    "size_cap: 120",
    `budget: {steps: 7, tokens: 50000${extra}}`,
    "",
  ].join("\n");

async function workspace(briefs: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-presets-"));
  await mkdir(join(dir, "src/http"), { recursive: true });
  await mkdir(join(dir, "src/db"), { recursive: true });
  await mkdir(join(dir, "briefs"));
  await writeFile(join(dir, "src/http/retry.ts"), "export const retry = 1;\n");
  await writeFile(join(dir, "src/db/pool.ts"), "export const pool = 1;\n");
  // The briefs' acceptance command (`node --test test/http`) passes here, so the gate can accept a change.
  await mkdir(join(dir, "test/http"), { recursive: true });
  await writeFile(join(dir, "test/http/ok.test.mjs"), 'import test from "node:test";\ntest("ok", () => {});\n');
  for (const [id, text] of Object.entries(briefs)) await writeFile(join(dir, "briefs", `${id}.yml`), text);
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, stdio: "ignore" });
  git("init", "-q");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "start");
  return dir;
}

async function drain(agent: string, scenarios: Record<string, Record<string, Scenario | Scenario[]>>, briefs: Record<string, string>, extraArgs: string[] = [], extraEnv: Record<string, string> = {}) {
  const bin = await standInBin(scenarios);
  const dir = await workspace(briefs);
  const run = await runBosun(["drain", "--agent", agent, "--briefs", "briefs", "--state", "state", "--attempts", "1", ...extraArgs], {
    cwd: dir,
    env: { PATH: `${bin.dir}:${process.env["PATH"] ?? ""}`, ...RUNNER_SECRETS, ...MODEL_KEYS, ...extraEnv },
  });
  const journal = (await readFile(join(dir, "state", "journal.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const lands = new Map(journal.filter((e) => e["event"] === "LAND").map((e) => [String(e["item"]), e]));
  return { run, dir, journal, lands, records: await bin.records() };
}

/** The prompt carries every part of the brief (and, for an agent that can write it, how to declare the finish). */
function expectWholeBrief(prompt: string, declares = true): void {
  if (declares) expect(prompt).toMatch(/write one line of JSON to the file named by the environment variable BOSUN_RESULT[^\n]*`\{"kind": "done"\}`/);
  else expect(prompt).not.toContain("BOSUN_RESULT");
  for (const part of [
    "Honor Retry-After on 429 and 503 in the HTTP client wrapper.",
    "`src/http/**`",
    "`test/http/**`",
    "keep the public request() signature",
    "no new dependencies",
    "exponential backoff",
    "circuit breaking",
    "node --test test/http",
    "at most 120 lines",
    "At most 7 steps and 50000 tokens",
  ]) {
    expect(prompt).toContain(part);
  }
}

/** Only the base variables, the agent's own credentials and Bosun's variables reach it. */
function expectOnlyItsCredentials(record: StandInRecord, own: readonly (keyof typeof MODEL_KEYS)[]): void {
  for (const name of Object.keys(RUNNER_SECRETS)) expect(record.env, name).not.toHaveProperty(name);
  const values = Object.values(record.env).join("\n");
  for (const value of Object.values(RUNNER_SECRETS)) expect(values).not.toContain(value);
  for (const [name, value] of Object.entries(MODEL_KEYS)) {
    if (own.includes(name as keyof typeof MODEL_KEYS)) expect(record.env[name]).toBe(value);
    else expect(record.env, name).not.toHaveProperty(name);
  }
  expect(record.env["BOSUN_RESULT"]).toMatch(/result\.json$/);
}

const after = (args: string[], flag: string): string | undefined => args[args.indexOf(flag) + 1];

describe("agent presets under bosun drain --agent", () => {
  it("claude-code: edits limited to the brief's paths, the acceptance command the only shell command, turns from budget.steps; cost from total_cost_usd and usage", async () => {
    const d = await drain("claude-code", { claude: { ok: { edits: { "src/http/retry.ts": "export const retry = 2;\n" } }, turns: { outcome: "max_turns", result: { kind: "done" } }, talk: { outcome: "garbage" }, busy: { outcome: "api_error" }, stuck: { result: { kind: "blocked", reason: "the goal needs a change to src/db" } }, quiet: { result: null } } }, {
      quiet: BRIEF("quiet"),
      ok: BRIEF("ok"),
      turns: BRIEF("turns"),
      talk: BRIEF("talk"),
      busy: BRIEF("busy"),
      stuck: BRIEF("stuck"),
    });
    const record = d.records.find((r) => r.item === "ok") as StandInRecord;
    expect(record.tool).toBe("claude");
    expectWholeBrief(record.prompt);
    expectOnlyItsCredentials(record, ["ANTHROPIC_API_KEY"]);
    expect(after(record.args, "--output-format")).toBe("json");
    expect(after(record.args, "--max-turns")).toBe("7");
    expect(after(record.args, "--permission-mode")).toBe("dontAsk");
    expect(after(record.args, "--add-dir")).toBe(record.env["BOSUN_RESULT"]?.replace(/\/result\.json$/, ""));
    const allowed = record.args.slice(record.args.indexOf("--allowedTools") + 1, record.args.indexOf("--disallowedTools"));
    expect(allowed).toEqual(expect.arrayContaining(["Edit(src/http/**)", "Edit(test/http/**)", "Bash(node --test test/http)"]));
    // No other shell command and no edit anywhere else is pre-approved.
    expect(allowed.filter((a) => a.startsWith("Bash(") && !["Bash(node --test test/http)", "Bash(git status)", "Bash(git diff:*)"].includes(a))).toEqual([]);
    // ...except the result file, by its absolute path (`//` in a Claude Code rule).
    expect(allowed.filter((a) => a.startsWith("Edit(") && !/^Edit\((src|test)\/http\/\*\*\)$/.test(a))).toEqual([`Edit(/${record.env["BOSUN_RESULT"] ?? ""})`]);
    expect(record.args.slice(record.args.indexOf("--disallowedTools") + 1)).toEqual(expect.arrayContaining(["Edit(src/http/vendor.ts)", "WebFetch"]));
    expect(await readFile(join(d.dir, "src/http/retry.ts"), "utf8")).toBe("export const retry = 2;\n");

    expect(d.lands.get("ok")).toMatchObject({ ok: true, stop: { kind: "done" }, cost: { tokens: 1650, usd: 0.0421 } });
    expect((d.lands.get("ok")?.["cost"] as { wall_clock_s: number }).wall_clock_s).toBeGreaterThan(0);
    // The runner said max turns; the model's own "done" in the result file cannot overrule it.
    expect(d.lands.get("turns")).toMatchObject({ ok: false, stop: { kind: "out_of_budget", limit: "steps" }, disposition: "human" });
    expect(d.lands.get("talk")).toMatchObject({ ok: false, stop: { kind: "failed" }, failure: "unclassified" });
    expect(d.lands.get("busy")).toMatchObject({ stop: { kind: "failed" }, failure: "retry" });
    // Claude's runner said success, but the model never declared the work finished: not done.
    expect(d.lands.get("quiet")).toMatchObject({ ok: false, stop: { kind: "blocked" }, disposition: "human" });
    expect(d.lands.get("stuck")).toMatchObject({ stop: { kind: "blocked", reason: "the goal needs a change to src/db" }, disposition: "human" });
    expect(d.run.code).toBe(1);

    // The gate accepts "ok"'s change (accepted means the gate passed, docs/stats.md): commit what the
    // agent edited on a branch and judge it, journalling the verdict beside the drain's events.
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: d.dir, encoding: "utf8" });
    const base = git("rev-parse", "HEAD").trim();
    git("checkout", "-q", "-b", "work-ok");
    git("add", "src");
    git("commit", "-qm", "ok");
    const gate = await runBosun(["gate", "--brief", "briefs/ok.yml", "--base", base, "--head", "work-ok", "--state", "state"], { cwd: d.dir });
    expect(gate.code, gate.stdout + gate.stderr).toBe(0);

    // bosun stats over this drain: cost per accepted task from those LAND costs (one accepted: ok).
    const stats = await runBosun(["stats", "--journal", join(d.dir, "state", "journal.jsonl"), "--format", "json"], { cwd: d.dir });
    expect(stats.code).toBe(0);
    const cost = (JSON.parse(stats.stdout) as { cost: { accepted_tasks: number; runs: number; total: { usd: number; tokens: number }; per_accepted_task: { usd: number; tokens: number } } }).cost;
    const lands = [...d.lands.values()].map((l) => l["cost"] as { usd?: number; tokens?: number });
    const usd = lands.reduce((a, c) => a + (c.usd ?? 0), 0);
    expect(cost.accepted_tasks).toBe(1);
    expect(cost.runs).toBe(6);
    expect(cost.per_accepted_task.usd).toBeCloseTo(usd, 10);
    expect(cost.per_accepted_task.tokens).toBe(lands.reduce((a, c) => a + (c.tokens ?? 0), 0));
    const table = await runBosun(["stats", "--journal", join(d.dir, "state", "journal.jsonl")], { cwd: d.dir });
    expect(table.stdout).toMatch(/usd/);
  });

  it("codex: exec --json in the workspace-write sandbox; tokens summed from turn.completed; a context overflow is out of budget, a 429 is a retry", async () => {
    const hostile = `Fix it'; touch PWNED; echo '$(touch PWNED2) \`touch PWNED3\``;
    const evil = BRIEF("evil").replace("goal: Honor Retry-After on 429 and 503 in the HTTP client wrapper.", `goal: ${JSON.stringify(hostile)}`);
    const d = await drain("codex", { codex: { ok: { edits: { "src/http/retry.ts": "x\n" } }, full: { outcome: "context" }, limited: { outcome: "rate_limit" } } }, { ok: BRIEF("ok"), full: BRIEF("full"), limited: BRIEF("limited"), evil });
    // A goal written to break out of the shell is one argument, word for word, and runs nothing.
    expect(d.records.find((r) => r.item === "evil")?.prompt).toContain(hostile);
    for (const f of ["PWNED", "PWNED2", "PWNED3"]) expect(existsSync(join(d.dir, f)), f).toBe(false);
    const record = d.records.find((r) => r.item === "ok") as StandInRecord;
    expectWholeBrief(record.prompt);
    expectOnlyItsCredentials(record, ["CODEX_API_KEY", "OPENAI_API_KEY"]);
    expect(record.args.slice(0, 2)).toEqual(["exec", "--json"]);
    expect(after(record.args, "--sandbox")).toBe("workspace-write");
    expect(after(record.args, "--ask-for-approval")).toBe("never");
    // The sandbox may write the run's folder (for $BOSUN_RESULT) besides the working tree.
    expect(record.args).toContain(`sandbox_workspace_write.writable_roots=${JSON.stringify([record.env["BOSUN_RESULT"]?.replace(/\/result\.json$/, "")])}`);
    expect(d.lands.get("ok")).toMatchObject({ ok: true, stop: { kind: "done" }, cost: { tokens: 26549 + 1590 } });
    expect(d.lands.get("ok")?.["cost"]).not.toHaveProperty("usd");
    expect(d.lands.get("full")).toMatchObject({ stop: { kind: "out_of_budget", limit: "tokens" }, disposition: "human" });
    expect(d.lands.get("limited")).toMatchObject({ stop: { kind: "failed" }, failure: "retry" });
  });

  it("aider: the allowed tracked files on its command line, the acceptance command as its test command, no commits; cost from its Tokens/Cost lines", async () => {
    const d = await drain("aider", { aider: { "*": { edits: { "src/http/retry.ts": "y\n" } }, broken: { outcome: "failed" } } }, { ok: BRIEF("ok"), broken: BRIEF("broken") });
    const record = d.records.find((r) => r.item === "ok") as StandInRecord;
    // aider's model can write no file but its chat's: it is not asked to declare its finish.
    expectWholeBrief(record.prompt, false);
    expectOnlyItsCredentials(record, ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"]);
    expect(record.args).toEqual(expect.arrayContaining(["--yes-always", "--no-auto-commits", "--auto-test", "--no-suggest-shell-commands"]));
    expect(after(record.args, "--test-cmd")).toBe("node --test test/http");
    expect(record.args.slice(record.args.indexOf("--") + 1)).toEqual(["src/http/retry.ts", "test/http/ok.test.mjs"]);
    // Its history files stay out of the working tree (they would otherwise be pushed as changes).
    expect(after(record.args, "--chat-history-file")?.startsWith(d.dir + "/state/")).toBe(true);
    expect(d.lands.get("ok")).toMatchObject({ ok: true, cost: { tokens: 2300 + 180 + 3100 + 220, usd: 0.03 } });
    expect(d.lands.get("broken")).toMatchObject({ ok: false, stop: { kind: "failed" }, failure: "unclassified" });
  });

  it("openhands: headless JSON from a task file, its model from LLM_* only with --override-with-envs, the step cap as MAX_ITERATIONS", async () => {
    const d = await drain("openhands", { openhands: { ok: {}, long: { outcome: "max_iterations" } } }, { ok: BRIEF("ok"), long: BRIEF("long") });
    const record = d.records.find((r) => r.item === "ok") as StandInRecord;
    expectWholeBrief(record.prompt);
    expectOnlyItsCredentials(record, ["LLM_API_KEY"]);
    expect(record.args).toEqual(expect.arrayContaining(["--headless", "--json", "--override-with-envs", "-f"]));
    expect(record.env["MAX_ITERATIONS"]).toBe("7");
    expect(d.lands.get("ok")).toMatchObject({ ok: true, stop: { kind: "done" } });
    expect(Object.keys(d.lands.get("ok")?.["cost"] as object)).toEqual(["wall_clock_s"]);
    expect(d.lands.get("long")).toMatchObject({ stop: { kind: "out_of_budget", limit: "steps" } });
  });

  it("kills a preset agent that outruns budget.wall_clock and still journals what it cost", async () => {
    const d = await drain("claude-code", { claude: { "*": { sleepMs: 20_000 } } }, { slow: BRIEF("slow", ", wall_clock: 1s") });
    expect(d.lands.get("slow")).toMatchObject({ stop: { kind: "out_of_budget", limit: "wall_clock" } });
    expect((d.lands.get("slow")?.["cost"] as { wall_clock_s: number }).wall_clock_s).toBeGreaterThanOrEqual(1);
  });

  it("masks a multi-line secret the agent prints, in the journal's evidence and the result file", async () => {
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nbm90LWEtcmVhbC1rZXktYnV0LWxvbmc=\n-----END PRIVATE KEY-----";
    const d = await drain("claude-code", { claude: { "*": { stderr: `oops: ${pem}\n` } } }, { leaky: BRIEF("leaky") }, [], { DEPLOY_PRIVATE_KEY: pem });
    const evidence = JSON.stringify(d.lands.get("leaky")?.["evidence"]);
    expect(evidence).toContain("oops:");
    for (const line of pem.split("\n").slice(1, 3)) {
      expect(evidence).not.toContain(line);
      expect(await readFile(join(d.dir, "state", "results", "leaky.json"), "utf8")).not.toContain(line);
    }
  });

  it("rejects an unknown agent name and --agent with --run, naming the flag", async () => {
    const dir = await workspace({ ok: BRIEF("ok") });
    const unknown = await runBosun(["drain", "--agent", "gpt-pilot"], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--agent must be one of claude-code, codex, aider, openhands, command, got 'gpt-pilot'/);
    const both = await runBosun(["drain", "--agent", "codex", "--run", "true"], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/without --run/);
  });
});
