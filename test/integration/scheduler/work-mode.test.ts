import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import work from "../../../src/action/modes/work.js";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";

async function dispatched(extra = ""): Promise<{ fixture: Fixture; n: number; hash: string }> {
  const fixture = await schedulerFixture(CONFIG);
  fixture.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
  const n = await fixture.queue("job", extra);
  await reconcileTick(fixture.replica("app"));
  const comment = [...fixture.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n);
  const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
  return { fixture, n, hash };
}

async function runWork(fixture: Fixture, inputs: Record<string, string>) {
  const io = memoryActionIo({ inputs: { "github-token": "t-bot", "bot-login": "bosun[bot]", ...inputs }, eventName: "workflow_dispatch", payload: {}, env: { GITHUB_API_URL: fixture.fake.url, RUNNER_TEMP: await mkdtemp(join(tmpdir(), "bosun-work-")), GITHUB_WORKSPACE: tmpdir() } });
  await work.run(io.io);
  return io;
}

describe("the Action's work mode", () => {
  it("runs the agent on the frozen brief and lands its structured stop with evidence on the claim", async () => {
    const d = await dispatched();
    f = d.fixture;
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": 'echo "working on $BOSUN_ITEM at epoch $BOSUN_EPOCH"; echo \'{"kind":"done","reason":"opened a PR"}\' > "$BOSUN_RESULT"' });
    expect(io.failures).toEqual([]);
    expect(JSON.parse(io.outputs["stop"] ?? "{}")).toEqual({ kind: "done", reason: "opened a PR" });
    expect(f.labelsOf(d.n)).toEqual(["bosun:done", "bosun:ready"]);
    const comment = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === d.n);
    // BOSUN_ITEM is the brief's id (an issue's brief defaults to its number; this one names itself).
    expect(comment?.body).toContain("working on job at epoch 1");
    expect(io.summaries.join("")).toContain("| ok |");
  });

  it("refuses to act on a stale epoch, and changes nothing", async () => {
    const d = await dispatched();
    f = d.fixture;
    const before = f.fake.accounting.count({ kind: "write" }) + f.fake.accounting.count({ kind: "create" });
    const io = await runWork(f, { item: String(d.n), epoch: "2", "brief-hash": d.hash, "agent-command": "touch should-not-run" });
    expect(io.failures[0]).toMatch(/stale epoch: this run has epoch 2, the item is held at epoch 1/);
    expect(f.fake.accounting.count({ kind: "write" }) + f.fake.accounting.count({ kind: "create" })).toBe(before);
    expect(f.labelsOf(d.n)).toContain("bosun:claimed");
  });

  it("refuses to act when the brief's hash is not the approved one", async () => {
    const d = await dispatched();
    f = d.fixture;
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": "sha256:" + "0".repeat(64), "agent-command": "true" });
    expect(io.failures[0]).toMatch(/the approved brief is sha256:/);
  });

  it("kills an agent that outruns the brief's wall clock and lands out of budget for a human", async () => {
    const d = await dispatched("budget: {wall_clock: 1s}");
    f = d.fixture;
    const io = await runWork(f, { item: String(d.n), epoch: "1", "brief-hash": d.hash, "agent-command": "sleep 20" });
    expect(JSON.parse(io.outputs["stop"] ?? "{}")).toMatchObject({ kind: "out_of_budget", limit: "wall_clock" });
    expect(f.labelsOf(d.n)).toEqual(["bosun:needs-human", "bosun:ready"]);
  });
});
