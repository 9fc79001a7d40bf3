/**
 * A tick set off by a webhook that asks one thing (a work run ended, a pull request closed) stops
 * at the claim records when they show it already answered — by the replica that heard the other
 * deliveries of the same moves, or by the run's land job — and is a whole tick otherwise (issue 24:
 * each replica re-read everything another had just acted on). Judged from the requests the fake
 * recorded and the runs GitHub holds, with the real Octokit over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { asksOfDelivery } from "../../../src/adapters/github/tick/asks-of-delivery.js";
import type { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { workflowRunJson } from "../../fake-github/to-json-ci.js";
import { isoTime } from "../../fake-github/clock.js";
import { runItems } from "../../support/run-items.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

/** Two items granted and dispatched (pool of 2), a third waiting. */
async function setup() {
  const fx = await schedulerFixture();
  f = fx;
  const items = [await fx.queue("a"), await fx.queue("b"), await fx.queue("c")];
  const a = fx.replica("replica-a");
  const b = fx.replica("replica-b");
  const land = fx.replica("work-land");
  await a.tick();
  expect(items.map((n) => fx.runsOf(n).length)).toEqual([1, 1, 0]);
  const mark = (): number => fx.fake.accounting.log.at(-1)?.seq ?? 0;
  const routes = (since: number): string[] => fx.fake.accounting.log.filter((e) => e.seq > since).map((e) => e.route ?? `${e.method} ${e.path}`);
  const recordOf = (n: number) => {
    const ref = `refs/bosun/claims/${n}`;
    const sha = fx.fake.repo(REPO).refs.get(ref);
    return sha === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
  };
  /** The item's work run ends: its land job records the pull request it opened (unless `crashed`), then GitHub completes the run. */
  const runEnds = async (n: number, crashed = false): Promise<Record<string, unknown>> => {
    const run = [...fx.fake.repo(REPO).workflowRuns.values()].find((r) => runItems(r).some((i) => i.item === String(n)));
    if (run === undefined) throw new Error(`no run for #${n}`);
    const leg = runItems(run)[0];
    if (leg === undefined) throw new Error("a run without its item");
    if (!crashed) {
      const held = await land.ticker.heldItem(fx.config, n, leg.epoch, leg.briefHash);
      if (!held.ok) throw new Error(held.problem);
      const pull = fx.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]", files: [{ filename: "src/a.ts", status: "modified", additions: 1, deletions: 0, patch: "@@ -0,0 +1 @@\n+x" }] });
      await land.ticker.landRun(fx.config, n, held.token, { kind: "done" }, { evidence: { command: "agent", exit: 0, lines: [] }, cost: { wall_clock_s: 60 }, pull: pull.number, run: run.id });
    }
    fx.fake.completeWorkflowRun(REPO, run.id, crashed ? "failure" : "success");
    return workflowRunJson(fx.fake.state, fx.fake.repo(REPO), run);
  };
  /** What the App's handler does with a `workflow_run.completed` delivery it heard. */
  const hearRunEnd = (t: RepoTicker, payload: Record<string, unknown>): void => t.ask(asksOfDelivery({ name: "workflow_run", action: "completed", workflow_run: payload as { event?: string; display_title?: string } }));
  const heardTick = (t: RepoTicker) => t.tick(fx.config, undefined, { heard: true });
  return { fx, items, a, b, mark, routes, recordOf, runEnds, hearRunEnd, heardTick };
}

/** Reads of the claim refs and of the claim commits they point at: all a tick needs to see its asks answered. */
const CLAIM_READS = new Set(["GET /repos/{owner}/{repo}/git/matching-refs/{ref}", "POST /graphql", "GET /repos/{owner}/{repo}/git/commits/{commit_sha}"]);

