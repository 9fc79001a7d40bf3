import type { ByBand, PolicyMetrics } from "./policy-metrics.js";
import type { ReplayBudgetReport } from "./replay-budget.js";
import type { BoundSummary } from "./run-replay.js";
import type { DurationCounts, ProblemRule, Trace, TraceItem, TraceProblem } from "./trace.js";


/** Problems listed in full in a report; the rest are counted by rule. */
export const MAX_LISTED_PROBLEMS = 1000;

/** Where a trace came from: one entry per file (or generated trace) read. */
export interface TraceSource {
  readonly file: string;
  readonly format: string;
  readonly items: number;
}

/** The report's `trace` object: what was replayed and how its durations were settled. */
export interface TraceSummary {
  readonly sources: readonly TraceSource[];
  readonly items: number;
  readonly pools: readonly string[];
  readonly first_arrival: string | null;
  readonly last_arrival: string | null;
  readonly duration_rule: string;
  readonly durations: DurationCounts;
  readonly problems_by_rule: Record<ProblemRule, number>;
  readonly problems_total: number;
  readonly problems: readonly TraceProblem[];
  readonly cycles: readonly (readonly string[])[];
  /** Both lower bounds; `lower_bound_weighted_flow_time_h` of each policy is the larger. */
  readonly lower_bound?: BoundSummary;
}

/** The JSON report of DESIGN.md "Replay report". */
export interface ReplayReport {
  readonly trace: TraceSummary;
  readonly workers: number;
  readonly policies: readonly PolicyMetrics[];
  /** With `--budget-usd`: what that daily budget would have completed under each policy (docs/replay.md). */
  readonly budget?: ReplayBudgetReport;
}

const round = (x: number | null, digits = 4): number | null => (x === null ? null : Number(x.toFixed(digits)));
const roundBands = (b: ByBand): ByBand => ({ "0": round(b["0"]), "1": round(b["1"]), "2": round(b["2"]), "3": round(b["3"]), "4": round(b["4"]) });

/** Builds the report from a trace and its measured policies, rounding hours to 4 decimals. */
export function buildReplayReport(trace: Trace, sources: readonly TraceSource[], workers: number, metrics: readonly PolicyMetrics[], bound?: BoundSummary, budget?: ReplayBudgetReport): ReplayReport {
  const byRule: Record<ProblemRule, number> = { skipped: 0, clamped: 0, defaulted: 0, ignored: 0 };
  for (const p of trace.problems) byRule[p.rule]++;
  let first = Infinity;
  let last = -Infinity;
  const pools = new Set<string>();
  trace.items.forEach((i: TraceItem) => {
    if (i.arrival < first) first = i.arrival;
    if (i.arrival > last) last = i.arrival;
    pools.add(i.pool);
  });
  return {
    trace: {
      sources,
      items: trace.items.length,
      pools: [...pools].sort(),
      first_arrival: Number.isFinite(first) ? new Date(first).toISOString() : null,
      last_arrival: Number.isFinite(last) ? new Date(last).toISOString() : null,
      duration_rule: trace.durationRule,
      durations: trace.durations,
      problems_by_rule: byRule,
      problems_total: trace.problems.length,
      problems: trace.problems.slice(0, MAX_LISTED_PROBLEMS),
      cycles: trace.cycles,
      ...(bound === undefined ? {} : { lower_bound: bound }),
    },
    workers,
    policies: metrics.map((m) => ({
      policy: m.policy,
      weighted_flow_time_h: round(m.weighted_flow_time_h),
      mean_flow_time_h: round(m.mean_flow_time_h),
      p95_flow_time_h_by_band: roundBands(m.p95_flow_time_h_by_band),
      n_by_band: m.n_by_band,
      max_wait_h_by_band: roundBands(m.max_wait_h_by_band),
      unblocking_throughput: round(m.unblocking_throughput),
      lower_bound_weighted_flow_time_h: round(m.lower_bound_weighted_flow_time_h),
      gap_to_bound: round(m.gap_to_bound),
      idle_with_work: m.idle_with_work,
    })),
    ...(budget === undefined ? {} : { budget: { ...budget, policies: budget.policies.map((p) => ({ ...p, weighted_flow_time_h: round(p.weighted_flow_time_h), spent_usd: round(p.spent_usd, 6) as number })) } }),
  };
}

/** Hours with a sensible number of digits for a table cell. */
export function formatHours(h: number | null): string {
  if (h === null) return "—";
  return h >= 100 ? h.toFixed(0) : h >= 10 ? h.toFixed(1) : h.toFixed(2);
}

