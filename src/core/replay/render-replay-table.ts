import type { ReplayReport } from "./build-replay-report.js";
import { formatHours } from "./build-replay-report.js";

/** Problems shown on the terminal; the JSON report lists more. */
const SHOWN_PROBLEMS = 10;
const BANDS = ["0", "1", "2", "3", "4"] as const;

function table(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join("  ").trimEnd());
}

/** The report as a terminal table: the trace, how durations were settled, problems, then one row per policy. */
export function renderReplayTable(report: ReplayReport): string {
  const t = report.trace;
  const d = t.durations;
  const lines = [
    `trace: ${t.items} items from ${t.sources.map((s) => `${s.file} (${s.format}, ${s.items})`).join(", ")}; pools ${t.pools.join(", ") || "—"}; ${report.workers} workers per pool`,
    `durations: ${d.observed} observed, ${d["class-median"]} class median, ${d["lead-time"]} lead time, ${d.default} default — ${t.duration_rule}`,
  ];
  const pr = t.problems_by_rule;
  if (t.problems_total > 0) {
    lines.push(`problems: ${t.problems_total} (${pr.skipped} skipped, ${pr.clamped} clamped, ${pr.defaulted} defaulted, ${pr.ignored} ignored)`);
    for (const p of t.problems.slice(0, SHOWN_PROBLEMS)) lines.push(`  ${p.source}:${p.line}: ${p.message} [${p.rule}]`);
    if (t.problems_total > SHOWN_PROBLEMS) lines.push(`  … ${t.problems_total - SHOWN_PROBLEMS} more (--format json lists them)`);
  }
  if (t.cycles.length > 0) lines.push(`dependency cycles: ${t.cycles.length} (edges inside them ignored)`);
  const bound = report.policies[0]?.lower_bound_weighted_flow_time_h ?? null;
  lines.push(`lower bound on weighted flow time: ${formatHours(bound)} h`, "");
  const head = ["policy", "wflow h", "mean h", ...BANDS.map((b) => `p95 P${b}`), ...BANDS.map((b) => `wait P${b}`), "unblock/h", "gap", "idle"];
  const rows = report.policies.map((p) => [
    p.policy,
    formatHours(p.weighted_flow_time_h),
    formatHours(p.mean_flow_time_h),
    ...BANDS.map((b) => formatHours(p.p95_flow_time_h_by_band[b])),
    ...BANDS.map((b) => formatHours(p.max_wait_h_by_band[b])),
    p.unblocking_throughput === null ? "—" : p.unblocking_throughput.toFixed(3),
    p.gap_to_bound === null ? "—" : p.gap_to_bound.toFixed(2),
    String(p.idle_with_work),
  ]);
  const first = report.policies[0];
  const counts = first === undefined ? "" : `items per band (completed): ${BANDS.map((b) => `P${b} ${first.n_by_band[b]}`).join(", ")}`;
  lines.push(...table([head, ...rows]), "", counts, "wflow: band-weighted mean flow time (P0 = 5 … P4 = 1); wait: worst ready→start wait; gap: wflow ÷ lower bound; idle: moments a worker idled beside waiting work");
  const base = report.policies.find((p) => p.policy === "oldest");
  if (base !== undefined) {
    // Principle 8: every policy's headline and each band's p95 against the baseline, side by side.
    const vs = (v: number | null, ref: number | null): string => (v === null || ref === null || ref === 0 ? "—" : signedPercent(Math.round(100 * (v / ref - 1))));
    const against = report.policies.map((p) => [p.policy, vs(p.weighted_flow_time_h, base.weighted_flow_time_h), ...BANDS.map((b) => vs(p.p95_flow_time_h_by_band[b], base.p95_flow_time_h_by_band[b]))]);
    lines.push("", "against oldest:", ...table([["policy", "wflow", ...BANDS.map((b) => `p95 P${b}`)], ...against]));
  }
  const budget = report.budget;
  if (budget !== undefined) {
    lines.push(
      "",
      `under a daily budget of $${budget.daily_usd.toFixed(2)} (UTC days), up to ${budget.horizon ?? "—"} (the end of the day the last item completed without one):`,
      `costs: ${budget.costs_known} recorded, ${budget.costs_estimated} estimated — ${budget.cost_rule}`,
      ...table([
        ["policy", "completed", "wflow h", "spent $", "held days", "never fits"],
        ...budget.policies.map((p) => [p.policy, `${p.completed}/${p.items}`, formatHours(p.weighted_flow_time_h), p.spent_usd.toFixed(2), String(p.held_days), String(p.never_fits)]),
      ]),
      "completed: items done by then; wflow: their band-weighted mean flow time; held days: days the budget held the best item back; never fits: items costing more than a day's budget",
    );
  }
  return `${lines.join("\n")}\n`;
}

const signedPercent = (pct: number): string => (pct === 0 ? "=" : `${pct > 0 ? "+" : "−"}${Math.abs(pct)}%`);
