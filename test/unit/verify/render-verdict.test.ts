import { describe, expect, it } from "vitest";
import type { VerifyVerdict } from "../../../src/core/verify/converge.js";
import { verdictDescription, verdictLine, verdictMarkdown } from "../../../src/core/verify/render-verdict.js";

const evidence = {
  expected: "v2",
  consecutive: 3,
  probes: 2,
  answered: 1,
  bestStreak: 0,
  seen: [{ value: "v|1", count: 1 }],
  elapsedMs: 1500,
  recent: [
    { kind: "value" as const, value: "v|1", detail: "HTTP 200, field version", at: Date.UTC(2026, 0, 1), durationMs: 4 },
    { kind: "unreachable" as const, code: "refused" as const, reason: "connection refused", at: Date.UTC(2026, 0, 1, 0, 0, 1), durationMs: 1 },
  ],
};

describe("render verdict", () => {
  const mismatch: VerifyVerdict = { kind: "mismatch", reported: "v|1", flapping: false, reason: "the target reports v|1, expected v2", evidence };

  it("one line naming the version seen, once", () => {
    expect(verdictLine(mismatch, { target: "https://app/version" })).toBe("mismatch: https://app/version reports v|1, expected v2 (2 probe(s) in 1.5s)");
  });

  it("a status description never longer than GitHub's 140 characters", () => {
    const long: VerifyVerdict = { kind: "unreachable", code: "network", reason: "x".repeat(500), evidence };
    expect(verdictDescription(long).length).toBeLessThanOrEqual(140);
    expect(verdictDescription(mismatch)).toBe("bosun: mismatch: reports v|1, expected v2");
  });

  it("markdown with every recent probe as a row, table cells escaped", () => {
    const md = verdictMarkdown(mismatch, { target: "https://app/version", environment: "production" });
    expect(md).toContain("### ❌ Deployment mismatch (production)");
    expect(md).toContain("| 1 | 2026-01-01T00:00:00.000Z | 4 ms | `v\\|1` (HTTP 200, field version) |");
    expect(md).toContain("| 2 | 2026-01-01T00:00:01.000Z | 1 ms | no version: connection refused |");
  });
});
