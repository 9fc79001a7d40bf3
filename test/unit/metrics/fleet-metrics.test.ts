import { describe, expect, it } from "vitest";
import { fleetMetrics } from "../../../src/core/metrics/fleet-metrics.js";
import type { JournalProblem, JournalRecord } from "../../../src/core/metrics/journal-record.js";
import { parseJournalLine } from "../../../src/core/metrics/journal-record.js";
import { parseWindowBound } from "../../../src/core/metrics/parse-window-bound.js";
import { HAND_MADE_JOURNAL } from "./hand-made-journal.js";

function parseAll(lines: readonly string[]) {
  const records: JournalRecord[] = [];
  const problems: JournalProblem[] = [];
  lines.forEach((text, i) => {
    const parsed = parseJournalLine(text, i + 1);
    if (parsed === undefined) return;
    if ("record" in parsed) records.push(parsed.record);
    else problems.push(parsed.problem);
  });
  return { records, problems };
}

const { records, problems } = parseAll(HAND_MADE_JOURNAL);
const NOVEMBER = { since: Date.UTC(2026, 10, 1), until: Date.UTC(2026, 11, 1) };
const metrics = fleetMetrics(records, NOVEMBER);

describe("fleet metrics on the hand-made journal, November", () => {
  it("skips the malformed lines and names them by number", () => {
    expect(problems.map((p) => p.line)).toEqual([21, 22, 23]);
    expect(problems[0]?.reason).toBe("not JSON");
    expect(problems[1]?.reason).toBe("event: must be one of CLAIM, DENY, DISPATCH, HOLD, LAND, RELEASE, RECLAIM, IDLE, GATE");
    expect(problems[2]?.reason).toBe("v: must be 1 (the only journal version this reads)");
  });

  it("counts only the events in [since, until)", () => {
    // 27 lines − 1 blank − 3 malformed = 23 records; − line 1 (Oct 31) − line 26 (Dec 1 00:00) = 21
    expect(metrics.events).toBe(21);
    expect(metrics.window).toEqual({ since: "2026-11-01T00:00:00.000Z", until: "2026-12-01T00:00:00.000Z" });
  });

  it("gives the stop-reason mix by kind and by limit", () => {
    // LANDs in window: lines 4 6 7 10 12 13 14 15 17 18 19 20 = 12; line 19 has no stop → 11 runs
    // done: 4 7 10 14 15 20 = 6 · out_of_budget: 6 (steps) 12 (tokens) 18 (no limit) = 3 · blocked: 13 · failed: 17
    expect(metrics.stop_mix).toEqual({
      runs: 11,
      without_stop: 1,
      kinds: {
        done: { count: 6, share: 6 / 11 },
        out_of_budget: { count: 3, share: 3 / 11 },
        blocked: { count: 1, share: 1 / 11 },
        failed: { count: 1, share: 1 / 11 },
      },
      limits: {
        steps: { count: 1, share: 1 / 11 },
        tokens: { count: 1, share: 1 / 11 },
        wall_clock: { count: 0, share: 0 },
        tool_errors: { count: 0, share: 0 },
        usd: { count: 0, share: 0 },
        unspecified: { count: 1, share: 1 / 11 },
      },
    });
  });

  it("gives the gate rejection rate by task class", () => {
    // bugfix: line 5 pass → 0 ÷ (1 + 0) = 0
    // docs: line 16 could-not-check, line 25 fail → 1 ÷ (0 + 1) = 1 (could-not-check left out)
    // feature: lines 8 fail, 9 pass, 11 fail → 2 ÷ (1 + 2) = 2/3
    // all: 2 pass, 3 fail, 1 could-not-check → 3 ÷ (2 + 3) = 0.6
    expect(metrics.gate_rejection_by_class).toEqual([
      { class: "bugfix", gates: 1, pass: 1, fail: 0, could_not_check: 0, rejection_rate: 0 },
      { class: "docs", gates: 2, pass: 0, fail: 1, could_not_check: 1, rejection_rate: 1 },
      { class: "feature", gates: 3, pass: 1, fail: 2, could_not_check: 0, rejection_rate: 2 / 3 },
      { class: "all", gates: 6, pass: 2, fail: 3, could_not_check: 1, rejection_rate: 0.6 },
    ]);
  });

  it("gives the cost per accepted task, not per run", () => {
    // runs: the 12 LANDs above
    // tokens: 1000 + 3000 + 2000 + 500 + 4000 + 1500 + 100 + 900 + 200 = 13,200 (missing: lines 13 18 19 = 3)
    // usd:    0.5 + 1.5 + 1 + 0.25 + 2 + 0.75 + 0.05 + 0.45 + 0.1 = 6.60 (missing: 3)
    // wall:   60 + 600 + 300 + 900 + 120 + 10 + 30 + 20 = 2,040 (missing: lines 10 13 18 19 = 4)
    // landed ok: a b c e f i j; j is fenced; c's latest gate fails, f's could not check; e and i
    // were never gated, so nobody has accepted them yet → a b = 2 (accepted means the gate passed)
    // per accepted: 13,200 ÷ 2 = 6,600 tokens · 6.60 ÷ 2 = 3.30 usd · 2,040 ÷ 2 = 1,020 s
    const { cost } = metrics;
    expect(cost.runs).toBe(12);
    expect(cost.accepted_tasks).toBe(2);
    expect(cost.landed_ok_not_gated).toBe(2);
    expect(cost.landed_ok_gate_not_passed).toBe(2);
    expect(cost.total.tokens).toBe(13_200);
    expect(cost.total.usd).toBeCloseTo(6.6, 10);
    expect(cost.total.wall_clock_s).toBe(2_040);
    expect(cost.runs_missing).toEqual({ tokens: 3, usd: 3, wall_clock_s: 4 });
    expect(cost.per_accepted_task.tokens).toBe(6_600);
    expect(cost.per_accepted_task.usd).toBeCloseTo(3.3, 10);
    expect(cost.per_accepted_task.wall_clock_s).toBe(1_020);
  });
});

