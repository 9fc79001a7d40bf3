/**
 * The fencing rules of DESIGN.md ("Fencing on GitHub") on the one tick, each pinned by an
 * adversary: replicas racing, a replica deciding from a state another has changed, writes that
 * apply and answer 502, workers that never start or outlive their lease, claim refs deleted under
 * a live run. Judged from what the fake GitHub recorded (runs, labels, refs), not from Bosun's own
 * report. The plan's rules as tables of facts are in test/unit/scheduler/plan-tick.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { octokitTickGitHub } from "../../../src/adapters/github/tick/octokit-tick-github.js";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import type { TickGitHub } from "../../../src/adapters/github/tick/tick-github.js";
import { LISTING_LAG_MS } from "../../../src/adapters/github/tick/waits-for-listing.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { closedThenRequeued, LABEL_POOL } from "./label-pool-moves.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const pool = (size: number, extra = ""): string => `pools:\n  default: {size: ${size}, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n${extra}`;

/** The claim record at the head of an item's ref, as the fake holds it. */
function recordOf(fx: Fixture, n: number): ReturnType<typeof parseClaimMessage> {
  const ref = `refs/bosun/claims/${n}`;
  const head = fx.fake.repo(REPO).refs.get(ref);
  return head === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(head)?.message ?? "", ref);
}

/** A replica whose reads stall right after the approved-issues listing, until `resume()`. */
function stallingReplica(fx: Fixture, holder: string): { tick: () => ReturnType<RepoTicker["tick"]>; listed: Promise<void>; resume: () => void } {
  const real = octokitTickGitHub(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", now: () => fx.clock.now() });
  let listed!: () => void;
  let resume!: () => void;
  const hasListed = new Promise<void>((r) => (listed = r));
  const gate = new Promise<void>((r) => (resume = r));
  const github: TickGitHub = {
    ...real,
    listApproved: async (label) => {
      const issues = await real.listApproved(label);
      listed();
      await gate;
      return issues;
    },
  };
  const ticker = new RepoTicker(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder, clock: fx.clock, journal: new MemoryJournal(), github });
  return { tick: () => ticker.tick(fx.config), listed: hasListed, resume };
}

