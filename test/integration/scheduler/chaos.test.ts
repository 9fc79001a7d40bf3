import { afterEach, describe, expect, it } from "vitest";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import type { TickDeps } from "../../../src/app/scheduler/reconcile-tick.js";
import { chaosWorld, runChaos, CHAOS_DEFAULTS, type ChaosWorld } from "./chaos-simulation.js";
import { schedulerFixture, stallAfterListing } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

describe("the scheduler under chaos (a small run of `npm run bench -- chaos`)", () => {
  // Every counter the bench prints is pinned here: the safety ones at 0, the rest to bounds that
  // prove the run was chaotic (faults of every kind fired) and finished.
  it.each([1, 2, 3])("seed %i: no double dispatch, no lost item, no false idle, no pool past its size", async (seed) => {
    const r = await runChaos({ ...CHAOS_DEFAULTS, seed, replicas: 4, items: 40, maxSteps: 1500 });
    const problems = r.details.filter((d) => !d.startsWith("tick error"));
    expect({
      double: r.doubleDispatch,
      twoLiveWorkers: r.twoLiveWorkers,
      unfenced: r.unfencedDispatch,
      lost: r.lost,
      falseIdle: r.falseIdle,
      falseDone: r.falseDone,
      overfill: r.poolOverfill,
      discardedSuccesses: r.discardedSuccesses,
      unfinished: r.unfinished,
      problems,
    }).toEqual({ double: 0, twoLiveWorkers: 0, unfenced: 0, lost: 0, falseIdle: 0, falseDone: 0, overfill: 0, discardedSuccesses: 0, unfinished: 0, problems: [] });
    // The pools were filled, or the bound proves nothing.
    expect(r.maxPoolLive).toBe(CHAOS_DEFAULTS.poolSize);
    expect(r.landed).toBe(40);
    // A claim that never got a run is given back or reclaimed, never held for long.
    expect(r.longestOrphanMs).toBeLessThan(10 * 60_000);
    expect(r.orphanClaims).toBeLessThanOrEqual(r.appliedErrors + r.tickErrors + r.faultsFired);
    // The run must have been chaotic, or it proves little.
    expect(r.faultsFired).toBeGreaterThan(0);
    expect(r.staleReads).toBeGreaterThan(0);
    expect(r.appliedErrors).toBeGreaterThan(0);
    expect(r.runs).toBeGreaterThanOrEqual(40);
    expect(r.ticks).toBeGreaterThan(r.busyTicks + r.tickErrors);
    expect(r.requests).toBeGreaterThan(r.ticks);
    expect(r.steps).toBeLessThan(1500);
  }, 60_000);

  it("shifts listings between pages, kills workers and lapses leases when the queue spans pages (the bench's page, death and reclaim figures)", async () => {
    // 110 items: the queued listing has two pages, so page shifts can fire.
    // Outages longer than a lease, often: leases lapse, so the reclaim figure is exercised too.
    const r = await runChaos({ ...CHAOS_DEFAULTS, seed: 4, replicas: 2, items: 110, maxSteps: 2000, pageShiftRate: 0.5, death: 0.2, outage: 0.05 });
    expect(r.pageShifts).toBeGreaterThan(0);
    expect(r.deadWorkers).toBeGreaterThan(0);
    // A lapsed lease is reclaimed only when its worker shows no life; one whose run still runs is
    // revived instead (DESIGN.md, "Fencing on GitHub"). Either way the lapse path is exercised.
    expect(r.reclaims + r.revived).toBeGreaterThan(0);
    expect({ double: r.doubleDispatch, twoLiveWorkers: r.twoLiveWorkers, lost: r.lost, falseIdle: r.falseIdle, falseDone: r.falseDone, overfill: r.poolOverfill, unfinished: r.unfinished }).toEqual({ double: 0, twoLiveWorkers: 0, lost: 0, falseIdle: 0, falseDone: 0, overfill: 0, unfinished: 0 });
  }, 120_000);
});

/** Runs of one item as the fake recorded them: id, epoch, and whether GitHub still shows it in progress. */
const runsOf = (world: ChaosWorld, n: number): Array<{ id: number; epoch: number; status: string }> =>
  [...world.fake.repo("acme/app").workflowRuns.values()].filter((r) => r.inputs["item"] === String(n)).map((r) => ({ id: r.id, epoch: Number(r.inputs["epoch"]), status: r.status }));

