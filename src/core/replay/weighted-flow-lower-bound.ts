import type { CompiledTrace } from "./compile-trace.js";

/** Band weight of the report: P0 = 5 ... P4 = 1. */
export const bandWeight = (band: number): number => 5 - band;

/**
 * A lower bound on Σ w·(completion − arrival) for any non-preemptive schedule of the trace on N
 * workers per pool, whatever the policy, dependencies ignored (a relaxation only lowers it).
 *
 * Per pool, run preemptive WSPT (always the released item of highest w/p) on one machine N
 * times faster. Its mean busy times M_j minimise Σ w_j M_j over every schedule whose total rate
 * is at most N — N workers included — and on a worker a non-preemptive item completes at
 * M_j + p_j/2. So Σ w_j (M_j + p_j/2 − r_j) bounds every policy from below. The completion times
 * of the fast schedule itself are no bound: p_j/N would undercount each item's own length.
 *
 * That relaxation charges each item only about half its length when workers are plentiful, so
 * the bound also takes the plain fact that no item completes sooner than its own length after
 * arrival (Σ w·p), and reports the larger: both are valid, so the larger is too.
 */
export interface LowerBound {
  /** Σ w (M + p/2 − r) from preemptive WSPT on the fast machine, ms. */
  readonly wspt: number;
  /** Σ w p, ms. */
  readonly ownLength: number;
  /** The larger of the two: the bound the report uses. */
  readonly bound: number;
}

/** The lower bound on Σ w·flow for a trace on N workers per pool (weighted sums in ms; divide by Σ w). */
export function weightedFlowLowerBound(trace: CompiledTrace, workers: number): LowerBound {
  const { n, arrival, duration, band, pool, byArrival } = trace;
  let total = 0;
  for (let p = 0; p < trace.poolNames.length; p++) {
    const members: number[] = [];
    for (let k = 0; k < n; k++) {
      const i = byArrival[k] as number;
      if (pool[i] === p) members.push(i);
    }
    total += poolBound(members, arrival, duration, band, workers);
  }
  let ownLength = 0;
  for (let i = 0; i < n; i++) ownLength += bandWeight(band[i] as number) * (duration[i] as number);
  return { wspt: total, ownLength, bound: Math.max(total, ownLength) };
}

/** Σ w (M + p/2 − r) for the items of one pool, in arrival order. */
function poolBound(order: readonly number[], arrival: Float64Array, duration: Float64Array, band: Uint8Array, speed: number): number {
  const ratio = (i: number): number => bandWeight(band[i] as number) / (duration[i] as number);
  // Max-heap on w/p (zero durations rank first, at Infinity); ties by index for determinism.
  const heap: number[] = [];
  const better = (a: number, b: number): boolean => {
    const ra = ratio(a);
    const rb = ratio(b);
    return ra > rb || (ra === rb && a < b);
  };
  const push = (i: number): void => {
    heap.push(i);
    let k = heap.length - 1;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (!better(heap[k] as number, heap[up] as number)) break;
      [heap[k], heap[up]] = [heap[up] as number, heap[k] as number];
      k = up;
    }
  };
  const pop = (): void => {
    const last = heap.pop() as number;
    if (heap.length === 0) return;
    heap[0] = last;
    let k = 0;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= heap.length) return;
      const r = l + 1;
      const c = r < heap.length && better(heap[r] as number, heap[l] as number) ? r : l;
      if (!better(heap[c] as number, heap[k] as number)) return;
      [heap[k], heap[c]] = [heap[c] as number, heap[k] as number];
      k = c;
    }
  };
  const remaining = new Map<number, number>();
  // Σ over an item's pieces of (piece length × (piece midpoint − arrival)), relative to arrival so
  // large epoch times do not eat the precision of small flow times.
  const moment = new Map<number, number>();
  let total = 0;
  let next = 0;
  let t = -Infinity;
  while (next < order.length || heap.length > 0) {
    if (heap.length === 0) t = Math.max(t, arrival[order[next] as number] as number);
    while (next < order.length && (arrival[order[next] as number] as number) <= t) {
      const i = order[next++] as number;
      remaining.set(i, (duration[i] as number) / speed);
      push(i);
    }
    const j = heap[0] as number;
    const left = remaining.get(j) as number;
    const nextArrival = next < order.length ? (arrival[order[next] as number] as number) : Infinity;
    const run = Math.min(left, nextArrival - t);
    const r = arrival[j] as number;
    moment.set(j, (moment.get(j) ?? 0) + run * (t - r + run / 2));
    t += run;
    if (run < left) {
      remaining.set(j, left - run);
      continue;
    }
    pop();
    const fast = (duration[j] as number) / speed;
    // Mean busy time minus arrival; a zero-length item is "busy" at the instant it runs.
    const meanBusy = fast > 0 ? (moment.get(j) as number) / fast : t - r;
    total += bandWeight(band[j] as number) * (meanBusy + (duration[j] as number) / 2);
    remaining.delete(j);
    moment.delete(j);
  }
  return total;
}
