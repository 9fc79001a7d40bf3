import { compileTrace } from "./compile-trace.js";
import type { PolicyMetrics } from "./policy-metrics.js";
import { policyMetrics, totalWeight } from "./policy-metrics.js";
import { createReplayPolicy, REPLAY_POLICY_NAMES } from "./replay-policies.js";
import type { QueueSeries } from "./queue-length-series.js";
import type { ReplayBudgetReport } from "./replay-budget.js";
import { endOfDay, policyBudgetMetrics, settleCosts } from "./replay-budget.js";
import { simulateReplay } from "./simulate-replay.js";
import type { Trace } from "./trace.js";
import { HOUR_MS } from "./trace.js";
import { weightedFlowLowerBound } from "./weighted-flow-lower-bound.js";

export interface ReplayRun {
  readonly metrics: readonly PolicyMetrics[];
  /** Queue length over time per policy; the per-item times are dropped once measured (a million items × 3 arrays × policies). */
  readonly queues: readonly QueueSeries[];
  /** The two lower bounds as weighted means in hours (null for an empty trace); the report uses the larger. */
  readonly bound: BoundSummary;
  /** Under `budgetUsd`: each policy again with that daily budget (replay-budget.ts). */
  readonly budget?: ReplayBudgetReport;
}

export interface BoundSummary {
  readonly wspt_h: number | null;
  readonly own_length_h: number | null;
}

export interface RunReplayOptions {
  readonly policies: readonly string[];
  readonly workers: number;
  /** Progress over all policies: (items completed so far, items × policies). */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * A daily money budget (US dollars): each policy is replayed again under it, up to the end of
   * the UTC day on which the last item completed without one. The trace must record costs
   * (traceCostProblem says when it does not).
   */
  readonly budgetUsd?: number;
}

/** Replays a trace under each named policy (names must be valid: see REPLAY_POLICY_NAMES) and measures each. */
export function runReplay(trace: Trace, options: RunReplayOptions): ReplayRun {
  const compiled = compileTrace(trace);
  const bound = weightedFlowLowerBound(compiled, options.workers);
  const metrics: PolicyMetrics[] = [];
  const queues: QueueSeries[] = [];
  const budgeted = options.budgetUsd !== undefined;
  const total = compiled.n * options.policies.length * (budgeted ? 2 : 1);
  let lastFinish = -Infinity;
  options.policies.forEach((name, k) => {
    const policy = createReplayPolicy(name, compiled.kindNames.length);
    if (policy === undefined) throw new Error(`unknown policy '${name}' (known: ${REPLAY_POLICY_NAMES.join(", ")})`);
    const progress = options.onProgress;
    const sim = simulateReplay(compiled, policy, {
      workers: options.workers,
      ...(progress === undefined ? {} : { onProgress: (done: number) => progress(k * compiled.n + done, total) }),
    });
    queues.push({ policy: sim.policy, t0: sim.queueLength.t0, bucketMs: sim.queueLength.bucketMs, means: sim.queueLength.means() });
    metrics.push(policyMetrics(compiled, sim, bound.bound));
    for (const f of sim.finish) if (f > lastFinish) lastFinish = f;
  });
  let budget: ReplayBudgetReport | undefined;
  if (options.budgetUsd !== undefined) {
    const costs = settleCosts(compiled);
    const horizon = Number.isFinite(lastFinish) ? endOfDay(lastFinish) : Number.NaN;
    const dailyMicros = Math.round(options.budgetUsd * 1e6);
    const progress = options.onProgress;
    const policies = options.policies.map((name, k) => {
      const policy = createReplayPolicy(name, compiled.kindNames.length) as NonNullable<ReturnType<typeof createReplayPolicy>>;
      const sim = simulateReplay(compiled, policy, {
        workers: options.workers,
        budget: { dailyMicros, cost: costs.micros, until: Number.isNaN(horizon) ? -Infinity : horizon },
        ...(progress === undefined ? {} : { onProgress: (done: number) => progress((options.policies.length + k) * compiled.n + done, total) }),
      });
      return policyBudgetMetrics(compiled, sim, costs, horizon);
    });
    budget = { daily_usd: options.budgetUsd, horizon: Number.isNaN(horizon) ? null : new Date(horizon).toISOString(), costs_known: costs.known, costs_estimated: costs.estimated, cost_rule: costs.rule, policies };
  }
  const w = totalWeight(compiled);
  const hours = (x: number): number | null => (w > 0 ? Number((x / w / HOUR_MS).toFixed(4)) : null);
  return { metrics, queues, bound: { wspt_h: hours(bound.wspt), own_length_h: hours(bound.ownLength) }, ...(budget === undefined ? {} : { budget }) };
}
