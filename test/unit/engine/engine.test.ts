import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Engine } from "../../../src/core/engine/engine.js";
import type { EngineLoop, RunResult } from "../../../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../../../src/core/engine/engine-options.js";
import type { WorkItem } from "../../../src/core/engine/work-item.js";
import type { ClaimToken } from "../../../src/core/claims/claim-token.js";
import { done, failed, outOfBudget } from "../../../src/core/stop/stop.js";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import type { Band } from "../../../src/core/brief/brief.js";

const item = (id: string, over: Partial<WorkItem<null>> = {}): WorkItem<null> => ({
  id,
  band: 2,
  createdAt: 0,
  unblocks: 0,
  pool: "default",
  claimKey: `task:${id}`,
  blockedBy: [],
  payload: null,
  ...over,
});

/** A loop whose workers answer from a script, finishing in an order the test controls. */
function scriptedLoop(items: WorkItem<null>[], answer: (id: string, attempt: number) => RunResult, delays: (id: string) => number = () => 0) {
  const dispatches: Array<{ id: string; epoch: number }> = [];
  const live = new Set<string>();
  let maxLive = 0;
  let doubleDispatch = 0;
  const loop: EngineLoop<null> = {
    name: "scripted",
    selectQueue: async () => items,
    tierPolicy: () => "standard",
    dispatch: async (claim: ClaimToken, it) => {
      if (live.has(it.id)) doubleDispatch++;
      live.add(it.id);
      maxLive = Math.max(maxLive, live.size);
      dispatches.push({ id: it.id, epoch: claim.epoch });
      for (let i = 0; i < delays(it.id); i++) await new Promise<void>((r) => setImmediate(r));
      live.delete(it.id);
      return answer(it.id, claim.epoch);
    },
    land: async () => {},
    onIdle: () => {},
  };
  return { loop, dispatches, stats: () => ({ maxLive, doubleDispatch, live: live.size }) };
}

function engine(loop: EngineLoop<null>, store = new MemoryClaimStore(), pool = 3, extra: Partial<typeof ENGINE_DEFAULTS> = {}) {
  const journal = new MemoryJournal();
  const e = new Engine(loop, store, new ManualClock(), journal, { ...ENGINE_DEFAULTS, holder: "h1", pool, ...extra });
  return { e, journal, store };
}

