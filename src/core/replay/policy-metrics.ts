import type { CompiledTrace } from "./compile-trace.js";
import type { SimulationResult } from "./simulate-replay.js";
import { bandWeight } from "./weighted-flow-lower-bound.js";
import { HOUR_MS } from "./trace.js";

/** A value per band "0".."4"; null where the band has no completed items. */
export type ByBand = Record<"0" | "1" | "2" | "3" | "4", number | null>;

/** One policy's figures, in hours, unrounded (the report rounds). DESIGN.md "Replay report". */
export interface PolicyMetrics {
  readonly policy: string;
  readonly weighted_flow_time_h: number | null;
  readonly mean_flow_time_h: number | null;
  readonly p95_flow_time_h_by_band: ByBand;
  readonly n_by_band: Record<keyof ByBand, number>;
  readonly max_wait_h_by_band: ByBand;
  readonly unblocking_throughput: number | null;
  readonly lower_bound_weighted_flow_time_h: number | null;
  readonly gap_to_bound: number | null;
  readonly idle_with_work: number;
}

const BANDS = ["0", "1", "2", "3", "4"] as const;

/** The p-th percentile by nearest rank of an ascending array (p in (0, 1]). */
export function percentile(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] as number;
}

/** Σ band weight over all items of the trace: the denominator of the bound's mean. */
export function totalWeight(trace: CompiledTrace): number {
  let w = 0;
  for (let i = 0; i < trace.n; i++) w += bandWeight(trace.band[i] as number);
  return w;
}

/**
 * The report's figures for one replay. Flow time is arrival to completion; wait is ready
 * (arrived and unblocked) to start, so time spent blocked is not blamed on the policy's order.
 * `boundSum` is weightedFlowLowerBound's Σ; items a policy never completed are left out of its
 * means (and `idle_with_work` will say why).
 */
export function policyMetrics(trace: CompiledTrace, sim: SimulationResult, boundSum: number): PolicyMetrics {
  const { n, arrival, band, blockerCount } = trace;
  const flows: number[][] = [[], [], [], [], []];
  const maxWait = [-1, -1, -1, -1, -1];
  let wSum = 0;
  let wFlow = 0;
  let flowSum = 0;
  let done = 0;
  let releasedWeight = 0;
  let blockedWeightedMs = 0;
  for (let i = 0; i < n; i++) {
    const finish = sim.finish[i] as number;
    if (Number.isNaN(finish)) continue;
    const b = band[i] as number;
    const w = bandWeight(b);
    const flow = finish - (arrival[i] as number);
    (flows[b] as number[]).push(flow);
    wSum += w;
    wFlow += w * flow;
    flowSum += flow;
    done++;
    const wait = (sim.start[i] as number) - (sim.ready[i] as number);
    if (wait > (maxWait[b] as number)) maxWait[b] = wait;
    if ((blockerCount[i] as number) > 0) {
      releasedWeight += w;
      blockedWeightedMs += w * ((sim.ready[i] as number) - (arrival[i] as number));
    }
  }
  const p95 = {} as ByBand;
  const count = {} as Record<keyof ByBand, number>;
  const worst = {} as ByBand;
  BANDS.forEach((key, b) => {
    const sorted = Float64Array.from(flows[b] as number[]).sort();
    const p = percentile(sorted, 0.95);
    p95[key] = p === null ? null : p / HOUR_MS;
    count[key] = sorted.length;
    worst[key] = sorted.length === 0 ? null : (maxWait[b] as number) / HOUR_MS;
  });
  const wft = wSum > 0 ? wFlow / wSum / HOUR_MS : null;
  const allWeight = totalWeight(trace);
  const bound = allWeight > 0 ? boundSum / allWeight / HOUR_MS : null;
  return {
    policy: sim.policy,
    weighted_flow_time_h: wft,
    mean_flow_time_h: done > 0 ? flowSum / done / HOUR_MS : null,
    p95_flow_time_h_by_band: p95,
    n_by_band: count,
    max_wait_h_by_band: worst,
    // Band-weighted blocked items released per weighted hour they spent blocked: 1 ÷ the
    // weighted mean time a blocked item waits for its blockers. Higher means blockers finish sooner.
    unblocking_throughput: blockedWeightedMs > 0 ? releasedWeight / (blockedWeightedMs / HOUR_MS) : null,
    lower_bound_weighted_flow_time_h: bound,
    gap_to_bound: wft !== null && bound !== null && bound > 0 ? wft / bound : null,
    idle_with_work: sim.idleWithWork,
  };
}
