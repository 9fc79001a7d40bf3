/**
 * The scheduler under chaos (a small run of `npm run bench -- chaos`), and the minimal cases it
 * found. Judged from what the fake GitHub recorded — the workflow runs it started, the claim refs'
 * heads, the issues' labels and comments, the merged pull requests — never from a replica's own
 * claim state.
 */
import { Octokit } from "@octokit/rest";
import { afterEach, describe, expect, it } from "vitest";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { CHAOS_DEFAULTS, runChaos, type ChaosResult } from "./run-chaos.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

/** A replica that dies right after GitHub applied its first claim batch (GraphQL `updateRefs`): it never hears the answer and sends nothing more. */
function dyingAfterBatch(fx: Fixture, holder: string): RepoTicker {
  let dead = false;
  const dying: typeof fetch = async (input, init) => {
    if (dead) throw new Error(`${holder} is dead`);
    const answer = await fetch(input, init);
    if (typeof init?.body === "string" && init.body.includes("updateRefs")) {
      dead = true;
      throw new Error(`${holder} died`);
    }
    return answer;
  };
  const octokit = new Octokit({ baseUrl: fx.fake.url, auth: "t-bot", log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} }, request: { fetch: dying } });
  return new RepoTicker(octokit, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", holder, clock: fx.clock, journal: new MemoryJournal() });
}

describe("replicas of the scheduler under chaos", () => {
  // Seeds × a small repository: each seed is a few hundred requests. The bench runs more and bigger.
  it("over several seeds: nothing dispatched twice, nothing lost, no epoch going back, one snapshot per approval, no false idle", async () => {
    const results: Array<ChaosResult & { seed: number }> = [];
    for (const seed of [1, 2, 3]) results.push({ seed, ...(await runChaos({ ...CHAOS_DEFAULTS, seed })) });
    for (const r of results) {
      expect({
        seed: r.seed,
        double: r.doubleDispatch,
        epochsBack: r.epochsBack,
        lost: r.lost,
        wrongHuman: r.wrongHuman,
        falseIdle: r.falseIdle,
        falseDone: r.falseDone,
        commentsTwice: r.commentsTwice,
        overfill: r.poolOverfill,
        foreign: r.foreignRuns,
        idleAtEnd: r.idleAtEnd,
        details: r.details.filter((d) => !d.startsWith("tick error")),
      }).toEqual({ seed: r.seed, double: 0, epochsBack: 0, lost: 0, wrongHuman: 0, falseIdle: 0, falseDone: 0, commentsTwice: 0, overfill: 0, foreign: 0, idleAtEnd: true, details: [] });
      // Every seed had a replica killed mid-tick, and every item reached an end (done, or a human).
      expect(r.kills, `seed ${r.seed}`).toBeGreaterThan(0);
      expect(r.landed, `seed ${r.seed}`).toBe(CHAOS_DEFAULTS.items);
    }
    const sum = (k: keyof ChaosResult): number => results.reduce((s, r) => s + Number(r[k]), 0);
    // The runs were chaotic, or they prove little: webhooks lost and redelivered in storms, writes
    // that applied and answered 5xx, lagging reads, grants taken back; and work got done.
    expect(sum("dropped")).toBeGreaterThan(0);
    expect(sum("redelivered")).toBeGreaterThan(0);
    expect(sum("appliedErrors")).toBeGreaterThan(0);
    expect(sum("staleReads")).toBeGreaterThan(0);
    expect(sum("reclaims")).toBeGreaterThan(0);
    expect(sum("done")).toBeGreaterThan(0);
    // Deliveries were heard as the App hears them: some heard ticks stopped at their answered asks.
    expect(sum("answered")).toBeGreaterThan(0);
    // The pools were filled, or their bound proves nothing.
    expect(Math.max(...results.map((r) => r.maxPoolLive))).toBe(CHAOS_DEFAULTS.poolSize);
  }, 120_000);
});

