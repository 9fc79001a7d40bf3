import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Band } from "../../../src/core/brief/brief.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { compileTrace } from "../../../src/core/replay/compile-trace.js";
import { createFairGuardPolicy, FAIR_GUARD_SHARE } from "../../../src/core/replay/fair-guard-policy.js";
import { generateTraceCsv } from "../../../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../../../src/core/replay/import-beads-csv.js";
import { createReplayPolicy } from "../../../src/core/replay/replay-policies.js";
import type { ReplayPolicy, ReplayQueueItem } from "../../../src/core/replay/replay-policy.js";
import { simulateReplay } from "../../../src/core/replay/simulate-replay.js";
import { runReplay } from "../../../src/core/replay/run-replay.js";

const H = 3_600_000;
const SHORT = 0;
const LONG = 1;
const item = (id: string, kind: number, band: Band, createdAt: number): ReplayQueueItem => ({ id, band, createdAt, unblocks: 0, pool: "default", ix: 0, kind, unblockWeight: 0 });

/** A policy that has seen three short (0.5 h) and three long (5 h) completions. */
function trained(share?: number): ReplayPolicy {
  const p = share === undefined ? createFairGuardPolicy(2) : createFairGuardPolicy(2, share);
  for (let k = 0; k < 3; k++) {
    p.observe?.(SHORT, 2, 0.5 * H, 0);
    p.observe?.(LONG, 2, 5 * H, 0);
  }
  return p;
}

/** One worker: x (long) waits with a crowd of short items that arrived just after it; the ids in start order. */
function startOrder(policy: ReplayPolicy, workers: number, shorts: number): string[] {
  const q = policy.createQueue(0, workers);
  q.push(item("x", LONG, 2, 0), 0);
  for (let k = 0; k < shorts; k++) q.push(item(`s${k}`, SHORT, 2, 60_000 * (k + 1)), 60_000 * (k + 1));
  const order: string[] = [];
  // Each short takes 0.5 h of one of `workers` workers: a start every 0.5 h ÷ workers.
  for (let k = 0; q.size > 0; k++) order.push((q.pop(H + (k * 0.5 * H) / workers) as ReplayQueueItem).id);
  return order;
}

describe("fair-guard: fair's order until later arrivals have delayed an item by a tenth of its arrival-order flow", () => {
  it("without the guard (share ∞) the long item waits behind every short newcomer, as under fair", () => {
    expect(startOrder(trained(Number.POSITIVE_INFINITY), 1, 20).at(-1)).toBe("x");
  });

  it("with it, serves the long item once the shorts that passed it add up to a tenth of its arrival-order flow", () => {
    // At the k-th start x has queued 1 + 0.5(k − 1) h and been passed by k − 1 shorts of 0.5 h on
    // one worker: d = 0.5(k − 1) h, arrival-order flow ≈ (queued − d) + 5 h = 6 h, a tenth 0.6 h:
    // overdue once d ≥ 0.6 h, at the third start (d = 1 h); at the second d = 0.5 h is not enough.
    expect(FAIR_GUARD_SHARE).toBe(0.1);
    expect(startOrder(trained(), 1, 20).indexOf("x")).toBe(2);
    // With 4 workers the same shorts delay it a quarter as much: it is passed by more of them.
    const four = startOrder(trained(), 4, 20).indexOf("x");
    expect(four).toBeGreaterThan(2);
    expect(four).toBeLessThan(20);
  });

  it("starves nobody: a P4 long item behind a P0 short newcomer at every start is served", () => {
    for (const workers of [1, 2, 8]) {
      const q = trained().createQueue(0, workers);
      q.push(item("victim", LONG, 4, 0), 0);
      let servedAt = -1;
      for (let k = 0; k < 400 && servedAt < 0; k++) {
        const now = (k + 1) * 10 * 60_000;
        q.push(item(`n${k}`, SHORT, 0, now), now);
        if (q.pop(now)?.id === "victim") servedAt = k;
      }
      expect(servedAt, `${workers} workers`).toBeGreaterThanOrEqual(0);
    }
  });

  it("starves nobody: a P4 long item among random newcomers, one per start, is served", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.record({ band: fc.integer({ min: 0, max: 4 }), kind: fc.integer({ min: 0, max: 1 }) }), { minLength: 400, maxLength: 400 }), (workers, stream) => {
        const q = trained().createQueue(0, workers);
        q.push(item("victim", LONG, 4, 0), 0);
        for (let k = 0; k < stream.length; k++) {
          const now = (k + 1) * 10 * 60_000;
          const n = stream[k] as { band: number; kind: number };
          q.push(item(`n${k}`, n.kind, n.band as Band, now), now);
          if (q.pop(now)?.id === "victim") return;
        }
        throw new Error(`victim not served in ${stream.length} starts with ${workers} workers`);
      }),
      { numRuns: 100 },
    );
  });
});

