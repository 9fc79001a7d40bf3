/**
 * A `workflow` pool with `batch: true` (docs/dispatch.md): the items a tick grants go out as one
 * run, and everything the one-run-per-item form promised still holds per item — each item is
 * matched to the run by every replica, lands on its own, is retried without waiting for the others,
 * and a dispatch that may have started is never sent twice. Judged from the runs, refs and labels
 * the fake GitHub recorded.
 */
import { afterEach, describe, expect, it } from "vitest";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import type { Stop } from "../../../src/core/stop/stop.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { runItems } from "../../support/run-items.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const batched = (size: number): string => `pools:\n  default: {size: ${size}, dispatch: {kind: workflow, workflow: bosun-work.yml, batch: true}}\nlease: 10m\n`;

function recordOf(fx: Fixture, n: number): ReturnType<typeof parseClaimMessage> {
  const ref = `refs/bosun/claims/${n}`;
  const head = fx.fake.repo(REPO).refs.get(ref);
  return head === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(head)?.message ?? "", ref);
}

const allRuns = (fx: Fixture) => [...fx.fake.repo(REPO).workflowRuns.values()];
const dispatchPosts = (fx: Fixture): number => fx.fake.accounting.log.filter((e) => e.route === "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches").length;

/** What one leg's land job does (the App's token, its own process): lands item `n` at epoch 1 from run `run`. */
async function landLeg(fx: Fixture, n: number, run: number, stop: Stop, extra: { readonly pull?: number } = {}): Promise<void> {
  const job = new RepoTicker(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "work-land", clock: fx.clock, journal: new MemoryJournal() });
  const held = await job.heldItem(fx.config, n, 1, recordOf(fx, n)?.briefHash ?? "");
  if (!held.ok) throw new Error(held.problem);
  await job.landRun(fx.config, n, held.token, stop, { run, evidence: { command: "agent", exit: stop.kind === "done" ? 0 : 1, lines: [] }, ...extra });
}

