/** Where the money went, as a table of runs: which DISPATCH a LAND belongs to, what it counts at, and its outcome. */
import { describe, expect, test } from "vitest";
import { parseJournalLine, type JournalRecord } from "../../../src/core/metrics/journal-record.js";
import { moneyMetrics, runSpends } from "../../../src/core/metrics/money-metrics.js";

const records = (lines: ReadonlyArray<Record<string, unknown>>): JournalRecord[] =>
  lines.map((fields, i) => {
    const r = parseJournalLine(JSON.stringify({ v: 1, t: `2026-12-03T10:${String(i).padStart(2, "0")}:00.000Z`, ...fields }), i + 1);
    if (r === undefined || !("record" in r)) throw new Error(`line ${i + 1} does not parse`);
    return r.record;
  });

describe("runs and their money", () => {
  const journal = records([
    { event: "DISPATCH", item: "a", epoch: 1, attempt: 1, tier: "cheap", class: "bugfix", agent: "codex", reserve_usd: 0.5 },
    { event: "LAND", item: "a", epoch: 1, ok: false, disposition: "retry", stop: { kind: "failed" } },
    { event: "DISPATCH", item: "a", epoch: 2, attempt: 2, tier: "strong", class: "bugfix", agent: "claude-code", reserve_usd: 0.5 },
    { event: "LAND", item: "a", epoch: 2, ok: true, disposition: "ok", stop: { kind: "done" }, cost: { usd: 0.25 } },
    { event: "GATE", item: "a", class: "bugfix", verdict: "pass", sha: "s", by: "cli" },
    // An old line: no agent, no class, no reservation, no cost.
    { event: "DISPATCH", item: "b", epoch: 1, attempt: 1, tier: "standard" },
    { event: "LAND", item: "b", epoch: 1, ok: false, disposition: "refuse", stop: { kind: "failed" } },
    { event: "DISPATCH", item: "c", epoch: 3, attempt: 3, tier: "standard", class: "docs", agent: "codex", reserve_usd: 1 },
    { event: "LAND", item: "c", epoch: 3, ok: true, disposition: "ok", stop: { kind: "done" }, fenced: "epoch 4 holds c", cost: { usd: 0.75 } },
    { event: "DISPATCH", item: "d", epoch: 1, attempt: 1, tier: "standard", class: "docs", agent: "codex", reserve_usd: 2 },
    { event: "LAND", item: "d", epoch: 1, ok: true, disposition: "ok", stop: { kind: "done" }, cost: { usd: 1.5 } },
  ]);

  test("each LAND is joined to the DISPATCH of its epoch, counts at its report, else its reservation, else not at all", () => {
    expect(runSpends(journal).map((r) => `${r.item} ${r.class} ${r.agent} ${r.tier} ${r.usd ?? "-"} ${r.from} ${r.outcome}`)).toEqual([
      "a bugfix codex cheap 0.5 reservation failed",
      "a bugfix claude-code strong 0.25 reported accepted",
      "b (none) (unknown) standard - none refused",
      "c docs codex standard 0.75 reported failed",
      "d docs codex standard 1.5 reported not_accepted",
    ]);
  });

  test("shares of the spend, and cost per accepted task per class, agent and tier (the accepted run's agent and tier)", () => {
    const m = moneyMetrics(journal);
    expect(m.spend).toMatchObject({ runs: 5, usd: 3, runs_at_reservation: 1, runs_without_cost: 1 });
    expect(m.spend.by_outcome).toEqual({ accepted: { runs: 1, usd: 0.25, share: 0.25 / 3 }, not_accepted: { runs: 1, usd: 1.5, share: 0.5 }, refused: { runs: 1, usd: 0, share: 0 }, failed: { runs: 2, usd: 1.25, share: 1.25 / 3 } });
    const line = (g: { key: string; runs: number; usd: number; accepted_tasks: number; per_accepted_task_usd: number | null }) => `${g.key} ${g.runs} ${g.usd} ${g.accepted_tasks} ${g.per_accepted_task_usd ?? "-"}`;
    expect(m.per_accepted_task.by_class.map(line)).toEqual(["(none) 1 0 0 -", "bugfix 2 0.75 1 0.75", "docs 2 2.25 0 -"]);
    expect(m.per_accepted_task.by_agent.map(line)).toEqual(["(unknown) 1 0 0 -", "claude-code 1 0.25 1 0.25", "codex 3 2.75 0 -"]);
    expect(m.per_accepted_task.by_tier.map(line)).toEqual(["cheap 1 0.5 0 -", "standard 3 2.25 0 -", "strong 1 0.25 1 0.25"]);
  });
});