describe("regressions: what the chaos run is about, made deterministic", () => {
  const CONFIG = `pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 2m\ndispatch_deadline: 60s\n`;

  it("a replica killed right after its grant batch: the stranded grant is taken back at the dispatch deadline and dispatched once, at the next epoch", async () => {
    f = await schedulerFixture(CONFIG);
    const n = await f.queue("stranded");
    // Replica a dies right after GitHub applied its batch (the approval and the grant): it posts and dispatches nothing.
    await dyingAfterBatch(f, "a").tick(f.config).catch(() => undefined);
    expect(f.runsOf(n)).toEqual([]);
    expect(f.commentsOf(n)).toEqual([]);
    const b = f.replica("b");
    for (let i = 0; i < 8; i++) {
      f.clock.advance(15_000);
      await b.tick();
    }
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([2]);
    expect(f.commentsOf(n).filter(([, first]) => first === "<!-- bosun:snapshot -->")).toHaveLength(1);
  });

  it("a dispatch that started its run but answered 502 is not dispatched again while that run is in progress", async () => {
    f = await schedulerFixture(CONFIG);
    const n = await f.queue("unknown-outcome");
    f.fake.faults.add({ kind: "error", status: 502, applied: true, route: /\/dispatches$/, times: 1 });
    const a = f.replica("a");
    await a.tick().catch(() => undefined);
    expect(f.runsOf(n)).toHaveLength(1);
    // Ticks every 30 s for ten minutes, on two replicas, while the run works: it keeps the item.
    const b = f.replica("b");
    for (let i = 0; i < 20; i++) {
      f.clock.advance(30_000);
      await Promise.all([a.tick(), b.tick()]);
    }
    expect(f.runsOf(n).map((r) => [r.epoch, r.status])).toEqual([[1, "queued"]]);
  });

  it("a done item is not dispatched again by a replica whose reads lag behind the landing", async () => {
    f = await schedulerFixture(CONFIG);
    const n = await f.queue("lagging");
    // Replica b will read the issues, the runs and the pull requests from a replica of GitHub 40 s
    // behind (armed now, so the fake keeps the history it serves from).
    let lagging = false;
    f.fake.faults.add({ kind: "stale-read", lagMs: 40_000, route: /^GET \/repos\/\{owner\}\/\{repo\}\/(issues|actions\/runs|pulls)/, when: () => lagging });
    const a = f.replica("a");
    await a.tick();
    const [run] = f.runsOf(n);
    f.fake.addPull(REPO, { head: `bosun/${n}-work`, body: `Closes #${n}`, user: "agent" });
    f.fake.completeWorkflowRun(REPO, run?.id ?? 0, "success");
    f.clock.advance(10_000);
    a.ticker.invalidate("pulls");
    await a.tick();
    expect(f.labelsOf(n)).toContain("bosun:review");
    const pull = [...f.fake.repo(REPO).pulls.values()].find((p) => p.headRef === `bosun/${n}-work`);
    await f.maintainer.pulls.merge({ owner: "acme", repo: "app", pull_number: pull?.number ?? 0 });
    f.clock.advance(5_000);
    a.ticker.invalidate("pulls");
    await a.tick();
    expect(f.labelsOf(n)).toContain("bosun:done");
    f.clock.advance(5_000);
    lagging = true;
    await f.replica("b").tick().catch(() => undefined);
    lagging = false;
    expect(f.fake.faults.fired.filter((x) => x.kind === "stale-read").length).toBeGreaterThan(0);
    expect(f.runsOf(n)).toHaveLength(1);
  });
});

describe("regressions: scheduler bugs the chaos run found", () => {
  it("a grant whose frozen snapshot could not be posted is not dispatched without it: the next grant posts the snapshot, then dispatches", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 2m\n`);
    const n = await f.queue("frozen");
    // Replica a records the approval (and a grant) and dies before posting anything.
    await dyingAfterBatch(f, "a").tick(f.config).catch(() => undefined);
    expect(f.commentsOf(n)).toEqual([]);
    const snapshots = () => f?.commentsOf(n).filter(([, first]) => first === "<!-- bosun:snapshot -->") ?? [];
    // Past the dispatch deadline replica b takes the stranded grant back (and says so in the status
    // comment: an attempt was spent); when it grants the item again, reading the comments before
    // posting the snapshot answers 503.
    const b = f.replica("b");
    f.clock.advance(61_000);
    await b.tick();
    expect(f.commentsOf(n)).toEqual([["bosun[bot]", "<!-- bosun:status -->"]]);
    f.fake.faults.add({ kind: "error", status: 503, route: "GET /repos/{owner}/{repo}/issues/{issue_number}/comments", times: 1 });
    const fired = () => f?.fake.faults.fired.filter((x) => x.kind === "error").length ?? 0;
    for (let i = 0; i < 10 && fired() === 0; i++) {
      f.clock.advance(5_000);
      await b.tick();
    }
    expect(fired()).toBe(1);
    // Dispatched work with no snapshot could never pass the gate (it judges against the snapshot only).
    expect({ runs: f.runsOf(n).length, snapshots: snapshots().length }).toEqual({ runs: 0, snapshots: 0 });
    for (let i = 0; i < 6 && f.runsOf(n).length === 0; i++) {
      f.clock.advance(30_000);
      await b.tick();
    }
    expect({ runs: f.runsOf(n).map((r) => r.epoch), snapshots: snapshots().length }).toEqual({ runs: [3], snapshots: 1 });
  });
});
