import type { CompiledTrace } from "./compile-trace.js";
import type { SimulationResult } from "./simulate-replay.js";
import type { Trace } from "./trace.js";
import { HOUR_MS } from "./trace.js";
import { bandWeight } from "./weighted-flow-lower-bound.js";

const DAY_MS = 86_400_000;

/** What each item of a trace costs for a budget's replay (micro-dollars), and how that was settled. */
export interface TraceCosts {
  readonly micros: Float64Array;
  /** Items whose cost the trace records, and items given the median of those. */
  readonly known: number;
  readonly estimated: number;
  readonly rule: string;
}

/** One policy under the daily budget, up to the horizon. */
export interface PolicyBudgetMetrics {
  readonly policy: string;
  /** Items completed by the horizon, of the trace's items. */
  readonly completed: number;
  readonly items: number;
  /** Σ weight × flow time ÷ Σ weight over the items completed by the horizon (P0 = 5 … P4 = 1), hours. */
  readonly weighted_flow_time_h: number | null;
  /** What the items started by the horizon cost (US dollars). */
  readonly spent_usd: number;
  /** UTC days on which the budget held a dispatch back. */
  readonly held_days: number;
  /** Items costing more than a whole day's budget: never started (nor anything waiting on them). */
  readonly never_fits: number;
}

/** The report's `budget`: the daily budget, the horizon it is judged at, the costs, and each policy's figures. */
export interface ReplayBudgetReport {
  readonly daily_usd: number;
  /** The end of the UTC day on which the last item completed with no budget, under any policy replayed. */
  readonly horizon: string | null;
  readonly costs_known: number;
  readonly costs_estimated: number;
  readonly cost_rule: string;
  readonly policies: readonly PolicyBudgetMetrics[];
}

/**
 * Why a trace cannot be replayed under a money budget, or undefined when it can: it needs a cost
 * for at least one item. Only Bosun's journal records costs (each run's `cost.usd` on LAND, else
 * what its DISPATCH reserved); beads traces record none.
 */
export function traceCostProblem(trace: Pick<Trace, "items">): string | undefined {
  if (trace.items.some((i) => i.cost !== undefined)) return undefined;
  return `none of the trace's ${trace.items.length} items records a cost: a Bosun journal records what each run cost (cost.usd on LAND, else the reserve_usd of its DISPATCH), beads traces record none; there is nothing to count against a daily budget`;
}

/** Each item's cost: recorded where the trace has it, else the median of the recorded ones. */
export function settleCosts(trace: CompiledTrace): TraceCosts {
  const known: number[] = [];
  for (let i = 0; i < trace.n; i++) if (!Number.isNaN(trace.cost[i] as number)) known.push(trace.cost[i] as number);
  known.sort((a, b) => a - b);
  const median = known.length === 0 ? 0 : ((known[(known.length - 1) >> 1] as number) + (known[known.length >> 1] as number)) / 2;
  const micros = new Float64Array(trace.n);
  for (let i = 0; i < trace.n; i++) {
    const usd = trace.cost[i] as number;
    micros[i] = Math.round((Number.isNaN(usd) ? median : usd) * 1e6);
  }
  const estimated = trace.n - known.length;
  return {
    micros,
    known: known.length,
    estimated,
    rule: `an item costs what its runs reported (cost.usd on LAND, else the reserve_usd of their DISPATCH), charged when it starts; ${estimated === 0 ? "every item records one" : `items with a run of unknown cost: the median of the recorded costs, $${median.toFixed(2)}`}`,
  };
}

/** The end of the UTC day holding `t`: a replay under a budget is judged there. */
export const endOfDay = (t: number): number => t - (((t % DAY_MS) + DAY_MS) % DAY_MS) + DAY_MS;

/** A policy's figures under the budget: what it completed by `horizon`, at what flow time and spend. */
export function policyBudgetMetrics(trace: CompiledTrace, sim: SimulationResult, costs: TraceCosts, horizon: number): PolicyBudgetMetrics {
  let completed = 0;
  let w = 0;
  let wFlow = 0;
  let spent = 0;
  for (let i = 0; i < trace.n; i++) {
    const start = sim.start[i] as number;
    if (!Number.isNaN(start) && start < horizon) spent += costs.micros[i] as number;
    const finish = sim.finish[i] as number;
    if (Number.isNaN(finish) || finish > horizon) continue;
    completed++;
    const weight = bandWeight(trace.band[i] as number);
    w += weight;
    wFlow += weight * (finish - (trace.arrival[i] as number));
  }
  return {
    policy: sim.policy,
    completed,
    items: trace.n,
    weighted_flow_time_h: w > 0 ? wFlow / w / HOUR_MS : null,
    spent_usd: spent / 1e6,
    held_days: sim.budget?.heldDays ?? 0,
    never_fits: sim.budget?.neverFits ?? 0,
  };
}
