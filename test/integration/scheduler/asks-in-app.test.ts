/**
 * The App's handlers (`registerScheduler`) around the asks of a webhook and the gate's pass, with
 * a real RepoTicker over HTTP to the fake GitHub: a timed sweep that folds into a tick set off by
 * an answered ask is still a whole tick; a gate pass that the replica hearing it cannot journal
 * (it has not read the item in review) still reaches the fleet metrics; a verdict heard on a head
 * this replica listed long ago is not journalled as the item's. Judged from the claim records the
 * fake holds and the journal events the replicas wrote.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import type { GateCheckRun } from "../../../src/adapters/github/tick/gate-of-check-run.js";
import { registerScheduler } from "../../../src/app/scheduler/register-scheduler.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";
import { workflowRunJson } from "../../fake-github/to-json-ci.js";
import { isoTime } from "../../fake-github/clock.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { runItems } from "../../support/run-items.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

type Handler = (context: { name: string; payload: Record<string, unknown>; octokit: unknown }) => Promise<void>;
const REPOSITORY = { name: "app", owner: { login: "acme" }, default_branch: "main" };

/** One App replica: `registerScheduler` on a stand-in for Probot that hands deliveries to its handlers. */
function appReplica(fx: Fixture, holder: string, sleep?: (ms: number) => Promise<void>) {
  const handlers = new Map<string, Handler[]>();
  const app = {
    on(names: string | string[], fn: Handler) {
      for (const name of Array.isArray(names) ? names : [names]) handlers.set(name, [...(handlers.get(name) ?? []), fn]);
    },
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  };
  const journal = new MemoryJournal();
  const octokit = createTestOctokit(fx.fake.url, "t-bot");
  const scheduler = registerScheduler(app as unknown as Probot, {
    loadConfig: () => Promise.resolve({ config: fx.config, problems: [] }),
    clock: fx.clock,
    journal,
    botLogin: () => Promise.resolve(BOT),
    holder,
    heardJitterMs: sleep === undefined ? 0 : 1000,
    random: () => 1,
    ...(sleep === undefined ? {} : { sleep }),
  });
  /** What Probot does with a delivery: every handler registered for `name` or `name.action`. */
  const deliver = async (name: string, payload: Record<string, unknown>): Promise<void> => {
    const action = typeof payload.action === "string" ? `${name}.${payload.action}` : undefined;
    const fns = [...(handlers.get(name) ?? []), ...(action === undefined ? [] : (handlers.get(action) ?? []))];
    await Promise.all(fns.map((fn) => fn({ name, payload: { ...payload, repository: REPOSITORY }, octokit })));
  };
  const sweep = () => scheduler.tickRepo(octokit as unknown as Octokit, "acme", "app", "main");
  return { journal, deliver, sweep, ticker: () => scheduler.ticker(octokit as unknown as Octokit, "acme", "app", "main") };
}

/** Two items granted and dispatched (pool of 2), a third waiting. */
async function setup() {
  const fx = await schedulerFixture();
  f = fx;
  fx.fake.addInstallation({ id: 501, appId: 42, appSlug: "bosun", repos: [REPO] });
  const items = [await fx.queue("a"), await fx.queue("b"), await fx.queue("c")];
  const a = fx.replica("replica-a");
  const land = fx.replica("work-land");
  await a.tick();
  const recordOf = (n: number) => {
    const ref = `refs/bosun/claims/${n}`;
    const sha = fx.fake.repo(REPO).refs.get(ref);
    return sha === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
  };
  /** The item's work run ends: its land job records the pull request it opened, then GitHub completes the run. */
  const runEnds = async (n: number) => {
    const run = [...fx.fake.repo(REPO).workflowRuns.values()].find((r) => runItems(r).some((i) => i.item === String(n)));
    const leg = run === undefined ? undefined : runItems(run)[0];
    if (run === undefined || leg === undefined) throw new Error(`no run for #${n}`);
    const held = await land.ticker.heldItem(fx.config, n, leg.epoch, leg.briefHash);
    if (!held.ok) throw new Error(held.problem);
    const pull = fx.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]", files: [{ filename: "src/a.ts", status: "modified", additions: 1, deletions: 0, patch: "@@ -0,0 +1 @@\n+x" }] });
    await land.ticker.landRun(fx.config, n, held.token, { kind: "done" }, { evidence: { command: "agent", exit: 0, lines: [] }, cost: { wall_clock_s: 60 }, pull: pull.number, run: run.id });
    fx.fake.completeWorkflowRun(REPO, run.id, "success");
    return { pull, payload: { action: "completed", workflow_run: workflowRunJson(fx.fake.state, fx.fake.repo(REPO), run) } };
  };
  /** The App's own `bosun/gate` run on `sha` for item n, as GitHub records it and its webhook shows it. */
  const gateRun = (n: number, sha: string, verdict: "pass" | "fail"): GateCheckRun & { name: string; conclusion: string } => {
    const id = fx.fake.state.nextId++;
    const summary = `${renderGateCheckMarker({ v: 1, item: String(n), brief: null, verdict, sha, ...(verdict === "fail" ? { failure: "refuse" as const, reason: "outside the brief" } : {}) })}\n${verdict}`;
    const conclusion = verdict === "pass" ? "success" : "failure";
    fx.fake.repo(REPO).checkRuns.set(id, { id, name: "bosun/gate", headSha: sha, status: "completed", conclusion, startedAt: fx.clock.now(), completedAt: fx.clock.now(), externalId: "", detailsUrl: null, output: { title: verdict, summary, text: null, annotationsCount: 0 }, annotations: [], appId: 42, appSlug: "bosun" });
    return { id, name: "bosun/gate", head_sha: sha, status: "completed", conclusion, app: { slug: "bosun" }, output: { title: verdict, summary } };
  };
  const gates = (...journals: MemoryJournal[]) => journals.flatMap((j) => j.events).filter((e) => e.event === "GATE").map((e) => ("item" in e ? `${e.item} ${(e as { verdict?: string }).verdict ?? ""} ${(e as { sha?: string }).sha ?? ""}` : ""));
  return { fx, items, a, recordOf, runEnds, gateRun, gates };
}

