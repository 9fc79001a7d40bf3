import { afterEach, describe, expect, it } from "vitest";
import { parseClaimMessage } from "../../../src/adapters/github/claim-record.js";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { reconcileTick, type TickDeps } from "../../../src/app/scheduler/reconcile-tick.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

/**
 * The fencing rules of DESIGN.md ("Fencing on GitHub"), each pinned by an adversary: faults that
 * apply a write and answer 502, replicas that did not dispatch a run, relabelled issues, runs that
 * outlive their lease and workers that never start. Judged from what the fake recorded (runs,
 * labels, refs), never from Bosun's own report.
 */
type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

/** The claim record at the head of an item's ref, as the fake holds it. */
function recordOf(fx: Fixture, n: number): ReturnType<typeof parseClaimMessage> {
  const ref = `refs/bosun/claims/${n}`;
  const head = fx.fake.repo(REPO).refs.get(ref);
  return head === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(head)?.message ?? "", ref);
}

/** The scheduler reads of a tick made to stall right after its queue listing, until `resume()`. */
function stallAfterQueueListing(github: TickDeps["github"]): { github: TickDeps["github"]; listed: Promise<void>; resume: () => void } {
  let listed!: () => void;
  let resume!: () => void;
  const hasListed = new Promise<void>((r) => (listed = r));
  const gate = new Promise<void>((r) => (resume = r));
  const stalling: TickDeps["github"] = {
    ...github,
    listQueued: async (label) => {
      const issues = await github.listQueued(label);
      listed();
      await gate;
      return issues;
    },
  };
  return { github: stalling, listed: hasListed, resume };
}

/** What a maintainer's re-approval leaves: outcome label cleared, queued again, and a new snapshot by the bot. */
async function reapprove(fx: Fixture, n: number, id: string): Promise<void> {
  const issue = fx.fake.repo(REPO).issues.get(n);
  if (issue === undefined) throw new Error(`no issue #${n}`);
  issue.labels = ["bosun:ready", "bosun:queued"];
  const brief = parseBriefYaml(`goal: Work on ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:${id}\n`, { name: id, defaultId: id });
  if (!brief.ok) throw new Error("bad brief");
  await fx.octokit.issues.createComment({ owner: "acme", repo: "app", issue_number: n, body: renderSnapshotComment(brief.brief) });
}