describe("the tick's fencing on the fake GitHub (adversarial)", () => {
  it("a ticker that tries once (the App's) and loses its batch to another replica changes nothing, reads nothing again, and says busy; the default tries again", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("raced");
    const fx = f;
    const b = fx.replica("b");
    const once = new RepoTicker(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "a", clock: fx.clock, journal: new MemoryJournal(), attempts: 1 });
    const listings = (): number => fx.fake.accounting.log.filter((e) => e.route === "GET /repos/{owner}/{repo}/issues" && e.login === BOT).length;
    const before = listings();
    // Replica b takes the approval in and grants it while a has decided but not yet written.
    const report = await once.tick(fx.config, async () => void (await b.tick()));
    expect(report.busy).toBe(true);
    // One listing each: a's one gather, and b's.
    expect(listings() - before).toBe(2);
    expect(recordOf(fx, n)).toMatchObject({ state: "held", holder: "b" });
    expect(fx.runsOf(n)).toHaveLength(1);
    // What a webhook told a ticker whose tick was busy is still read at its next tick.
    const third = await fx.queue("third");
    once.hint(n);
    expect((await once.tick(fx.config, async () => void (await b.tick()))).busy).toBe(true);
    expect(recordOf(fx, third)).toMatchObject({ state: "approved", holder: "b" });
    const from = fx.fake.accounting.log.length;
    await once.tick(fx.config);
    expect(fx.fake.accounting.log.slice(from).map((e) => e.path)).toContain(`/repos/acme/app/issues/${n}/events`);
    // The default (an Action run) decides again at once, from what b wrote.
    const again = new RepoTicker(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "c", clock: fx.clock, journal: new MemoryJournal() });
    const n2 = await fx.queue("raced-again");
    const c = fx.replica("c2");
    expect((await again.tick(fx.config, async () => void (await c.tick()))).busy).toBe(false);
    expect(fx.runsOf(n2)).toHaveLength(0);
  });

  it("fills the pool in policy order, lands what its workers ended with and refills in the same tick, and says idle only when nothing is left", async () => {
    f = await schedulerFixture(pool(2));
    const low = await f.queue("low-priority", "priority: 3");
    const high = await f.queue("high-priority", "priority: 0");
    const mid = await f.queue("middle", "priority: 2");
    const a = f.replica("replica-a");
    const first = await a.tick();
    expect(first.dispatched).toEqual([high, mid]);
    expect(first.view.idle).toBe(false);
    expect(f.runsOf(high)).toMatchObject([{ epoch: 1 }]);

    f.fake.completeWorkflowRun(REPO, f.runsOf(high)[0]!.id, "failure");
    f.fake.completeWorkflowRun(REPO, f.runsOf(mid)[0]!.id, "timed_out");
    const second = await a.tick();
    expect(second.view.landed.map((l) => [l.n, l.disposition])).toEqual([
      [high, "human"],
      [mid, "human"],
    ]);
    expect(second.view.landed[1]?.summary).toContain("wall_clock");
    expect(second.dispatched).toEqual([low]);
    expect(f.labelsOf(high)).toEqual(["bosun:needs-human", "bosun:ready"]);

    f.fake.completeWorkflowRun(REPO, f.runsOf(low)[0]!.id, "failure");
    const third = await a.tick();
    expect(third.view.landed.map((l) => l.n)).toEqual([low]);
    expect(third.view.idle).toBe(true);
    expect(a.journal.lines()).toEqual(expect.arrayContaining([`CLAIM ${high}`, `DISPATCH ${high}`, `LAND ${high}`, `RELEASE ${high}`]));
  });

  it("a lost webhook changes nothing: the timed tick takes the approval in, and a late redelivery of it posts and dispatches nothing more", async () => {
    f = await schedulerFixture(pool(1));
    // The label is added and its webhook never arrives: the next timed tick has no hint at all.
    const n = await f.queue("unheard");
    const a = f.replica("a");
    expect((await a.tick()).dispatched).toEqual([n]);
    // The delivery turns up late, at another replica, and again at the first.
    const b = f.replica("b");
    b.ticker.hint(n);
    a.ticker.hint(n);
    await b.tick();
    await a.tick();
    // The one snapshot (a claimed item has nothing more to say in a comment).
    expect(f.commentsOf(n)).toHaveLength(1);
    expect(f.runsOf(n)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
  });

  it("replicas ticking at the same time never overfill the pool nor dispatch an item twice, and losing a race never loses the refill", async () => {
    for (let seed = 1; seed <= 3; seed++) {
      await f?.fake.close();
      f = await schedulerFixture(pool(3), seed);
      const fx = f;
      const items: number[] = [];
      for (let i = 0; i < 8; i++) items.push(await fx.queue(`item-${i}`));
      const replicas = Array.from({ length: 4 }, (_, i) => fx.replica(`replica-${i}`));
      const live = (): number => items.reduce((sum, n) => sum + fx.runsOf(n).filter((r) => r.status !== "completed").length, 0);
      for (let round = 0; round < 3; round++) {
        const reports = await Promise.all(replicas.map((r) => r.tick()));
        const dispatched = reports.flatMap((r) => r.dispatched);
        expect(new Set(dispatched).size).toBe(dispatched.length);
        expect(live()).toBe(Math.min(3, items.length - round * 3));
        for (const n of items) expect(fx.runsOf(n).length).toBeLessThanOrEqual(1);
        for (const n of items) for (const run of fx.runsOf(n)) if (run.status !== "completed") fx.fake.completeWorkflowRun(REPO, run.id, "failure");
      }
    }
  });

  it("a replica that decided from a state another replica has since granted from cannot overfill the pool", async () => {
    f = await schedulerFixture(pool(1));
    const x = await f.queue("x", "priority: 2");
    // A lists the approved issues ([x]) and stalls before it reads the claims or writes.
    const a = stallingReplica(f, "a");
    const slow = a.tick();
    await a.listed;
    // Meanwhile a P0 item is approved and replica B grants it: the pool of one is full.
    const w = await f.queue("w", "priority: 0");
    expect((await f.replica("b").tick()).dispatched).toEqual([w]);
    a.resume();
    const late = await slow;
    expect(late.dispatched).toEqual([]);
    expect(f.runsOf(x)).toEqual([]);
    expect(late.view.inFlight.map((i) => i.n)).toEqual([w]);
  });

  it("writes a tick's approvals, landings and grants as one commit and one atomic ref update, moving the generation ref", async () => {
    f = await schedulerFixture(pool(2));
    const items = [await f.queue("one"), await f.queue("two"), await f.queue("three")];
    const a = f.replica("a");
    const writes = (): string[] => f!.fake.accounting.log.filter((e) => e.route === "POST /repos/{owner}/{repo}/git/commits" || (e.route === "POST /graphql" && e.kind === "create")).map((e) => e.route ?? "");
    f.fake.accounting.reset();
    expect((await a.tick()).dispatched).toHaveLength(2);
    expect(writes()).toEqual(["POST /repos/{owner}/{repo}/git/commits", "POST /graphql"]);
    for (const n of items) for (const r of f.runsOf(n)) f.fake.completeWorkflowRun(REPO, r.id, "failure");
    f.fake.accounting.reset();
    const second = await a.tick();
    expect(second.view.landed).toHaveLength(2);
    expect(second.dispatched).toHaveLength(1);
    expect(writes()).toEqual(["POST /repos/{owner}/{repo}/git/commits", "POST /graphql"]);
    expect(f.fake.repo(REPO).refs.has("refs/bosun/claims/generation")).toBe(true);
  });

  it("a grant whose worker never shows is taken back at its dispatch deadline and run again at the next epoch; the first epoch's run, turning up late, lands nothing", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("lost-run");
    const a = f.replica("a");
    await a.tick();
    // The run never shows (a live run would keep its claim).
    const first = f.runsOf(n)[0]!;
    const run = f.fake.repo(REPO).workflowRuns.get(first.id)!;
    f.fake.repo(REPO).workflowRuns.delete(first.id);
    f.clock.advance(61_000);
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "released", epoch: 1 });
    expect((await a.tick()).dispatched).toEqual([n]);
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([2]);
    // The first (stale) run turns up and ends: it was epoch 1's, which no longer holds the item.
    f.fake.repo(REPO).workflowRuns.set(run.id, run);
    f.fake.completeWorkflowRun(REPO, run.id, "failure");
    const after = await f.replica("b").tick();
    expect(after.view.landed).toEqual([]);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 2 });
  });

  it("a live run keeps its claim: renewed once a third of the lease has passed, and a lapsed lease whose run still runs is not dispatched again", async () => {
    f = await schedulerFixture(pool(1).replace("lease: 10m", "lease: 9m"));
    const n = await f.queue("long", "budget: {wall_clock: 9m}");
    const a = f.replica("a");
    const t0 = f.clock.now();
    await a.tick();
    const run = f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!;
    run.status = "in_progress";
    expect(recordOf(f, n)?.leaseUntil).toBe(t0 + 9 * 60_000);
    f.clock.advance(3 * 60_000 + 1_000);
    await a.tick();
    expect(recordOf(f, n)?.leaseUntil).toBe(t0 + 3 * 60_000 + 1_000 + 9 * 60_000);
    // A late timer: the lease lapsed while the run is visibly in progress, seen by another replica.
    f.clock.advance(20 * 60_000);
    const late = await f.replica("b").tick();
    expect(late.dispatched).toEqual([]);
    expect(f.runsOf(n)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(recordOf(f, n)?.leaseUntil).toBeGreaterThan(f.clock.now());
    // The run ends: it lands the claim it was dispatched for, and nothing runs again.
    f.fake.completeWorkflowRun(REPO, run.id, "failure");
    expect((await f.replica("b").tick()).view.landed).toMatchObject([{ n, disposition: "human" }]);
    expect(f.runsOf(n)).toHaveLength(1);
  });

  it("a re-run of Bosun's run by someone else changes nothing: the tick lands what Bosun's attempt ended with, not the re-run's success, nor takes the item back for another try", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("rerun");
    const a = f.replica("a");
    await a.tick();
    const id = f.runsOf(n)[0]!.id;
    f.fake.completeWorkflowRun(REPO, id, "failure");
    // The agent (write access) re-runs the failed run before any tick has read its end: GitHub keeps
    // the run's id, title, inputs and actor (the App), and lists only the new attempt.
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const agent = createTestOctokit(f.fake.url, "t-agent");
    expect((await agent.actions.reRunWorkflow({ owner: "acme", repo: "app", run_id: id })).status).toBe(201);
    const listed = (await agent.actions.getWorkflowRun({ owner: "acme", repo: "app", run_id: id })).data;
    expect([listed.run_attempt, listed.actor?.login, listed.triggering_actor?.login, listed.status]).toEqual([2, BOT, "agent", "queued"]);
    // While the re-run is queued, and after it ends in success, past the lease: Bosun's attempt failed.
    f.clock.advance(61_000);
    const first = await f.replica("b").tick();
    f.fake.completeWorkflowRun(REPO, id, "success");
    f.clock.advance(11 * 60_000);
    const later = await f.replica("c").tick();
    expect([...first.view.landed, ...later.view.landed]).toMatchObject([{ n, disposition: "human" }]);
    expect(recordOf(f, n)).toMatchObject({ state: "settled", epoch: 1, outcome: { ok: false, disposition: "human" } });
    expect(recordOf(f, n)?.outcome?.summary).toMatch(/workflow run failed: .*\/attempts\/1 \(re-run since by agent/);
    expect(f.runsOf(n)).toHaveLength(1);
    expect(f.labelsOf(n)).toContain("bosun:needs-human");
  });

  it("a worker that never picks its item up is not handed it forever: past `attempts` the item goes to a human", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: fix-me}}\nlease: 10m\nattempts: 3\n`);
    const n = await f.queue("nobody-home");
    const a = f.replica("a");
    const epochs: number[] = [];
    // A label dispatch shows its worker only by a pull request: no dispatch deadline, so each grant waits out its lease (the brief's wall clock when longer).
    for (let i = 0; i < 30; i++) {
      await a.tick();
      const r = recordOf(f, n);
      if (r?.state === "held" && !epochs.includes(r.epoch)) epochs.push(r.epoch);
      f.clock.advance(11 * 60_000);
    }
    expect(epochs).toEqual([1, 2, 3]);
    expect(recordOf(f, n)).toMatchObject({ state: "settled", outcome: { disposition: "human" } });
    expect(f.labelsOf(n)).toContain("bosun:needs-human");
  });

  it("a landing whose label write fails does not keep the next item from its worker; the next tick repairs the labels", async () => {
    f = await schedulerFixture(pool(1));
    const first = await f.queue("first", "priority: 0");
    const second = await f.queue("second", "priority: 1");
    const a = f.replica("a");
    await a.tick();
    f.fake.completeWorkflowRun(REPO, f.runsOf(first)[0]!.id, "failure");
    f.fake.faults.add({ kind: "error", status: 502, route: "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels", probability: 1, applied: false, times: 1 });
    const t = await a.tick();
    expect(t.failures.join("\n")).toMatch(/labels/);
    expect(f.runsOf(second)).toMatchObject([{ epoch: 1 }]);
    await a.tick();
    expect(f.labelsOf(first)).toEqual(["bosun:needs-human", "bosun:ready"]);
  });

  it("a batch that keeps failing with no other writer in the way fails the tick loudly, not as busy", async () => {
    f = await schedulerFixture();
    const n = await f.queue("graphql-down");
    // Only the claim write fails: the approval (its edit time a GraphQL read too) is taken in.
    const off = f.fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", body: /updateRefs/, probability: 1, applied: false });
    await expect(f.replica("a").tick()).rejects.toThrow(/could not write its claims/);
    expect(f.runsOf(n)).toEqual([]);
    off();
    expect((await f.replica("a").tick()).dispatched).toEqual([n]);
  });

  it("an item that went to a human runs again only on a new approval, at the next epoch; labels put back by hand prove nothing", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("flaky");
    const a = f.replica("a");
    await a.tick();
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "failure");
    expect((await a.tick()).view.landed).toMatchObject([{ n, disposition: "human" }]);
    await f.maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: n, name: "bosun:needs-human" });
    await f.maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: n, labels: ["bosun:queued"] });
    expect((await a.tick()).dispatched).toEqual([]);
    expect(f.runsOf(n)).toHaveLength(1);
    f.clock.advance(1_000);
    await f.reapprove(n);
    expect((await a.tick()).dispatched).toEqual([n]);
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([1, 2]);
    expect(f.labelsOf(n)).toEqual(["bosun:claimed", "bosun:ready"]);
  });

  it("a workflow_dispatch that started its run and answered 502, the run not yet listed, keeps its claim: never a second run while the first lives", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("twice");
    const a = f.replica("a");
    f.fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
    f.fake.faults.add({ kind: "stale-read", requests: 3, route: "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", times: 3 });
    await a.tick().catch(() => undefined);
    expect(f.runsOf(n)).toHaveLength(1);
    const run = f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!;
    run.status = "in_progress";
    f.clock.advance(60 * 60_000); // past the dispatch deadline and the lease
    for (let i = 0; i < 3; i++) await a.tick().catch(() => undefined);
    expect(f.runsOf(n)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
  });

  it("a dispatch that started its run and answered 502 is matched to its own run, not to a newer one someone with write started under the same name: the live worker keeps its claim", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("impostor");
    const a = f.replica("a");
    f.fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
    // Between Bosun's dispatch and its look for the run, the agent (it read the docs: work runs are
    // named `bosun #<n> epoch <e>`) starts the workflow itself under that name: the newest such run.
    let planted = false;
    const plant = (): boolean => {
      if (planted) return false;
      planted = true;
      const repo = f!.fake.repo(REPO);
      const bosuns = [...repo.workflowRuns.values()].at(-1)!;
      repo.workflowRuns.set(bosuns.id + 1000, { ...bosuns, id: bosuns.id + 1000, actor: "agent", runNumber: bosuns.runNumber + 1 });
      return false;
    };
    // A rule that never fires: its `when` is asked as the look's listing arrives, and plants the run then.
    f.fake.faults.add({ kind: "error", status: 500, route: "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", probability: 1, when: plant });
    await a.tick().catch(() => undefined);
    expect(planted).toBe(true);
    const own = f.runsOf(n).find((r) => f!.fake.repo(REPO).workflowRuns.get(r.id)?.actor === "bosun[bot]")!;
    f.fake.repo(REPO).workflowRuns.get(own.id)!.status = "in_progress";
    f.clock.advance(60 * 60_000); // past the dispatch deadline and the lease
    for (let i = 0; i < 3; i++) await a.tick().catch(() => undefined);
    // Bosun's run lives: its claim is renewed, never taken back, and no second run of Bosun's starts.
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(f.runsOf(n).filter((r) => f!.fake.repo(REPO).workflowRuns.get(r.id)?.actor === "bosun[bot]")).toHaveLength(1);
  });

  it("a dispatch answered 4xx (definitely not started) gives the claim back for a retry", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("refused");
    const a = f.replica("a");
    f.fake.faults.add({ kind: "spurious-422", applied: false, message: "Unexpected inputs provided", route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
    await a.tick().catch(() => undefined);
    expect(f.runsOf(n)).toHaveLength(0);
    expect(recordOf(f, n)).toMatchObject({ state: "released" });
    expect(f.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    f.clock.advance(60 * 60_000);
    await a.tick();
    expect(f.runsOf(n)).toMatchObject([{ epoch: 2 }]);
  });

  it("a label dispatch that applied and answered 502 keeps its claim: the pool's one slot stays with it", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: "agent:go"}}\nlease: 10m\n`);
    const n = await f.queue("first");
    const m = await f.queue("second");
    const a = f.replica("a");
    f.fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", times: 1, when: () => f?.fake.repo(REPO).refs.has(`refs/bosun/claims/${n}`) === true });
    await a.tick().catch(() => undefined);
    expect(f.fake.faults.fired).toHaveLength(1);
    expect(f.labelsOf(n)).toContain("agent:go");
    f.clock.advance(30_000);
    await a.tick().catch(() => undefined);
    await a.tick().catch(() => undefined);
    expect(f.labelsOf(m)).not.toContain("agent:go");
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
  });

  it("epochs never go back: a claim ref deleted while its run is in progress brings no second run, and the next grant is above the run's epoch", async () => {
    f = await schedulerFixture(pool(2));
    const n = await f.queue("deleted");
    const a = f.replica("a");
    await a.tick();
    const run = f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!;
    run.status = "in_progress";
    // A writer (or a cleanup script) deletes the claim ref.
    await f.octokit.git.deleteRef({ owner: "acme", repo: "app", ref: `bosun/claims/${n}` });
    f.clock.advance(30_000);
    const b = f.replica("b");
    await b.tick();
    await b.tick();
    expect(f.runsOf(n)).toHaveLength(1);
    f.fake.completeWorkflowRun(REPO, run.id, "failure");
    for (let i = 0; i < 3; i++) {
      f.clock.advance(61_000);
      await b.tick();
    }
    const epochs = f.runsOf(n).map((r) => r.epoch);
    expect(epochs[0]).toBe(1);
    expect(new Set(epochs).size).toBe(epochs.length);
    expect(epochs.every((e, i) => i === 0 || e > (epochs[i - 1] ?? 0))).toBe(true);
    const r = recordOf(f, n);
    if (r !== undefined) expect(r.epoch).toBeGreaterThanOrEqual(Math.max(...epochs));
  });

  it("an approval withdrawn while its run is in progress keeps the claim until the run ends; its slot is not refilled before", async () => {
    f = await schedulerFixture(pool(1));
    const n = await f.queue("first", "priority: 0");
    const m = await f.queue("second", "priority: 1");
    const a = f.replica("a");
    await a.tick();
    const run = f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!;
    run.status = "in_progress";
    await f.maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: n, name: "bosun:ready" });
    f.clock.advance(10_000);
    await a.tick();
    await a.tick();
    expect(f.runsOf(m)).toHaveLength(0);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    f.fake.completeWorkflowRun(REPO, run.id, "success");
    // Ended with no pull request: landed once the listings' lag is over (`LISTING_LAG_MS`).
    f.clock.advance(LISTING_LAG_MS);
    await a.tick();
    await a.tick();
    expect(f.runsOf(m)).toHaveLength(1);
  });

  it("a label worker's pull request closed unmerged sends the item to a human; requeued by a maintainer, the new attempt is not ended by that old pull request", async () => {
    f = await schedulerFixture(LABEL_POOL);
    const n = await f.queue("second-try");
    const a = f.replica("a");
    await a.tick();
    await closedThenRequeued(f, a, n);
    f.clock.advance(10_000);
    await a.tick();
    // The closed pull request is the first attempt's: the second's worker has not shown yet.
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 2 });
  });

  it("a transient 404 on an in-flight issue the listing missed is not taken as gone: its claim and slot stay", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: "agent:go"}}\nlease: 10m\n`);
    const n = await f.queue("first");
    const m = await f.queue("second");
    const a = f.replica("a");
    await a.tick();
    expect(f.labelsOf(n)).toContain("agent:go");
    // The listing misses the issue (its label is off only while the listing is served), and the
    // issue's own read answers 404 once, as a lagging replica does.
    const issue = f.fake.repo(REPO).issues.get(n)!;
    issue.labels = issue.labels.filter((l) => l !== "bosun:ready");
    const back = (): boolean => {
      if (!issue.labels.includes("bosun:ready")) issue.labels = [...issue.labels, "bosun:ready"];
      return true;
    };
    f.fake.faults.add({ kind: "error", status: 404, route: "GET /repos/{owner}/{repo}/issues/{issue_number}", times: 1, when: back });
    f.clock.advance(10_000);
    await a.tick();
    expect(f.fake.faults.fired.map((x) => x.kind)).toEqual(["error"]);
    await a.tick();
    expect(f.labelsOf(m)).not.toContain("agent:go");
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(f.labelsOf(n)).not.toContain("bosun:needs-human");
  });
});