describe("a webhook's asks, answered by the claim records", () => {
  it("a run's end another replica already took in (landed, its slot refilled) costs the replica that hears it again only the claims", async () => {
    const { fx, items, a, b, mark, routes, recordOf, runEnds, hearRunEnd, heardTick } = await setup();
    const [first, , third] = items as [number, number, number];
    const payload = await runEnds(first);
    // Replica A heard the run end: a whole tick (the waiting item takes the freed slot).
    hearRunEnd(a.ticker, payload);
    await heardTick(a.ticker);
    expect(fx.runsOf(third)).toHaveLength(1);
    // Replica B hears it too (a redelivery, or a load balancer that sent it on twice): answered.
    hearRunEnd(b.ticker, payload);
    const from = mark();
    const report = await heardTick(b.ticker);
    expect(report.answered).toBe(true);
    const made = routes(from);
    expect(made.length).toBeGreaterThan(0);
    expect(made.filter((r) => !CLAIM_READS.has(r.replace(/^POST \/graphql.*/, "POST /graphql")))).toEqual([]);
    expect(fx.runsOf(third)).toHaveLength(1);
    expect(recordOf(first)?.state).toBe("review");
  });

  it("a run that ended with nobody landing it (its land job died) is not answered: the whole tick lands it and refills the slot", async () => {
    const { fx, items, b, recordOf, runEnds, hearRunEnd, heardTick } = await setup();
    const [first, , third] = items as [number, number, number];
    const epoch = recordOf(first)?.epoch;
    const payload = await runEnds(first, true);
    hearRunEnd(b.ticker, payload);
    const report = await heardTick(b.ticker);
    expect(report.answered).toBeUndefined();
    const after = recordOf(first);
    expect(after?.state === "held" && after.epoch === epoch).toBe(false);
    expect(fx.runsOf(third)).toHaveLength(1);
  });

  it("a run's end already landed, but its slot free while an item waits, is not answered: the waiting item is dispatched", async () => {
    const { fx, items, b, recordOf, runEnds, hearRunEnd, heardTick } = await setup();
    const [first, , third] = items as [number, number, number];
    // The land job recorded the landing; no replica has ticked since.
    const payload = await runEnds(first);
    expect(recordOf(first)?.state).toBe("review");
    hearRunEnd(b.ticker, payload);
    const report = await heardTick(b.ticker);
    expect(report.answered).toBeUndefined();
    expect(fx.runsOf(third)).toHaveLength(1);
  });

  it("an approval another replica already recorded costs the replica that hears its label only the claims; a re-approval since is read whole", async () => {
    const { fx, items, a, b, mark, routes, recordOf } = await setup();
    const [, , third] = items as [number, number, number];
    /** The `issues.labeled` delivery of the approval label, as the App's handler takes it (register-scheduler.ts). */
    const hearLabel = async (t: RepoTicker, n: number): Promise<void> => {
      const issue = fx.fake.repo(REPO).issues.get(n);
      if (issue === undefined) throw new Error(`no issue #${n}`);
      const [ask] = asksOfDelivery({ name: "issues", action: "labeled", label: { name: fx.config.labels.ready }, issue: { number: n, updated_at: isoTime(issue.updatedAt) }, readyLabel: fx.config.labels.ready });
      t.hint(n, ask);
    };
    await a.tick();
    await hearLabel(b.ticker, third);
    let from = mark();
    expect((await b.ticker.tick(fx.config, undefined, { heard: true })).answered).toBe(true);
    expect(routes(from).filter((r) => !CLAIM_READS.has(r.replace(/^POST \/graphql.*/, "POST /graphql")))).toEqual([]);
    // Withdrawn and given again, a second later: the record holds the older approval — whole.
    fx.clock.advance(1_000);
    await fx.reapprove(third);
    await hearLabel(b.ticker, third);
    from = mark();
    expect((await b.ticker.tick(fx.config, undefined, { heard: true })).answered).toBeUndefined();
    expect(routes(from).some((r) => r.endsWith("/events"))).toBe(true);
    expect(recordOf(third)?.approval?.at).toBe(Math.floor(fx.clock.now() / 1000) * 1000);
  });

  it("a delivery that wants a whole tick, folded into the same tick, makes it whole; a sweep never stops at asks", async () => {
    const { fx, items, a, b, mark, routes, runEnds, hearRunEnd, heardTick } = await setup();
    const [first, second] = items as [number, number, number];
    const payload = await runEnds(first);
    hearRunEnd(a.ticker, payload);
    await heardTick(a.ticker);
    const listsIssues = (made: string[]): boolean => made.includes("GET /repos/{owner}/{repo}/issues");
    // An approval's webhook (a hint) heard beside the run's end.
    hearRunEnd(b.ticker, payload);
    b.ticker.hint(second);
    let from = mark();
    expect((await heardTick(b.ticker)).answered).toBeUndefined();
    expect(listsIssues(routes(from))).toBe(true);
    // A check run's failure or a comment (no ask of its own) beside it.
    hearRunEnd(b.ticker, payload);
    b.ticker.ask([]);
    fx.clock.advance(1000);
    from = mark();
    expect((await heardTick(b.ticker)).answered).toBeUndefined();
    expect(listsIssues(routes(from))).toBe(true);
    // The timed sweep, with an ask pending from a delivery heard since.
    hearRunEnd(b.ticker, payload);
    from = mark();
    expect((await b.tick()).answered).toBeUndefined();
    expect(listsIssues(routes(from))).toBe(true);
  });
});
