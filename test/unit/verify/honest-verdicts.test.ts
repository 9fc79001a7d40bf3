/**
 * verify never invents: a version it names is one the target reported; K−1 matches followed by
 * silence is unreachable; build numbers match exactly.
 */
import { describe, expect, it } from "vitest";
import { matchesVersion } from "../../../src/core/verify/match-version.js";
import type { ProbeOutcome } from "../../../src/core/verify/probe-outcome.js";
import { runVerification } from "../../../src/core/verify/run-verification.js";

const FULL = "0123456789abcdef0123456789abcdef01234567";
const config = {
  expected: "v2",
  consecutive: 3,
  timeoutMs: 10_000,
  intervalMs: 1000,
  attemptTimeoutMs: 2000,
  backoff: { baseMs: 1000, factor: 2, maxMs: 8000, jitter: 0 },
  seed: 1,
};

async function simulate(script: readonly ProbeOutcome[], expected = "v2") {
  let now = 1_000_000;
  let n = 0;
  return runVerification({
    clock: { now: () => now, sleep: async (ms) => void (now += ms) },
    probe: async () => {
      const outcome = script[Math.min(n++, script.length - 1)];
      now += 10;
      if (outcome === undefined) throw new Error("empty script");
      return outcome;
    },
    config: { ...config, expected },
  });
}

const value = (v: string): ProbeOutcome => ({ kind: "value", value: v, detail: "HTTP 200" });
const REFUSED: ProbeOutcome = { kind: "unreachable", code: "refused", reason: "connection refused" };

describe("all-digit versions match exactly", () => {
  it.each([
    ["10000001", "1000000"],
    ["1000000", "10000001"],
    ["20261201", "2026120"],
  ])("%s is not %s", (reported, expected) => expect(matchesVersion(reported, expected)).toBe(false));
  it("a short hex SHA still matches its full SHA", () => expect(matchesVersion("0123456", FULL)).toBe(true));
});

describe("K−1 matches then refused connections", () => {
  it("is unreachable, and never names the expected version as the one seen instead", async () => {
    const verdict = await simulate([value("v2"), value("v2"), REFUSED]);
    expect(verdict.kind).toBe("unreachable");
    expect(verdict).toMatchObject({ code: "refused" });
    expect(verdict.reason).toMatch(/reported v2 2 time\(s\) but at most 2 in a row \(needs 3\), then no version in \d+ probe\(s\): connection refused/);
  });

  it("a build number seen K−1 times then silence is not a mismatch against its own prefix", async () => {
    const verdict = await simulate([value("10000001"), value("10000001"), REFUSED], "1000000");
    expect(verdict).toMatchObject({ kind: "mismatch", reported: "10000001", flapping: false });
  });
});

describe("flapping names what the target reported", () => {
  it("a short SHA is named as the target gave it, the full one only as what it matches", async () => {
    const verdict = await simulate([value("0123456"), value("0123456"), value("fedcba9")], FULL);
    expect(verdict).toMatchObject({ kind: "mismatch", flapping: true, reported: "fedcba9" });
    expect(verdict.reason).toMatch(new RegExp(`^flapping: reported 0123456 \\(matching ${FULL}\\) 2 time\\(s\\)`));
  });
});