describe("fair-guard's coefficient runs from arrival order to fair", () => {
  // The beads work trace takes lead time as work, so class means there are far above what most
  // items take: the jumped work d can exceed the time an item has queued. The arrival-order wait
  // estimate (time queued − d) must then count as 0, not as negative (which made every such item
  // overdue even with the guard off).
  it("with g = ∞ (no guard) starts every item of the overloaded beads work trace when fair does", () => {
    const csv = readFileSync(join(import.meta.dirname, "../../fixtures/traces/beads_work_trace.csv"), "utf8");
    const c = compileTrace(buildTrace([importBeadsCsv(csv, "work")]));
    const fair = simulateReplay(c, createReplayPolicy("fair", c.kindNames.length) as ReplayPolicy, { workers: 32 });
    const open = simulateReplay(c, createFairGuardPolicy(c.kindNames.length, Number.POSITIVE_INFINITY), { workers: 32 });
    let differ = 0;
    for (let i = 0; i < c.n; i++) if (fair.start[i] !== open.start[i]) differ++;
    expect(differ).toBe(0);
  });

  it("with g = 0 starts in arrival order, as oldest does", () => {
    const c = compileTrace(buildTrace([importBeadsCsv(generateTraceCsv({ items: 500, seed: 7, workers: 3, load: 1 }), "gen")]));
    const oldest = simulateReplay(c, createReplayPolicy("oldest", c.kindNames.length) as ReplayPolicy, { workers: 3 });
    const closed = simulateReplay(c, createFairGuardPolicy(c.kindNames.length, 0), { workers: 3 });
    expect([...closed.start]).toEqual([...oldest.start]);
  });
});

describe("fair-guard on a held-out generated contended trace (seed 10: not used to choose its coefficient)", () => {
  it("cuts weighted flow time at least 10% below oldest with no band's p95 more than 10% worse, and a worst wait far below fair's", () => {
    const trace = buildTrace([importBeadsCsv(generateTraceCsv({ items: 3000, seed: 10, workers: 8, load: 0.95 }), "gen")]);
    const [oldest, guard, fair] = runReplay(trace, { policies: ["oldest", "fair-guard", "fair"], workers: 8 }).metrics;
    expect(guard?.weighted_flow_time_h).toBeLessThanOrEqual(0.9 * (oldest?.weighted_flow_time_h ?? 0));
    const worst = (m: typeof oldest): number => Math.max(...Object.values(m?.max_wait_h_by_band ?? {}).map((x) => x ?? 0));
    for (const b of ["0", "1", "2", "3", "4"] as const) {
      const base = oldest?.p95_flow_time_h_by_band[b] ?? null;
      const mine = guard?.p95_flow_time_h_by_band[b] ?? null;
      if (base !== null && mine !== null) expect(mine, `P${b}`).toBeLessThanOrEqual(1.1 * base);
    }
    expect(worst(guard)).toBeLessThan(worst(fair));
  });
});
