import { afterEach, describe, expect, it } from "vitest";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { runChaos, CHAOS_DEFAULTS } from "./chaos-simulation.js";
import { schedulerFixture, stallAfterListing } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

describe("the scheduler under chaos (a small run of `npm run bench -- chaos`)", () => {
  it.each([1, 2, 3])("seed %i: no double dispatch, no lost item, no false idle, no pool past its size", async (seed) => {
    const r = await runChaos({ ...CHAOS_DEFAULTS, seed, replicas: 4, items: 40, maxSteps: 1500 });
    const problems = r.details.filter((d) => !d.startsWith("tick error"));
    expect({ double: r.doubleDispatch, unfenced: r.unfencedDispatch, lost: r.lost, falseIdle: r.falseIdle, overfill: r.poolOverfill, problems }).toEqual({ double: 0, unfenced: 0, lost: 0, falseIdle: 0, overfill: 0, problems: [] });
    // The pools were filled, or the bound proves nothing.
    expect(r.maxPoolLive).toBe(CHAOS_DEFAULTS.poolSize);
    // The run must have been chaotic and finished, or it proves little.
    expect(r.unfinished).toBe(0);
    expect(r.faultsFired).toBeGreaterThan(0);
    expect(r.reclaims).toBeGreaterThan(0);
  }, 30_000);
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