describe("fleet metrics, edges", () => {
  it("gives null rates and costs, not NaN, for an empty window", () => {
    const empty = fleetMetrics(records, { since: Date.UTC(2030, 0, 1) });
    expect(empty.events).toBe(0);
    expect(empty.stop_mix.kinds.done).toEqual({ count: 0, share: null });
    expect(empty.gate_rejection_by_class).toEqual([{ class: "all", gates: 0, pass: 0, fail: 0, could_not_check: 0, rejection_rate: null }]);
    expect(empty.cost.per_accepted_task).toEqual({ tokens: null, usd: null, wall_clock_s: null });
  });

  it("counts everything with an open window, the lines on both edges included", () => {
    // + line 1 (1 run, tokens 999,999, accepted "old") + line 26 (1 run, tokens 777, accepted "late")
    const all = fleetMetrics(records);
    expect(all.events).toBe(23);
    expect(all.cost.runs).toBe(14);
    // "old" and "late" landed ok but were never gated: not accepted, counted as lacking a verdict
    expect(all.cost.accepted_tasks).toBe(2);
    expect(all.cost.landed_ok_not_gated).toBe(4);
    expect(all.cost.total.tokens).toBe(13_200 + 999_999 + 777);
  });

  it("does not accept a task that landed ok but was never gated: landing is not acceptance", () => {
    const lines = ['{"v":1,"t":"2026-11-02T00:00:00Z","event":"LAND","item":"k","ok":true,"stop":{"kind":"done"},"cost":{"tokens":10,"usd":1,"wall_clock_s":5}}'];
    const m = fleetMetrics(parseAll(lines).records);
    expect(m.cost.accepted_tasks).toBe(0);
    expect(m.cost.landed_ok_not_gated).toBe(1);
    expect(m.cost.per_accepted_task).toEqual({ tokens: null, usd: null, wall_clock_s: null });
  });

  it("does not accept a task whose latest gate failed, even after an earlier pass", () => {
    const lines = [
      '{"v":1,"t":"2026-11-02T00:00:00Z","event":"LAND","item":"k","ok":true,"stop":{"kind":"done"},"cost":{"tokens":10}}',
      '{"v":1,"t":"2026-11-03T00:00:00Z","event":"GATE","item":"k","verdict":"pass"}',
      '{"v":1,"t":"2026-11-04T00:00:00Z","event":"GATE","item":"k","verdict":"fail"}',
    ];
    const m = fleetMetrics(parseAll(lines).records);
    expect(m.cost.accepted_tasks).toBe(0);
    expect(m.cost.per_accepted_task.tokens).toBeNull();
  });
});

describe("costs the writer would have refused", () => {
  // Seen failing before the fix: the reader took any finite number, so two LAND lines of usd 1e308
  // summed to Infinity (printed "$Infinity", "NaN%"; written as null in --json).
  it("leaves out a cost field past the plausible bounds, so no total becomes Infinity", () => {
    const land = (item: string, cost: string) => `{"v":1,"t":"2026-11-02T00:00:00Z","event":"LAND","item":"${item}","ok":true,"stop":{"kind":"done"},"cost":${cost}}`;
    const lines = [
      land("a", '{"usd":1e308,"tokens":1e308,"wall_clock_s":1e308}'),
      land("b", '{"usd":1e308,"tokens":1.5,"wall_clock_s":1e8}'),
      land("c", '{"usd":0.5,"tokens":100,"wall_clock_s":2}'),
      '{"v":1,"t":"2026-11-02T00:00:00Z","event":"DISPATCH","item":"a","reserve_usd":1e308}',
    ];
    const { records } = parseAll(lines);
    const m = fleetMetrics(records);
    expect(m.cost.total).toEqual({ tokens: 100, usd: 0.5, wall_clock_s: 2 });
    expect(m.cost.runs_missing).toEqual({ tokens: 2, usd: 2, wall_clock_s: 2 });
    expect(records.find((r) => r.event === "DISPATCH")).not.toHaveProperty("reserve_usd");
  });
});

describe("parseWindowBound", () => {
  it.each([
    ["2026-11-01", "since", Date.UTC(2026, 10, 1)],
    ["2026-11-30", "until", Date.UTC(2026, 11, 1)],
    ["2026-11-01T09:30Z", "since", Date.UTC(2026, 10, 1, 9, 30)],
    ["2026-11-01T09:30:00+02:00", "until", Date.UTC(2026, 10, 1, 7, 30)],
    ["2026-11-01T09:30", "since", undefined],
    ["2026-02-30", "since", undefined],
    ["yesterday", "since", undefined],
  ] as const)("reads %s as a %s bound", (text, bound, expected) => {
    expect(parseWindowBound(text, bound)).toBe(expected);
  });
});
