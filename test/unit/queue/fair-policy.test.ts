import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Band } from "../../../src/core/brief/brief.js";
import type { DurationEstimates, EstimatedQueueItem } from "../../../src/core/queue/queue-policy-type.js";
import { FAIR_HEAD_START, fairPolicy, fairScore } from "../../../src/core/queue/fair-policy.js";
import { policyByName } from "../../../src/core/queue/queue-policy.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { generateTraceCsv } from "../../../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../../../src/core/replay/import-beads-csv.js";
import { runReplay } from "../../../src/core/replay/run-replay.js";

const H = 3_600_000;
const item = (id: string, band: Band, createdAt: number, expectedMs?: number): EstimatedQueueItem => ({ id, band, createdAt, unblocks: 0, pool: "default", ...(expectedMs === undefined ? {} : { expectedMs }) });
const estimates = (mean: number): DurationEstimates => ({ expected: (i) => i.expectedMs ?? mean, mean: () => mean });

describe("fair: a response ratio with the band as a head start", () => {
  it("is a live queue policy the engine and the configuration can name", () => {
    expect(policyByName("fair")?.name).toBe("fair");
  });

  it("with equal waits and lengths, puts the better band first", () => {
    const p = fairPolicy(estimates(H));
    expect(p.compare(item("a", 1, 0, H), item("b", 3, 0, H), 5 * H)).toBeLessThan(0);
  });

  it("starves nobody: whatever its band and length, a waiting item outranks any newcomer once it has waited long enough", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 60_000, max: 100 * H }),
        fc.integer({ min: 60_000, max: 100 * H }),
        fc.integer({ min: 60_000, max: 10 * H }),
        (oldBand, newBand, oldLength, newLength, mean) => {
          const e = estimates(mean);
          // The newcomer's score at arrival is its head start ÷ its length; the old item's grows by
          // 1 ÷ its length per ms waited. The bound below is where the two meet, plus a minute.
          const bound = (FAIR_HEAD_START * 4 * mean * oldLength) / newLength + 60_000;
          const now = bound;
          const old = item("old", oldBand as Band, 0, oldLength);
          const fresh = item("new", newBand as Band, now, newLength);
          expect(fairScore(old, now, e)).toBeGreaterThan(fairScore(fresh, now, e));
          expect(fairPolicy(e).compare(old, fresh, now)).toBeLessThan(0);
        },
      ),
    );
  });

  it("keeps two items' order whatever 'now' a heap compares them at (the score is linear in time)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * H }), fc.integer({ min: 0, max: 10 * H }), fc.integer({ min: -20 * H, max: 20 * H }), (ta, tb, now) => {
        const p = fairPolicy();
        const a = item("a", 1, ta);
        const b = item("b", 3, tb);
        expect(Math.sign(p.compare(a, b, now))).toBe(Math.sign(p.compare(a, b, 30 * H)));
      }),
    );
  });
});

describe("fair on a held-out generated contended trace (seed 4: not used to choose its coefficient)", () => {
  it("cuts weighted flow time at least 10% below oldest with no band's p95 more than 10% worse", () => {
    const trace = buildTrace([importBeadsCsv(generateTraceCsv({ items: 3000, seed: 4, workers: 8, load: 0.95 }), "gen")]);
    const { metrics } = runReplay(trace, { policies: ["oldest", "fair"], workers: 8 });
    const [oldest, fair] = metrics;
    expect(fair?.weighted_flow_time_h).toBeLessThanOrEqual(0.9 * (oldest?.weighted_flow_time_h ?? 0));
    for (const b of ["0", "1", "2", "3", "4"] as const) {
      const base = oldest?.p95_flow_time_h_by_band[b] ?? null;
      const mine = fair?.p95_flow_time_h_by_band[b] ?? null;
      if (base !== null && mine !== null) expect(mine, `P${b}`).toBeLessThanOrEqual(1.1 * base);
    }
  });
});