describe("the App's asks and the gate's pass, through its handlers", () => {
  it("a timed sweep that comes while an asking tick waits is still a whole tick: an approval whose webhook was lost is taken in", async () => {
    const { fx, items, a, recordOf, runEnds } = await setup();
    const [first, , third] = items as [number, number, number];
    const { payload } = await runEnds(first);
    // Replica A heard the run's end: the waiting item takes the freed slot.
    await a.ticker.tick(fx.config, undefined, { heard: true });
    expect(fx.runsOf(third)).toHaveLength(1);
    // An approval whose webhook was lost: only a sweep finds it.
    const fourth = await fx.queue("d");
    // Replica R hears the run's end too; while its tick waits its jittered moment, its timer sweeps.
    let release: () => void = () => undefined;
    let waiting: () => void = () => undefined;
    const inWait = new Promise<void>((r) => (waiting = r));
    const r = appReplica(fx, "replica-r", () => {
      waiting();
      return new Promise<void>((go) => (release = go));
    });
    const heard = r.deliver("workflow_run", payload);
    await inWait;
    const swept = r.sweep();
    release();
    await Promise.all([heard, swept]);
    expect(recordOf(fourth)?.state).toBe("approved");
  });

  it("a gate pass heard by a replica that has not read the item in review still reaches the journal when the merge comes first", async () => {
    const { fx, items, a, runEnds, gateRun, gates } = await setup();
    const [first] = items as [number, number, number];
    const { pull } = await runEnds(first);
    // Replica R (no tick yet: it never read the item in review) hears the gate pass on the pull request's head.
    const r = appReplica(fx, "replica-r");
    await r.deliver("check_run", { action: "completed", check_run: gateRun(first, pull.headSha, "pass") });
    // A person merges at once; replica A's next tick takes the merge in.
    await fx.maintainer.pulls.merge({ owner: "acme", repo: "app", pull_number: pull.number });
    await a.ticker.tick(fx.config);
    expect(gates(a.journal, r.journal)).toEqual([`${first} pass ${pull.headSha}`]);
  });

  it("a verdict heard on a head this replica listed long ago is not journalled: the pull request may have moved on", async () => {
    const { fx, items, runEnds, gateRun, gates } = await setup();
    const [first] = items as [number, number, number];
    const { pull } = await runEnds(first);
    const c = fx.replica("replica-c");
    // C reads the item in review and lists its pull request at its first head.
    await c.tick();
    const old = pull.headSha;
    // Much later the pull request was pushed to (a webhook C never heard), and the gate is re-run on the old head.
    fx.clock.advance(20 * 60_000);
    const record = fx.fake.repo(REPO).pulls.get(pull.number);
    if (record === undefined) throw new Error("no pull");
    record.headSha = fx.fake.repo(REPO).refs.get("refs/heads/main") ?? "";
    expect(record.headSha).not.toBe(old);
    c.ticker.heardGate(gateRun(first, old, "fail"));
    expect(gates(c.journal)).toEqual([]);
  });

  it("a pull request of another repository that the run's payload lists under the item's pull request's number is not the item's", async () => {
    const { fx, items, runEnds, gateRun, gates } = await setup();
    const [first] = items as [number, number, number];
    const { pull } = await runEnds(first);
    const c = fx.replica("replica-c");
    await c.tick();
    // The agent opens another pull request saying it closes the item, on a commit of its own, and the
    // gate judges it. GitHub's payload also lists pull requests of other repositories whose head is
    // this commit: one the agent opened in its fork, from this repository's branch, numbered as the item's.
    const other = fx.fake.addPull(REPO, { head: "agent-x", base: "main", body: `Closes #${first}`, user: "agent" });
    const sha = "ab".repeat(20);
    const mine = `${fx.fake.state.baseUrl}/repos/acme/app`;
    const fork = `${fx.fake.state.baseUrl}/repos/agent/app`;
    const run = {
      ...gateRun(first, sha, "pass"),
      pull_requests: [
        { number: other.number, head: { sha, repo: { url: mine } }, base: { repo: { url: mine } } },
        { number: pull.number, head: { sha, repo: { url: mine } }, base: { repo: { url: fork } } },
      ],
    };
    c.ticker.heardGate(run);
    expect(gates(c.journal)).toEqual([]);
  });

  it("a gate pass heard while a tick runs, on an item that tick read before its review, is placed by the records tick it asks for", async () => {
    const { fx, items, a, runEnds, gateRun, gates } = await setup();
    const [first] = items as [number, number, number];
    const c = fx.replica("replica-c");
    let head = "";
    let number = 0;
    // C's tick has read the item held; before it writes, the land job records the review, A grants
    // the freed slot, and the gate passes on the pull request's head: C hears it and asks for a tick
    // that reads the records (as the App's handler does).
    await c.ticker.tick(fx.config, async () => {
      const { pull } = await runEnds(first);
      await a.ticker.tick(fx.config);
      head = pull.headSha;
      number = pull.number;
      const mine = `${fx.fake.state.baseUrl}/repos/acme/app`;
      c.ticker.heardGate({ ...gateRun(first, head, "pass"), pull_requests: [{ number, head: { sha: head }, base: { repo: { url: mine } } }] });
      c.ticker.ask([{ kind: "records" }]);
    });
    // The tick it asked for reads the records (every slot taken: it stops there).
    expect((await c.ticker.tick(fx.config, undefined, { heard: true })).answered).toBe(true);
    // A person merges; C's next tick takes the merge in.
    await fx.maintainer.pulls.merge({ owner: "acme", repo: "app", pull_number: number });
    await c.tick();
    expect(gates(c.journal)).toEqual([`${first} pass ${head}`]);
  });

  it("a pass delivered late, listing the pull request at the head it had then, is not journalled after the newer head's verdict", async () => {
    const { fx, items, runEnds, gateRun, gates } = await setup();
    const [first] = items as [number, number, number];
    const { pull } = await runEnds(first);
    const mine = `${fx.fake.state.baseUrl}/repos/acme/app`;
    const c = fx.replica("replica-c");
    await c.tick();
    const old = pull.headSha;
    // The gate passes on the first head; GitHub holds that delivery back.
    const late = { ...gateRun(first, old, "pass"), completed_at: isoTime(fx.clock.now()), pull_requests: [{ number: pull.number, head: { sha: old }, base: { repo: { url: mine } } }] };
    // A minute later the agent pushes a new head; C lists the pull request at it, and hears the gate fail there.
    fx.clock.advance(60_000);
    const record = fx.fake.repo(REPO).pulls.get(pull.number);
    const issue = fx.fake.repo(REPO).issues.get(pull.number);
    if (record === undefined || issue === undefined) throw new Error("no pull");
    record.headSha = fx.fake.repo(REPO).refs.get("refs/heads/main") ?? "";
    issue.updatedAt = fx.clock.now();
    c.ticker.invalidate("pulls");
    await c.tick();
    fx.clock.advance(60_000);
    c.ticker.heardGate({ ...gateRun(first, record.headSha, "fail"), completed_at: isoTime(fx.clock.now()), pull_requests: [{ number: pull.number, head: { sha: record.headSha }, base: { repo: { url: mine } } }] });
    // Then the held-back pass arrives: the item's latest verdict is still the new head's failure.
    c.ticker.heardGate(late);
    expect(gates(c.journal)).toEqual([`${first} fail ${record.headSha}`]);
  });

  it("an older gate run's verdict delivered after a newer one's is not journalled over it", async () => {
    const { fx, items, runEnds, gateRun, gates } = await setup();
    const [first] = items as [number, number, number];
    const { pull } = await runEnds(first);
    const c = fx.replica("replica-c");
    await c.tick();
    // The gate failed (could not check, say) and was re-run, passing; GitHub delivers the re-run's end first.
    const older = gateRun(first, pull.headSha, "fail");
    const newer = gateRun(first, pull.headSha, "pass");
    expect(c.ticker.heardGate(newer)).toBe("journalled");
    c.ticker.heardGate(older);
    expect(gates(c.journal)).toEqual([`${first} pass ${pull.headSha}`]);
  });
});