describe("batched dispatch on the fake GitHub", () => {
  it("the items one tick grants go out as ONE run naming each item and epoch, with one dispatch request", async () => {
    f = await schedulerFixture(batched(3));
    const numbers = [await f.queue("a"), await f.queue("b"), await f.queue("c"), await f.queue("d")];
    await f.replica("a").tick();
    const runs = allRuns(f);
    expect(runs).toHaveLength(1);
    expect(dispatchPosts(f)).toBe(1);
    const run = runs[0]!;
    expect(runItems(run).map((i) => [Number(i.item), i.epoch])).toEqual(numbers.slice(0, 3).map((n) => [n, 1]));
    const { data } = await createTestOctokit(f.fake.url, "t-bot").rest.actions.getWorkflowRun({ owner: "acme", repo: "app", run_id: run.id });
    expect(data.display_title).toBe(`bosun ${numbers.slice(0, 3).map((n) => `#${n} epoch 1`).join(", ")}`);
    // Each leg carries its own approved brief's hash, as the one-item form did.
    for (const leg of runItems(run)) expect(leg.briefHash).toBe(recordOf(f, Number(leg.item))?.briefHash);
    for (const n of numbers.slice(0, 3)) expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(recordOf(f, numbers[3]!)?.state).not.toBe("held");
  });

  it("another replica, which never saw the dispatch's answer, finds each item's run by its name and keeps every claim while the run lives", async () => {
    f = await schedulerFixture(batched(2));
    const [n, m] = [await f.queue("a"), await f.queue("b")];
    await f.replica("a").tick();
    const run = allRuns(f)[0]!;
    run.status = "in_progress";
    const b = f.replica("b");
    f.clock.advance(20 * 60_000); // past the lease: only a live run keeps the claims
    await b.tick();
    await b.tick();
    expect(allRuns(f)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(recordOf(f, m)).toMatchObject({ state: "held", epoch: 1 });
  });

  it("one item's leg landing a retry is granted again at the next epoch while the batch run still works on the other item", async () => {
    f = await schedulerFixture(batched(2));
    const [n, m] = [await f.queue("a"), await f.queue("b")];
    const a = f.replica("a");
    await a.tick();
    const run = allRuns(f)[0]!;
    run.status = "in_progress";
    await landLeg(f, n, run.id, { kind: "failed", failure: "retry", reason: "the model timed out" });
    f.clock.advance(30 * 60_000); // past any retry backoff
    await a.tick();
    await a.tick();
    // m's leg still runs under the first run; n is out again, in a second run, at epoch 2.
    expect(recordOf(f, m)).toMatchObject({ state: "held", epoch: 1 });
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 2 });
    expect(allRuns(f).filter((r) => runItems(r).some((i) => i.item === String(n))).map((r) => runItems(r).find((i) => i.item === String(n))?.epoch)).toEqual([1, 2]);
  });

  it("a batch run that ended with one leg landed done and one leg never landing: the landed item is judged by its landing, the other by the run's conclusion", async () => {
    f = await schedulerFixture(batched(2));
    const [n, m] = [await f.queue("a"), await f.queue("b")];
    const a = f.replica("a");
    await a.tick();
    const run = allRuns(f)[0]!;
    const pull = f.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]", files: [{ filename: "src/a.ts", status: "modified", additions: 1, deletions: 0, patch: "@@ -0,0 +1 @@\n+x" }] });
    await landLeg(f, n, run.id, { kind: "done" }, { pull: pull.number });
    f.fake.completeWorkflowRun(REPO, run.id, "failure");
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "review", epoch: 1 });
    expect(recordOf(f, m)?.state).not.toBe("held");
    expect(recordOf(f, m)?.landing?.stop).toMatchObject({ kind: "failed" });
  });

  it("a batch dispatch answered 4xx (nothing started) gives every claim in it back for a retry", async () => {
    f = await schedulerFixture(batched(2));
    const [n, m] = [await f.queue("a"), await f.queue("b")];
    f.fake.faults.add({ kind: "spurious-422", applied: false, message: "Unexpected inputs provided", route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
    await f.replica("a").tick().catch(() => undefined);
    expect(allRuns(f)).toHaveLength(0);
    expect(recordOf(f, n)).toMatchObject({ state: "released" });
    expect(recordOf(f, m)).toMatchObject({ state: "released" });
  });

  it("a batch dispatch that started its run and answered 502, the run not yet listed, keeps every claim: never a second run while the first lives", async () => {
    f = await schedulerFixture(batched(2));
    const [n, m] = [await f.queue("a"), await f.queue("b")];
    const a = f.replica("a");
    f.fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
    f.fake.faults.add({ kind: "stale-read", requests: 3, route: "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", times: 3 });
    await a.tick().catch(() => undefined);
    expect(allRuns(f)).toHaveLength(1);
    allRuns(f)[0]!.status = "in_progress";
    f.clock.advance(60 * 60_000);
    for (let i = 0; i < 3; i++) await a.tick().catch(() => undefined);
    expect(allRuns(f)).toHaveLength(1);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(recordOf(f, m)).toMatchObject({ state: "held", epoch: 1 });
  });

  it("a run someone else dispatched with a batch's name for an item speaks for nothing: it neither lands the item nor lifts its epochs; another replica, reading titles, lands it from Bosun's run", async () => {
    f = await schedulerFixture(batched(1));
    const n = await f.queue("a");
    await f.replica("a").tick();
    f.fake.addToken("t-agent", "agent-7", { permissions: { [REPO]: "write" } });
    const agent = createTestOctokit(f.fake.url, "t-agent");
    // Titled as Bosun titles a batch naming this item at its epoch, and at a huge one.
    await agent.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { owner: "acme", repo: "app", workflow_id: "bosun-work.yml", ref: "main", inputs: { title: `#${n} epoch 1, #${n} epoch 9`, items: "[]" } });
    const ours = allRuns(f).find((r) => r.actor === BOT)!;
    const theirs = allRuns(f).find((r) => r.actor !== BOT)!;
    f.fake.completeWorkflowRun(REPO, theirs.id, "success");
    ours.status = "in_progress";
    // A replica that never dispatched it matches runs by their names only.
    const b = f.replica("b");
    f.clock.advance(60_000);
    await b.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    f.fake.completeWorkflowRun(REPO, ours.id, "failure");
    await b.tick();
    expect(recordOf(f, n)?.landing?.stop).toMatchObject({ kind: "failed" });
    // Approved again, its next grant is the next epoch, not one above the forged name's.
    await f.reapprove(n);
    f.clock.advance(60 * 60_000);
    await b.tick();
    await b.tick();
    const epochs = allRuns(f).filter((r) => r.actor === BOT).flatMap((r) => runItems(r).filter((i) => i.item === String(n)).map((i) => i.epoch));
    expect(epochs).toEqual([1, 2]);
  });
});