describe("fencing on GitHub (adversarial)", () => {
  it("double dispatch: a replica whose queue listing predates another's dispatch and landing does not read the done item as re-approved, even when the landing batch applied and answered 502", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("once");
    const a = f.replica("a");
    // Replica B lists the queue (n: queued, not claimed yet) and stalls before it reads the claims.
    const b = f.replica("b");
    const stall = stallAfterQueueListing(b.github);
    const slow = reconcileTick({ ...b, github: stall.github });
    await stall.listed;
    // Meanwhile A grants n, dispatches it, the run succeeds and A lands it; the landing batch is
    // written and GitHub answers 502 all the same.
    expect((await reconcileTick(a)).dispatched).toEqual([n]);
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    f.fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", applied: true, times: 3 });
    await reconcileTick(a).catch(() => undefined);
    expect(recordOf(f, n)).toMatchObject({ state: "settled", outcome: { ok: true } });
    // B resumes: its listing shows n queued with no outcome label, the claims show it settled.
    stall.resume();
    await slow.catch(() => undefined);
    for (let i = 0; i < 2; i++) {
      await reconcileTick(f.replica(`late-${i}`)).catch(() => undefined);
      await reconcileTick(a).catch(() => undefined);
    }
    expect(f.runsOf(n)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "settled", epoch: 1 });
    expect(f.labelsOf(n)).toContain("bosun:done");
  });

  it("epochs never go back: after a settled claim ref is cleaned up, a re-approval grants a newer epoch, and the first life's run cannot land it", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("again");
    const a = f.replica("a");
    await reconcileTick(a);
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    expect((await reconcileTick(a)).landed).toMatchObject([{ issue: n, disposition: "ok" }]);
    // A day later, another item's batch cleans up the settled ref.
    f.clock.advance(25 * 3_600_000);
    const other = await f.queue("other");
    await reconcileTick(a);
    await reconcileTick(a);
    expect(f.runsOf(other)).toHaveLength(1);
    f.fake.completeWorkflowRun(REPO, f.runsOf(other)[0]!.id, "success");
    await reconcileTick(a);
    await reapprove(f, n, "again");
    // A replica that dispatched nothing (no run ids in memory) takes it from here.
    const b = f.replica("b");
    await reconcileTick(b);
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([1, 2]);
    const again = await reconcileTick(b);
    expect(again.landed).toEqual([]);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 2 });
  });

  it("a live run keeps its claim: renewed once a third of the lease has passed, and a lapsed lease whose run still runs is not dispatched again", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 9m\n`);
    const n = await f.queue("long", "budget: {wall_clock: 9m}");
    const a = f.replica("a");
    const t0 = f.clock.now();
    await reconcileTick(a);
    const run = f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!;
    run.status = "in_progress";
    expect(recordOf(f, n)?.leaseUntil).toBe(t0 + 9 * 60_000);
    // A third (3 min) and a bit has passed: renewed now, not only in the last third.
    f.clock.advance(3 * 60_000 + 1_000);
    await reconcileTick(a);
    expect(recordOf(f, n)?.leaseUntil).toBe(t0 + 3 * 60_000 + 1_000 + 9 * 60_000);
    // A late cron: the lease lapses while the run is visibly in progress, seen by another replica.
    f.clock.advance(20 * 60_000);
    const b = f.replica("b");
    const late = await reconcileTick(b);
    expect(late.dispatched).toEqual([]);
    expect(late.revived).toEqual([n]);
    expect(f.runsOf(n)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    // The run ends: it lands the claim it was dispatched for.
    f.fake.completeWorkflowRun(REPO, run.id, "success");
    expect((await reconcileTick(b)).landed).toMatchObject([{ issue: n, disposition: "ok" }]);
    expect(f.runsOf(n)).toHaveLength(1);
  });

  it("a worker that keeps dying is not dispatched forever: past `attempts` the item goes to a human", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: fix-me}}\nlease: 10m\nattempts: 3\n`);
    const n = await f.queue("dies", "budget: {wall_clock: 10m}");
    const a = f.replica("a");
    const claims: number[] = [];
    for (let i = 0; i < 8; i++) {
      await reconcileTick(a).catch(() => undefined);
      const r = recordOf(f, n);
      if (r?.state === "held" && !claims.includes(r.epoch)) claims.push(r.epoch);
      // Nobody ever picks the item up: no pull request, no run, the lease runs out.
      f.clock.advance(11 * 60_000);
    }
    expect(claims).toEqual([1, 2, 3]);
    expect(recordOf(f, n)).toMatchObject({ state: "settled", outcome: { disposition: "human" } });
    expect(f.labelsOf(n)).toContain("bosun:needs-human");
  });

  it("relabelling an in-flight issue to another pool does not free a slot in the pool it was granted from", async () => {
    f = await schedulerFixture(`pools:\n  a: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n  b: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const x = await f.queue("x", "", ["pool/a"]);
    const r = f.replica("r");
    expect((await reconcileTick(r)).dispatched).toEqual([x]);
    const issue = f.fake.repo(REPO).issues.get(x)!;
    issue.labels = issue.labels.filter((l) => l !== "pool/a").concat("pool/b");
    const y = await f.queue("y", "", ["pool/a"]);
    await reconcileTick(r);
    // Judged from runs in progress: pool a has x's run; y must wait.
    expect(f.runsOf(y)).toEqual([]);
    // The grant recorded its pool and the snapshot hash of the brief it dispatched.
    expect(recordOf(f, x)).toMatchObject({ pool: "a", briefHash: expect.stringMatching(/^sha256:/) });
  });

  it("one blocker rule: an item waiting on #n that went to a human is blocked, as the local drain blocks it", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const parent = await f.queue("parent");
    const child = await f.queue("child", `blocked_by: ["#${parent}"]`);
    const a = f.replica("a");
    expect((await reconcileTick(a)).dispatched).toEqual([parent]);
    f.fake.completeWorkflowRun(REPO, f.runsOf(parent)[0]!.id, "failure");
    const t = await reconcileTick(a);
    expect(t.landed).toMatchObject([{ issue: parent, disposition: "human" }]);
    expect(f.runsOf(child)).toEqual([]);
    expect(t.skipped.find((s) => s.issue === child)?.reason).toBe(`blocked: #${parent} did not land ok`);
  });
});
