import { afterEach, describe, expect, it } from "vitest";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { REPO, schedulerFixture, stallAfterListing } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

describe("reconcile tick on the fake GitHub", () => {
  it("fills the pool in policy order, lands finished runs by their run, refills, and only then reports idle", async () => {
    f = await schedulerFixture();
    const low = await f.queue("low-priority", "priority: 3");
    const high = await f.queue("high-priority", "priority: 0");
    const mid = await f.queue("middle", "priority: 2");
    const a = f.replica("replica-a");

    const first = await reconcileTick(a);
    expect(first.dispatched).toEqual([high, mid]);
    expect(first.idle).toBe(false);
    expect(f.labelsOf(high)).toContain("bosun:claimed");
    expect(f.runsOf(high)).toMatchObject([{ epoch: 1 }]);

    f.fake.completeWorkflowRun(REPO, f.runsOf(high)[0]!.id, "success");
    f.fake.completeWorkflowRun(REPO, f.runsOf(mid)[0]!.id, "failure");
    const second = await reconcileTick(a);
    expect(second.landed).toEqual([
      { issue: high, disposition: "ok", summary: expect.stringContaining("succeeded") },
      { issue: mid, disposition: "human", summary: expect.stringContaining("failed") },
    ]);
    expect(f.labelsOf(high)).toEqual(["bosun:done", "bosun:ready"]);
    expect(f.labelsOf(mid)).toEqual(["bosun:needs-human", "bosun:ready"]);
    expect(second.dispatched).toEqual([low]);

    f.fake.completeWorkflowRun(REPO, f.runsOf(low)[0]!.id, "success");
    const third = await reconcileTick(a);
    expect(third.landed.map((l) => l.issue)).toEqual([low]);
    expect(third.idle).toBe(true);
    const comment = [...f.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === high);
    expect(comment?.body).toContain("### Landed: ok");
    expect(a.journal.lines()).toEqual(expect.arrayContaining([`CLAIM ${high}`, `DISPATCH ${high}`, `LAND ${high}`, `RELEASE ${high}`]));
  });

  it("a run that was cancelled or timed out goes to a human; a retryable landing goes back to the queue with its attempt counted", async () => {
    f = await schedulerFixture();
    const n = await f.queue("flaky");
    const a = f.replica("a");
    await reconcileTick(a);
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "timed_out");
    const t = await reconcileTick(a);
    expect(t.landed).toEqual([{ issue: n, disposition: "human", summary: expect.stringContaining("out_of_budget(wall_clock)") }]);
  });

  it("replicas ticking at the same time never overfill the pool: the batches that decided from the same state lose and decide again", async () => {
    // Many seeds of a race: 4 replicas tick at once over one pool of 3, then again after runs finish.
    for (let seed = 1; seed <= 8; seed++) {
      await f?.fake.close();
      f = await schedulerFixture(`pools:\n  default: {size: 3, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`, seed);
      const fx = f;
      const items = await Promise.all(Array.from({ length: 8 }, (_, i) => fx.queue(`item-${i}`)));
      const replicas = Array.from({ length: 4 }, (_, i) => fx.replica(`replica-${i}`));
      const inFlight = (): number => items.reduce((sum, n) => sum + fx.runsOf(n).filter((r) => r.status !== "completed").length, 0);
      for (let round = 0; round < 3; round++) {
        const reports = await Promise.all(replicas.map((r) => reconcileTick(r)));
        const dispatched = reports.flatMap((r) => r.dispatched);
        expect(new Set(dispatched).size).toBe(dispatched.length);
        expect(inFlight()).toBeLessThanOrEqual(3);
        // The pool is full after every round with work left: losing a race is not losing the refill.
        expect(inFlight()).toBe(Math.min(3, items.length - round * 3));
        for (const n of items) expect(fx.runsOf(n).length).toBeLessThanOrEqual(1);
        for (const n of items) for (const run of fx.runsOf(n)) if (run.status !== "completed") fx.fake.completeWorkflowRun(REPO, run.id, "success");
      }
    }
  });

  it("reclaims an expired lease whose worker shows no life and dispatches the item again at the next epoch; the stale run cannot land", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("slow", "budget: {wall_clock: 10m}");
    const a = f.replica("a");
    await reconcileTick(a);
    // The run never shows up (a live run would keep its claim): the lease lapses with no sign of life.
    const first = f.runsOf(n)[0]!;
    const run = f.fake.repo(REPO).workflowRuns.get(first.id)!;
    f.fake.repo(REPO).workflowRuns.delete(first.id);
    f.clock.advance(11 * 60_000);
    const t = await reconcileTick(a);
    expect(t.reclaimed).toEqual([n]);
    expect(t.dispatched).toEqual([n]);
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([2]);
    // The first (stale) run turns up and finishes: it is epoch 1's, which no longer holds the item.
    f.fake.repo(REPO).workflowRuns.set(run.id, run);
    f.fake.completeWorkflowRun(REPO, run.id, "success");
    const after = await reconcileTick(a);
    expect(after.landed).toEqual([]);
    expect(after.inFlight.map((x) => x.epoch)).toEqual([2]);
  });

  it("leaves held, invalid and blocked items out of the queue and says why", async () => {
    f = await schedulerFixture();
    const held = await f.queue("held", "", ["bosun:hold"]);
    const parent = await f.queue("parent");
    const child = await f.queue("child", "blocked_by: [parent]");
    f.fake.addIssue(REPO, { title: "no snapshot", labels: ["bosun:queued"] });
    const t = await reconcileTick(f.replica("a"));
    expect(t.dispatched).toEqual([parent]);
    expect(t.skipped.map((s) => s.issue)).toEqual(expect.arrayContaining([held, child]));
    expect(t.skipped.find((s) => s.issue === child)?.reason).toBe("blocked by parent");
  });

  it("keeps a dependent out while its blocker is in flight, and while a #n blocker outside the queue is open", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 3, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const parent = await f.queue("parent", "priority: 0");
    const child = await f.queue("child", "priority: 1\nblocked_by: [parent]");
    const outside = f.fake.addIssue(REPO, { title: "a plain open issue" }).number;
    const closed = f.fake.addIssue(REPO, { title: "done already", state: "closed" }).number;
    const waitsOnOpen = await f.queue("waits-on-open", `blocked_by: ["#${outside}"]`);
    const waitsOnClosed = await f.queue("waits-on-closed", `blocked_by: ["#${closed}"]`);
    const a = f.replica("a");
    const first = await reconcileTick(a);
    expect([...first.dispatched].sort()).toEqual([parent, waitsOnClosed].sort());
    const second = await reconcileTick(a);
    // The parent is in flight now: the child still waits for it.
    expect(second.dispatched).toEqual([]);
    expect(second.skipped.find((s) => s.issue === child)?.reason).toBe("blocked by parent");
    expect(second.skipped.find((s) => s.issue === waitsOnOpen)?.reason).toBe(`blocked by #${outside}`);
    f.fake.completeWorkflowRun(REPO, f.runsOf(parent)[0]!.id, "success");
    const third = await reconcileTick(a);
    expect(third.dispatched).toEqual([child]);
  });

  it("writes a tick's lands and grants as one commit and one atomic ref update", async () => {
    f = await schedulerFixture();
    const items = await Promise.all(["one", "two", "three"].map((id) => f!.queue(id)));
    const a = f.replica("a");
    // Writes only: a GraphQL query (reading snapshots ahead) is a read.
    const writes = () => f!.fake.accounting.log.filter((e) => e.route === "POST /repos/{owner}/{repo}/git/commits" || (e.route === "POST /graphql" && e.kind === "create")).map((e) => e.route);
    f.fake.accounting.reset();
    expect((await reconcileTick(a)).dispatched).toHaveLength(2);
    expect(writes()).toEqual(["POST /repos/{owner}/{repo}/git/commits", "POST /graphql"]);
    for (const n of items) for (const r of f.runsOf(n)) f.fake.completeWorkflowRun(REPO, r.id, "success");
    f.fake.accounting.reset();
    const second = await reconcileTick(a);
    expect(second.landed).toHaveLength(2);
    expect(second.dispatched).toHaveLength(1);
    expect(writes()).toEqual(["POST /repos/{owner}/{repo}/git/commits", "POST /graphql"]);
    // The batch moved the generation ref with the grant.
    expect(f.fake.repo(REPO).refs.has("refs/bosun/claims/generation")).toBe(true);
  });

  it("a batch decided from a state another writer has since granted from is refused whole, and changes nothing", async () => {
    f = await schedulerFixture();
    const [x, y] = [await f.queue("x"), await f.queue("y")];
    const a = f.replica("a");
    const b = f.replica("b");
    await a.store.listClaims();
    await b.store.listClaims();
    a.store.bind("task:x", `refs/bosun/claims/${x}`);
    b.store.bind("task:y", `refs/bosun/claims/${y}`);
    const batchA = a.store.newBatch(f.clock.now());
    const batchB = b.store.newBatch(f.clock.now());
    expect(await a.store.planClaim(batchA, "task:x", "a", 60_000)).toEqual({ planned: true });
    expect(await b.store.planClaim(batchB, "task:y", "b", 60_000)).toEqual({ planned: true });
    const first = await a.store.commitBatch(batchA);
    expect(first.ok && first.granted.get("task:x")?.epoch).toBe(1);
    // B read the claims before A's grant: its grant could overfill a pool, so all of it is refused.
    expect(await b.store.commitBatch(batchB)).toMatchObject({ ok: false });
    expect(f.fake.repo(REPO).refs.has(`refs/bosun/claims/${y}`)).toBe(false);
  });

  it("denies a grant on evidence: an open pull request for the item, or a branch for an item never claimed", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 3, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const withPull = await f.queue("with-pull");
    const withBranch = await f.queue("with-branch");
    const free = await f.queue("free");
    const pull = f.fake.addPull(REPO, { title: "A fix", body: `Closes #${withPull}`, head: "someone/fix" });
    const main = f.fake.repo(REPO).refs.get("refs/heads/main") as string;
    f.fake.setRef(REPO, `refs/heads/${withBranch}-fix-it`, main);
    const a = f.replica("a");
    const t = await reconcileTick(a);
    expect(t.dispatched).toEqual([free]);
    expect(a.journal.events.filter((e) => e.event === "DENY").map((e) => [e.item, "reason" in e ? e.reason : ""])).toEqual([
      [String(withPull), "evidence"],
      [String(withBranch), "evidence"],
    ]);
    expect(a.claims.denials.get("evidence")).toBe(2);
    // The pull request is closed unmerged and a webhook says so: the item is free to run.
    // (A pull request is an issue: closing it through the issues API closes the pull request.)
    await f.octokit.issues.update({ owner: "acme", repo: "app", issue_number: pull.number, state: "closed" });
    a.github.invalidate("pulls");
    expect((await reconcileTick(a)).dispatched).toEqual([withPull]);
  });

  it("a replica that decided from claims listed before another replica's grant cannot overfill the pool", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const x = await f.queue("x", "priority: 2");
    const a = f.replica("a");
    // A lists the queue ([x]) and the claims (none), then stalls before it writes.
    const stall = stallAfterListing(a.store);
    const slow = reconcileTick({ ...a, store: stall.store });
    await stall.listed;
    // Meanwhile a P0 item is queued and replica B, seeing it, grants it: the pool of one is full.
    const w = await f.queue("w", "priority: 0");
    expect((await reconcileTick(f.replica("b"))).dispatched).toEqual([w]);
    // A's view has x alone and nothing in flight; its grant must not land beside B's.
    stall.resume();
    const late = await slow;
    expect(late.dispatched).toEqual([]);
    expect(f.runsOf(x)).toEqual([]);
    expect(late.inFlight.map((i) => i.issue)).toEqual([w]);
  });

  it("a landing whose label write fails does not keep the next item from its worker; the next tick repairs the labels", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const first = await f.queue("first", "priority: 0");
    const second = await f.queue("second", "priority: 1");
    const a = f.replica("a");
    await reconcileTick(a);
    f.fake.completeWorkflowRun(REPO, f.runsOf(first)[0]!.id, "success");
    f.fake.faults.add({ kind: "error", status: 502, route: "PUT /repos/{owner}/{repo}/issues/{issue_number}/labels", probability: 1, applied: false, times: 1 });
    await expect(reconcileTick(a)).rejects.toThrow(/1 mirror write\(s\) failed/);
    // The batch settled the first item and granted the second, which was dispatched all the same.
    expect(f.runsOf(second)).toMatchObject([{ epoch: 1 }]);
    expect(f.labelsOf(first)).toContain("bosun:claimed");
    await reconcileTick(a);
    expect(f.labelsOf(first)).toEqual(["bosun:done", "bosun:ready"]);
  });

  it("an item a writer approves again after it went to a human runs again, at the next epoch", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("flaky");
    const a = f.replica("a");
    await reconcileTick(a);
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "failure");
    expect((await reconcileTick(a)).landed).toMatchObject([{ issue: n, disposition: "human" }]);
    expect(f.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
    // Still out of the queue: nothing runs, and the outcome label stays.
    expect((await reconcileTick(a)).dispatched).toEqual([]);
    // A maintainer clears it and relabels it by hand: labels alone prove no re-approval.
    await f.octokit.issues.removeLabel({ owner: "acme", repo: "app", issue_number: n, name: "bosun:needs-human" });
    await f.octokit.issues.addLabels({ owner: "acme", repo: "app", issue_number: n, labels: ["bosun:queued"] });
    expect((await reconcileTick(a)).dispatched).toEqual([]);
    // Nor is the outcome label put back from the ref: that may be a re-approval read stale, so the
    // tick only reads the comments again on the next tick.
    expect(f.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    // Approved again: the intake freezes a new snapshot (the old one carries its landing).
    await f.snapshotAgain(n, "flaky");
    expect((await reconcileTick(a)).dispatched).toEqual([n]);
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([1, 2]);
    expect(f.labelsOf(n)).toEqual(["bosun:claimed", "bosun:queued", "bosun:ready"]);
  });

  it("cleans up the claim refs of items settled more than a day ago and out of the queue, on their own, leaving the epoch floor", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const old = await f.queue("old");
    const a = f.replica("a");
    await reconcileTick(a);
    f.fake.completeWorkflowRun(REPO, f.runsOf(old)[0]!.id, "success");
    await reconcileTick(a);
    f.fake.repo(REPO).issues.get(old)!.labels = ["bosun:done", "bosun:ready"];
    await reconcileTick(a);
    expect(f.fake.repo(REPO).refs.has(`refs/bosun/claims/${old}`)).toBe(true);
    f.clock.advance(25 * 3_600_000);
    const fresh = await f.queue("fresh");
    f.fake.accounting.reset();
    expect((await reconcileTick(a)).dispatched).toEqual([fresh]);
    // The cleanup is its own atomic update after the claim batch: claim ref gone, floor written.
    const updates = f.fake.accounting.log.filter((e) => e.route === "POST /graphql" && e.kind === "create");
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(f.fake.repo(REPO).refs.has(`refs/bosun/claims/${old}`)).toBe(false);
    expect(f.fake.repo(REPO).refs.has(`refs/bosun/claims-floors/${old}`)).toBe(true);
    expect(f.fake.repo(REPO).refs.has(`refs/bosun/claims/${fresh}`)).toBe(true);
  });

  it("a batch that keeps failing with no other writer in the way fails the tick loudly, not as busy", async () => {
    f = await schedulerFixture();
    const n = await f.queue("blocked-by-graphql");
    const off = f.fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", probability: 1, applied: false });
    await expect(reconcileTick(f.replica("a"))).rejects.toThrow(/could not write its claims: updateRefs failed with no other writer in the way/);
    expect(f.runsOf(n)).toEqual([]);
    off();
    expect((await reconcileTick(f.replica("a"))).dispatched).toEqual([n]);
  });
});
