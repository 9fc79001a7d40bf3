/**
 * One check for every cost before it is journalled, and a reader that never drops a run for its
 * cost: a non-finite or overflowing number is left out with a reason, never written as null.
 */
import { describe, expect, it } from "vitest";
import { claudeCodePreset } from "../../../src/core/agents/claude-code-preset.js";
import { landEvent } from "../../../src/core/journal/land-event.js";
import { checkRunCost } from "../../../src/core/journal/run-cost.js";
import { parseJournalLine } from "../../../src/core/metrics/journal-record.js";
import { done } from "../../../src/core/stop/stop.js";

describe("costs that no one could have measured", () => {
  const CASES: Array<[string, Parameters<typeof checkRunCost>[0], RegExp]> = [
    ["usd parsed from 1e999 (Infinity)", { wall_clock_s: 2, usd: Number("1e999") }, /cost\.usd: /],
    ["tokens summed past Number.MAX_VALUE", { wall_clock_s: 2, tokens: Number.MAX_VALUE * 2 }, /cost\.tokens: /],
    ["NaN tokens (a malformed count)", { wall_clock_s: 2, tokens: Number.NaN }, /cost\.tokens: /],
    ["a negative amount", { wall_clock_s: 2, usd: -1 }, /cost\.usd: must not be negative/],
    ["a wall clock that is not finite", { wall_clock_s: Number.POSITIVE_INFINITY, tokens: 5 }, /cost\.wall_clock_s: /],
  ];
  for (const [name, cost, problem] of CASES) {
    // Seen failing before the fix: the LAND line held `null`, which JSON.stringify makes of Infinity and NaN.
    it(`${name}: left out of LAND with a reason in the evidence, never null`, () => {
      const land = landEvent("x", 1, { stop: done(), evidence: { command: "w", exit: 0, lines: ["last"] }, cost }, "ok");
      const line = JSON.stringify(land);
      expect(line).not.toContain("null");
      expect(land.evidence?.lines.at(-1)).toMatch(problem);
      expect(land.evidence?.lines.at(-1)).toMatch(/not recorded$/);
      expect(Object.values(land.cost ?? {}).every((v) => Number.isFinite(v))).toBe(true);
    });
  }

  it("a valid cost passes unchanged", () => {
    expect(checkRunCost({ wall_clock_s: 1.5, tokens: 1200, usd: 0.04 })).toEqual({ cost: { wall_clock_s: 1.5, tokens: 1200, usd: 0.04 } });
  });

  it("claude's total_cost_usd of 1e999 is read as a number the check then refuses", () => {
    const report = claudeCodePreset.readOutput({ stdout: '{"type":"result","subtype":"success","is_error":false,"total_cost_usd":1e999,"usage":{"input_tokens":1e308,"output_tokens":1e308}}', stderr: "", exit: 0 });
    const checked = checkRunCost({ wall_clock_s: 1, ...(report.tokens === undefined ? {} : { tokens: report.tokens }), ...(report.usd === undefined ? {} : { usd: report.usd }) });
    expect(checked.cost).toEqual({ wall_clock_s: 1 });
    expect(checked.problem).toMatch(/cost\.tokens: .*cost\.usd: /);
  });

  // Seen failing before the fix: a LAND whose cost held a null was a problem line, and stats dropped the run.
  it("a journal LAND whose cost an older Bosun wrote as null still counts as a run", () => {
    const read = parseJournalLine('{"v":1,"t":"2026-11-30T15:00:00.000Z","event":"LAND","item":"a","ok":true,"stop":{"kind":"done"},"cost":{"wall_clock_s":3,"usd":null,"tokens":12}}', 1);
    expect(read).toEqual({ record: expect.objectContaining({ event: "LAND", ok: true, cost: { wall_clock_s: 3, tokens: 12 } }) });
  });
});