// The issue's double dispatch, made deterministic. Judged by the observer from the fake's records.
describe("regressions: double dispatch seen against an unkind GitHub", () => {
  let world: ChaosWorld | undefined;
  afterEach(async () => {
    await world?.fake.close();
    world = undefined;
  });

  it("a done item is not dispatched again by a replica whose issue listing lags behind the landing", async () => {
    world = await chaosWorld({ seed: 1, items: 1, pools: 1, poolSize: 1, skews: [0, 0] });
    const { fake, clock, observer, replicas, items } = world;
    const [a, b] = replicas as [TickDeps, TickDeps];
    const n = items[0] as number;
    // Replica b's issue listings come from a read replica 15.5 s behind; its claim reads are fresh.
    let lagging = false;
    fake.faults.add({ kind: "stale-read", lagMs: 15_500, route: "GET /repos/{owner}/{repo}/issues", when: () => lagging });
    clock.advance(1000);
    await reconcileTick(a); // claims #n (epoch 1) and dispatches its run
    const [first] = runsOf(world, n);
    expect(first?.epoch).toBe(1);
    observer.complete(first?.id as number, "success");
    clock.advance(10_000);
    await reconcileTick(a); // lands it done: the claim settles, the issue is labelled done
    expect(fake.repo("acme/app").issues.get(n)?.labels).toContain("bosun:done");
    clock.advance(5_000);
    lagging = true;
    await reconcileTick(b).catch(() => undefined);
    lagging = false;
    expect(fake.faults.fired.filter((f) => f.kind === "stale-read").length).toBeGreaterThan(0);
    const judged = observer.judge(items);
    expect({ runs: runsOf(world, n).length, double: judged.doubleDispatch, details: judged.details }).toEqual({ runs: 1, double: 0, details: [] });
  });

  it("a dispatch that started a run but answered 502 is not dispatched again while that run is in progress", async () => {
    world = await chaosWorld({ seed: 1, items: 1, pools: 1, poolSize: 1, skews: [0] });
    const { fake, clock, observer, replicas, items } = world;
    const a = replicas[0] as TickDeps;
    const n = items[0] as number;
    fake.faults.add({ kind: "error", status: 502, applied: true, route: /\/dispatches$/, times: 1 });
    await reconcileTick(a).catch(() => undefined);
    expect(runsOf(world, n)).toHaveLength(1); // the dispatch applied
    // Schedule ticks for ten minutes while the run works: it must keep the item.
    for (let i = 0; i < 20; i++) {
      clock.advance(30_000);
      await reconcileTick(a).catch(() => undefined);
    }
    const judged = observer.judge(items);
    expect({ runs: runsOf(world, n).map((r) => r.epoch), double: judged.doubleDispatch, details: judged.details }).toEqual({ runs: [1], double: 0, details: [] });
  });
});

// Minimal cases of scheduler bugs the chaos run found (both failed on 2262df3, fixed in 3180bb5).
describe("regressions: scheduler bugs found by the chaos run", () => {
  it("a claim whose dispatch failed is not held forever: the item is dispatched again", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 2m\n`);
    const n = await f.queue("one", "budget: {wall_clock: 1m}");
    // The claim is granted and labelled, then the dispatch answers 502 and did not happen: no run exists.
    f.fake.faults.add({ kind: "error", status: 502, route: /dispatches$/, times: 1 });
    const a = f.replica("a");
    await reconcileTick(a).catch(() => undefined); // whether the tick throws is not the point
    expect(f.runsOf(n)).toEqual([]);
    // A schedule tick every 30 s for an hour: each one finds the claim held with no run and renews it.
    for (let i = 0; i < 120; i++) {
      f.clock.advance(30_000);
      await reconcileTick(a);
    }
    expect(f.runsOf(n).length).toBeGreaterThan(0);
  }, 20_000);

  it("two overlapping ticks of one replica do not dispatch one item twice at the same epoch", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 2m\n`);
    const a = f.replica("a");
    await reconcileTick(a); // an empty queue: lists claims and issues once, so the next ticks start from a cache
    const items = [await f.queue("x"), await f.queue("y")];
    // Two webhooks handled at once by one replica (Probot does not serialise deliveries). Made
    // deterministic: the second tick has listed the claims (none yet) when the first one runs whole.
    const stall = stallAfterListing(a.store);
    const second = reconcileTick({ ...a, store: stall.store });
    await stall.listed;
    // Unguarded, the first tick finishes in a few ms; serialised behind the second it cannot start.
    const first = reconcileTick(a);
    await Promise.race([first, new Promise((r) => setTimeout(r, 500))]);
    stall.resume();
    await Promise.all([first, second]);
    const runs = items.flatMap((n) => f!.runsOf(n).map((r) => `#${n} epoch ${r.epoch}`));
    expect(runs).toEqual([...new Set(runs)]);
  });
});
