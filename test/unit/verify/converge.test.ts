import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { nextStep, observe, startConvergence } from "../../../src/core/verify/converge.js";
import type { VerifyVerdict } from "../../../src/core/verify/converge.js";
import type { ProbeOutcome } from "../../../src/core/verify/probe-outcome.js";
import { runVerification } from "../../../src/core/verify/run-verification.js";

const NEW: ProbeOutcome = { kind: "value", value: "v2", detail: "HTTP 200" };
const OLD: ProbeOutcome = { kind: "value", value: "v1", detail: "HTTP 200" };
const DOWN: ProbeOutcome = { kind: "unreachable", code: "refused", reason: "connection refused" };

const config = {
  expected: "v2",
  consecutive: 3,
  timeoutMs: 10_000,
  intervalMs: 1000,
  attemptTimeoutMs: 2000,
  backoff: { baseMs: 1000, factor: 2, maxMs: 8000, jitter: 0 },
  seed: 1,
};

/** Runs the real loop on fake time: each probe takes 10 ms; the script's last entry repeats. */
async function simulate(script: readonly ProbeOutcome[], overrides: Partial<typeof config> = {}) {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const probes: { at: number; timeoutMs: number }[] = [];
  const verdict = await runVerification({
    clock: {
      now: () => now,
      sleep: async (ms) => {
        sleeps.push(ms);
        now += ms;
      },
    },
    probe: async (timeoutMs) => {
      probes.push({ at: now - 1_000_000, timeoutMs });
      const outcome = script[Math.min(probes.length - 1, script.length - 1)];
      now += 10;
      if (outcome === undefined) throw new Error("empty script");
      return outcome;
    },
    config: { ...config, ...overrides },
  });
  return { verdict, sleeps, probes };
}

const flapping = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? OLD : NEW));

function kindOf(v: VerifyVerdict): string {
  return v.kind === "mismatch" ? `mismatch${v.flapping ? " (flapping)" : ""} reported ${v.reported}` : v.kind;
}

describe("convergence", () => {
  it.each<[string, ProbeOutcome[], string, number]>([
    ["the right version at once is verified after K probes", [NEW], "verified", 3],
    ["a rollout that shows the old version for a while is verified once the new one holds", [OLD, OLD, OLD, OLD, NEW], "verified", 7],
    ["an unreachable probe breaks the streak: K means K in a row", [NEW, NEW, DOWN, NEW, NEW, NEW], "verified", 6],
    ["a target that always reports the old version is a mismatch naming it", [OLD], "mismatch reported v1", 11],
    ["a target flapping between versions is a flapping mismatch naming the other version", flapping, "mismatch (flapping) reported v1", 11],
    ["a target that never answers is unreachable (after backing off)", [DOWN], "unreachable", 5],
    ["an old version then silence is still a mismatch: the target did answer, with the wrong version", [OLD, DOWN], "mismatch reported v1", 6],
  ])("%s", async (_name, script, verdict, probes) => {
    const run = await simulate(script);
    expect(kindOf(run.verdict)).toBe(verdict);
    expect(run.probes).toHaveLength(probes);
    expect(run.verdict.evidence.probes).toBe(probes);
  });

  it("names the reason and keeps the probes as evidence", async () => {
    const { verdict } = await simulate([DOWN]);
    expect(verdict).toMatchObject({ kind: "unreachable", code: "refused" });
    expect(verdict.reason).toContain("connection refused");
    expect(verdict.evidence.recent.every((o) => o.kind === "unreachable")).toBe(true);
  });

  it("flapping says how often the expected version was seen and the best streak", async () => {
    const { verdict } = await simulate([NEW, NEW, OLD]);
    expect(verdict.kind).toBe("mismatch");
    expect(verdict.reason).toMatch(/flapping: reported v2 2 time\(s\) but at most 2 in a row \(needs 3\); also reported v1 ×/);
  });

  it("backs off after probes that got no answer, and returns to the interval after an answer", async () => {
    const { sleeps, verdict } = await simulate([DOWN, DOWN, DOWN, DOWN, DOWN, OLD, NEW], { timeoutMs: 60_000 });
    expect(verdict.kind).toBe("verified");
    // 1 s doubling to the 8 s cap after each failure, then the 1 s interval once the target answers.
    expect(sleeps).toEqual([1000, 2000, 4000, 8000, 8000, 1000, 1000, 1000]);
  });

  it("never starts a probe after the deadline, bounds each probe by the time left, and probes once more at the deadline", async () => {
    const { probes } = await simulate([OLD], { timeoutMs: 3500, attemptTimeoutMs: 2000 });
    for (const p of probes) {
      expect(p.at).toBeLessThanOrEqual(3500);
      expect(p.timeoutMs).toBeLessThanOrEqual(Math.max(100, 3500 - p.at));
    }
    expect(probes.map((p) => p.at)).toEqual([0, 1010, 2020, 3030, 3500]);
    expect(probes.at(-1)?.timeoutMs).toBe(100);
  });

  it("stops at the verdict as soon as K in a row are seen, before the deadline", () => {
    let s = startConvergence({ ...config, startedAt: 0, deadline: 60_000 });
    for (const t of [0, 1000, 2000]) s = observe(s, { ...NEW, at: t, durationMs: 5 });
    expect(nextStep(s, 2005)).toMatchObject({ kind: "done", verdict: { kind: "verified", value: "v2" } });
  });

  it("verified iff the probes end in K expected in a row; never probes past the deadline (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(NEW, OLD, DOWN), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 4 }),
        async (script, k) => {
          const { verdict, probes } = await simulate(script, { consecutive: k, timeoutMs: 20_000 });
          const seen = probes.map((_, i) => script[Math.min(i, script.length - 1)]);
          const tail = seen.slice(-k);
          const endsInK = tail.length === k && tail.every((o) => o === NEW);
          const hadK = seen.some((_, i) => i + k <= seen.length && seen.slice(i, i + k).every((o) => o === NEW));
          expect(verdict.kind === "verified").toBe(endsInK);
          expect(hadK).toBe(endsInK);
          expect(probes.every((p) => p.at <= 20_000)).toBe(true);
          // Unreachable means no other version was ever reported (only silence, or K−1 matches then silence).
          if (verdict.kind === "unreachable") expect(seen.every((o) => o !== OLD)).toBe(true);
          if (verdict.kind === "mismatch") expect(seen.some((o) => o === OLD)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});
