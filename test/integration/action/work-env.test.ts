import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import work from "../../../src/action/modes/work.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { REPO, schedulerFixture } from "../scheduler/scheduler-fixture.js";
import { runWorkPhases } from "../scheduler/work-phases.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";

// The runner's own credentials as a work step sees them, beside the token Bosun itself uses.
const RUNNER = {
  GITHUB_TOKEN: "ghs_runnerTokenOfTheWorkJob0123456789ab",
  ACTIONS_RUNTIME_TOKEN: "eyJworkRuntimeToken0123456789",
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: "eyJworkOidcRequest0123456789",
  ACTIONS_ID_TOKEN_REQUEST_URL: "https://pipelines.example/oidc?sig=workoidc0123",
  ACTIONS_RESULTS_URL: "https://results.example/?sig=workresults0123",
  "INPUT_GITHUB-TOKEN": "t-bot",
  NPM_AUTH: "npm-auth-of-the-runner-0123",
};

/** An item the App dispatched: its brief's hash, and the run (sha, id) its jobs belong to. */
async function dispatched(): Promise<{ n: number; hash: string; run: { sha: string; runId: number } }> {
  f = await schedulerFixture(CONFIG);
  f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
  const n = await f.queue("job");
  await f.replica("app").tick();
  const comment = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n);
  const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
  return { n, hash, run: { sha: f.fake.repo(REPO).refs.get("refs/heads/main") ?? "", runId: f.runsOf(n)[0]?.id ?? 0 } };
}

describe("the work mode's agent", () => {
  it("gets no runner token, no runtime credential and no input: its environment is an allowlist plus pass-env", async () => {
    const d = await dispatched();
    if (f === undefined) throw new Error("no fixture");
    const out = await mkdtemp(join(tmpdir(), "bosun-work-env-"));
    const agent = `env > '${out}/env.txt'; echo '{"kind":"done","reason":"ok"}' > "$BOSUN_RESULT"`;
    const phases = await runWorkPhases(f.fake.url, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": agent, "pass-env": "ANTHROPIC_API_KEY" }, { ...RUNNER, HOME: out, ANTHROPIC_API_KEY: "sk-ant-handedover0123456789", UNNAMED: "not handed over" }, undefined, d.run);
    const io = phases.agent;
    if (io === undefined) throw new Error(`the check phase failed: ${phases.check.failures.join("; ")}`);
    expect([...io.failures, ...(phases.land?.failures ?? [])]).toEqual([]);
    const dir = out;
    const seen = await readFile(join(dir, "env.txt"), "utf8");
    for (const [name, value] of Object.entries(RUNNER)) expect(seen, `${name} reached the agent`).not.toContain(value);
    expect(seen).not.toContain("t-bot");
    expect(seen).not.toContain("UNNAMED");
    expect(seen).toMatch(/^ANTHROPIC_API_KEY=sk-ant-handedover0123456789$/m);
    expect(seen).toMatch(/^BOSUN_ITEM=/m);
    expect(seen).toMatch(/^BOSUN_MAX_STEPS=\d+$/m);
    expect(seen).toMatch(/^PATH=/m);
    // What it handed back is masked like everything else.
    expect(io.outputs["evidence"]).not.toContain("sk-ant-handedover0123456789");
  });

  it("refuses a pass-env that names the runner's token, before touching the claim", async () => {
    const d = await dispatched();
    if (f === undefined) throw new Error("no fixture");
    const writes = () => (f?.fake.accounting.count({ kind: "write" }) ?? 0) + (f?.fake.accounting.count({ kind: "create" }) ?? 0);
    const before = writes();
    const io = memoryActionIo({ inputs: { "github-token": "t-bot", "work-phase": "check", item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": "true", "pass-env": "ACTIONS_RUNTIME_TOKEN" }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: f.fake.url }, event: d.run });
    await work.run(io.io);
    expect(io.failures[0]).toMatch(/input 'pass-env': ACTIONS_RUNTIME_TOKEN/);
    expect(writes()).toBe(before);
  });
});
