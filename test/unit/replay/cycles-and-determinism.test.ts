import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Band } from "../../../src/core/brief/brief.js";
import { buildReplayReport } from "../../../src/core/replay/build-replay-report.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { generateTraceCsv } from "../../../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../../../src/core/replay/import-beads-csv.js";
import { REPLAY_POLICY_NAMES } from "../../../src/core/replay/replay-policies.js";
import type { ReplayQueueItem } from "../../../src/core/replay/replay-policy.js";
import { runReplay } from "../../../src/core/replay/run-replay.js";
import { smithCompare } from "../../../src/core/replay/smith-policy.js";
import { traceOf } from "./fixtures.js";

describe("a trace with dependency cycles", () => {
  const trace = traceOf({
    a: { at: 0, dur: 1, blockedBy: ["b"] },
    b: { at: 0, dur: 1, blockedBy: ["c"] },
    c: { at: 0, dur: 1, blockedBy: ["a"] },
    self: { at: 0, dur: 1, blockedBy: ["self"] },
    d: { at: 0, dur: 1, blockedBy: ["a"] },
  });

  it("is reported, cycle by cycle, with the rule applied", () => {
    expect(trace.cycles.map((c) => [...c].sort())).toEqual([["a", "b", "c"], ["self"]]);
    expect(trace.problems.filter((p) => p.message.includes("cycle")).map((p) => p.rule)).toEqual(["ignored", "ignored"]);
  });

  it("replays to the end instead of hanging: only edges inside a cycle are dropped", () => {
    const run = runReplay(trace, { policies: [...REPLAY_POLICY_NAMES], workers: 2 });
    for (const m of run.metrics) expect(Object.values(m.n_by_band).reduce((s, n) => s + n, 0)).toBe(5);
    expect(trace.items.find((i) => i.id === "d")?.blockedBy).toEqual(["a"]);
  });
});

describe("determinism", () => {
  it("gives the same report for the same trace and seed, and a different trace for another seed", () => {
    const report = (seed: number): string => {
      const trace = buildTrace([importBeadsCsv(generateTraceCsv({ items: 3000, seed, workers: 4 }), "gen")]);
      return JSON.stringify(buildReplayReport(trace, [], 4, runReplay(trace, { policies: [...REPLAY_POLICY_NAMES], workers: 4 }).metrics));
    };
    expect(report(7)).toBe(report(7));
    expect(report(7)).not.toBe(report(8));
  });

  it("keeps every policy work-conserving and above the bound on generated traces (not the beads files)", () => {
    for (const seed of [1, 2, 3]) {
      const trace = buildTrace([importBeadsCsv(generateTraceCsv({ items: 5000, seed, workers: 3, pools: 2, load: 0.95, blockedShare: 0.3 }), "gen")]);
      for (const m of runReplay(trace, { policies: [...REPLAY_POLICY_NAMES], workers: 3 }).metrics) {
        expect(m.idle_with_work).toBe(0);
        expect(m.gap_to_bound as number).toBeGreaterThanOrEqual(1);
      }
    }
  });
});

describe("smith keeps the band invariant", () => {
  const itemArb = fc.record({ band: fc.integer({ min: 0, max: 4 }), kind: fc.integer({ min: 0, max: 3 }), unblockWeight: fc.integer({ min: 0, max: 40 }), createdAt: fc.nat() });
  it("never puts an item ahead of one in a better band, whatever the estimates and unblocking weights", () => {
    fc.assert(
      fc.property(fc.array(itemArb, { minLength: 2, maxLength: 30 }), fc.array(fc.double({ min: 0, max: 1e7, noNaN: true }), { minLength: 4, maxLength: 4 }), (specs, estimates) => {
        const items: ReplayQueueItem[] = specs.map((s, i) => ({ id: `i${i}`, band: s.band as Band, createdAt: s.createdAt, unblocks: 0, pool: "p", ix: i, kind: s.kind, unblockWeight: s.unblockWeight }));
        const sorted = [...items].sort((a, b) => smithCompare(a, b, (k) => estimates[k] as number));
        for (let i = 1; i < sorted.length; i++) expect((sorted[i] as ReplayQueueItem).band).toBeGreaterThanOrEqual((sorted[i - 1] as ReplayQueueItem).band);
      }),
      { numRuns: 500 },
    );
  });
});