describe("engine", () => {
  it("claims before every dispatch and lands and releases every item", async () => {
    const { loop } = scriptedLoop([item("a"), item("b")], () => ({ stop: done() }));
    const { e, journal } = engine(loop);
    const summary = await e.run();
    expect(journal.lines()).toEqual(["CLAIM a", "DISPATCH a", "CLAIM b", "DISPATCH b", "LAND a", "RELEASE a", "LAND b", "RELEASE b", expect.stringMatching(/^IDLE ok=2/)]);
    expect([...summary.items.values()].map((s) => s.status)).toEqual(["ok", "ok"]);
  });

  it("a failing item does not stop the drain: the others still land ok", async () => {
    const ids = ["a", "b", "c", "d", "e"];
    const { loop } = scriptedLoop(ids.map((id) => item(id)), (id) => (id === "b" ? { stop: failed("unclassified", "exit 1") } : id === "d" ? { stop: failed("refuse", "not allowed") } : { stop: done() }));
    const summary = await engine(loop, undefined, 2).e.run();
    expect(Object.fromEntries([...summary.items].map(([k, v]) => [k, v.status]))).toEqual({ a: "ok", b: "needs-human", c: "ok", d: "refused", e: "ok" });
  });

  it("a dispatcher that throws is cannot-classify, goes to a human, and the drain goes on", async () => {
    const { loop } = scriptedLoop([item("a"), item("b")], (id) => {
      if (id === "a") throw new Error("boom");
      return { stop: done() };
    });
    const summary = await engine(loop).e.run();
    expect(summary.items.get("a")).toMatchObject({ status: "needs-human", summary: expect.stringContaining("boom") });
    expect(summary.items.get("b")?.status).toBe("ok");
  });

  it("retries a transient failure with backoff, then hands it to a human when attempts run out", async () => {
    const { loop, dispatches } = scriptedLoop([item("flaky"), item("heals")], (id, attempt) =>
      id === "heals" && attempt === 2 ? { stop: done() } : { stop: failed("retry", "exit 75") },
    );
    const { e, journal } = engine(loop, undefined, 2, { maxAttempts: 3 });
    const summary = await e.run();
    expect(dispatches.filter((d) => d.id === "flaky").map((d) => d.epoch)).toEqual([1, 2, 3]);
    expect(summary.items.get("flaky")).toMatchObject({ status: "needs-human", summary: expect.stringContaining("attempts exhausted") });
    expect(summary.items.get("heals")?.status).toBe("ok");
    const times = journal.events.filter((ev) => ev.event === "DISPATCH" && ev.item === "flaky").map((ev) => Date.parse(ev.t));
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(2000);
  });

  it("leases that ran out count as attempts: an item whose workers kept dying goes to a human, never dispatched again", async () => {
    const store = new MemoryClaimStore();
    const clock = new ManualClock();
    // Three holders claimed it and died; each lapsed lease was reclaimed.
    for (let i = 1; i <= 3; i++) {
      const t = await store.claim("task:dies", `dead-${i}`, 1000, clock.now());
      expect(t.granted && t.token.epoch).toBe(i);
      clock.advance(1001);
      expect(await store.reclaimStale(clock.now())).toHaveLength(1);
    }
    const { loop, dispatches } = scriptedLoop([item("dies")], () => ({ stop: done() }));
    const journal = new MemoryJournal();
    const summary = await new Engine(loop, store, clock, journal, { ...ENGINE_DEFAULTS, holder: "h1", pool: 1, maxAttempts: 3 }).run();
    expect(dispatches).toEqual([]);
    expect(summary.items.get("dies")).toMatchObject({ status: "needs-human", summary: expect.stringContaining("attempts exhausted (3)") });
    expect((await store.inspect("task:dies", clock.now())).settled).toMatchObject({ ok: false, disposition: "human" });
  });

  it("out of budget and blocked stops go to a human, never retried", async () => {
    const { loop, dispatches } = scriptedLoop([item("a"), item("b")], (id) => ({ stop: id === "a" ? outOfBudget("wall_clock") : { kind: "blocked", reason: "needs a decision" } }));
    const summary = await engine(loop).e.run();
    expect(dispatches).toHaveLength(2);
    expect([...summary.items.values()].every((s) => s.status === "needs-human")).toBe(true);
  });

  it("blocked_by keeps an item out until its blocker lands ok, and blocks it for good when the blocker fails", async () => {
    const items = [item("child", { blockedBy: ["parent"], band: 0 }), item("parent", { band: 4 }), item("orphan", { blockedBy: ["bad"] }), item("bad"), item("ghost", { blockedBy: ["nope"] })];
    const { loop, dispatches } = scriptedLoop(items, (id) => ({ stop: id === "bad" ? failed("refuse", "no") : done() }));
    const summary = await engine(loop, undefined, 4).e.run();
    const order = dispatches.map((d) => d.id);
    expect(order.indexOf("parent")).toBeLessThan(order.indexOf("child"));
    expect(order).not.toContain("orphan");
    expect(order).not.toContain("ghost");
    expect(summary.items.get("orphan")?.status).toBe("blocked");
    expect(summary.items.get("ghost")).toMatchObject({ status: "blocked", summary: "blocked by nope" });
  });

  it("refuses a land whose epoch is stale and journals it", async () => {
    const store = new MemoryClaimStore();
    const clock = new ManualClock();
    const journal = new MemoryJournal();
    let release!: () => void;
    const loop: EngineLoop<null> = {
      name: "slow",
      selectQueue: async () => [item("a")],
      tierPolicy: () => "standard",
      dispatch: () => new Promise<RunResult>((resolve) => (release = () => resolve({ stop: done() }))),
      land: async () => {},
      onIdle: () => {},
    };
    const e = new Engine(loop, store, clock, journal, { ...ENGINE_DEFAULTS, holder: "stale", pool: 1, leaseMs: 1000 });
    const running = e.run();
    await new Promise((r) => setImmediate(r));
    // The lease runs out while the worker hangs (no renewal happened: the clock jumped); it is
    // reclaimed (every store reclaims before it grants again) and another holder takes over.
    clock.advance(5000);
    expect(await store.reclaimStale(clock.now())).toHaveLength(1);
    const other = await store.claim("task:a", "fresh", 60_000, clock.now());
    expect(other.granted && other.token.epoch).toBe(2);
    release();
    clock.advance(1);
    // The stale engine keeps waiting for the fresh holder: settle it so the run can end.
    if (other.granted) await store.release(other.token, { kind: "settle", outcome: { ok: true, disposition: "ok", summary: "done" } }, clock.now());
    const summary = await running;
    const land = journal.events.find((ev) => ev.event === "LAND");
    expect(land).toMatchObject({ epoch: 1, fenced: expect.stringContaining("stale") });
    expect(journal.events.some((ev) => ev.event === "RELEASE" && ev.epoch === 1)).toBe(false);
    expect(summary.items.get("a")?.status).toBe("ok");
  });

  it("never dispatches an item twice, keeps the pool bound and lands everything, for many seeds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ band: fc.integer({ min: 0, max: 4 }), created: fc.nat(1000), delay: fc.nat(5), outcome: fc.constantFrom("done", "retry", "refuse", "human") }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 6 }),
        async (specs, pool) => {
          const items = specs.map((s, i) => item(`i${i}`, { band: s.band as Band, createdAt: s.created }));
          const byId = new Map(items.map((it, i) => [it.id, specs[i]!]));
          const { loop, stats } = scriptedLoop(
            items,
            (id) => {
              const o = byId.get(id)!.outcome;
              return { stop: o === "done" ? done() : o === "retry" ? failed("retry", "x") : o === "refuse" ? failed("refuse", "x") : failed("unclassified", "x") };
            },
            (id) => byId.get(id)!.delay,
          );
          const summary = await engine(loop, undefined, pool).e.run();
          const s = stats();
          expect(s.doubleDispatch).toBe(0);
          expect(s.maxLive).toBeLessThanOrEqual(pool);
          expect(s.live).toBe(0);
          expect(summary.items.size).toBe(items.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("stop() tells running workers to stop, releases their items for an immediate retry, claims nothing more and never reports idle", async () => {
    const store = new MemoryClaimStore();
    const clock = new ManualClock();
    const journal = new MemoryJournal();
    let started = 0;
    const loop: EngineLoop<null> = {
      name: "stoppable",
      selectQueue: async () => [item("a"), item("b"), item("c")],
      tierPolicy: () => "standard",
      dispatch: (_claim, _it, _tier, control) =>
        new Promise<RunResult>((resolve) => {
          started++;
          control.signal.addEventListener("abort", () => resolve({ stop: failed("unclassified", "killed") }));
        }),
      land: async () => {},
      onIdle: () => {},
    };
    const e = new Engine(loop, store, clock, journal, { ...ENGINE_DEFAULTS, holder: "h", pool: 2 });
    const running = e.run();
    while (started < 2) await new Promise((r) => setImmediate(r));
    e.stop("SIGINT");
    const summary = await running;
    expect(summary.interrupted).toBe("SIGINT");
    expect(started).toBe(2);
    expect(journal.events.some((ev) => ev.event === "IDLE")).toBe(false);
    const lands = journal.events.filter((ev) => ev.event === "LAND");
    expect(lands.map((ev) => ev.event === "LAND" && ev.disposition)).toEqual(["retry", "retry"]);
    for (const key of ["task:a", "task:b"]) {
      const state = await store.inspect(key, clock.now());
      expect(state.live).toBeUndefined();
      expect(state.notBefore).toBeLessThanOrEqual(clock.now());
    }
    expect((await store.inspect("task:c", clock.now())).epoch).toBe(0);
  });
});
