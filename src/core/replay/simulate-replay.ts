import type { CompiledTrace } from "./compile-trace.js";
import { CompletionHeap } from "./completion-heap.js";
import type { ReplayPolicy, ReplayQueue, ReplayQueueItem } from "./replay-policy.js";
import { QueueLengthSeries } from "./queue-length-series.js";

/** Share of the earliest arrivals the queue-length chart leaves out (it starts at this quantile). */
export const CHART_SKIP_ARRIVALS = 0.05;

/** What one policy's replay did to each item, and what the audit saw. */
export interface SimulationResult {
  readonly policy: string;
  /** Per item, ms: when it became ready (arrived and unblocked), started, completed; NaN if never. */
  readonly ready: Float64Array;
  readonly start: Float64Array;
  readonly finish: Float64Array;
  /** Event moments at which, in some pool, a worker was idle while a ready item waited (counted per pool). */
  readonly idleWithWork: number;
  /** Items that never completed (only a policy that declines to dispatch leaves any). */
  readonly unfinished: number;
  readonly queueLength: QueueLengthSeries;
  /** Under a daily budget: the UTC days on which it held a dispatch back, and the items it could never afford. */
  readonly budget?: { readonly heldDays: number; readonly neverFits: number };
}

/** A daily money budget for a replay: items are dispatched only while the UTC day's spend stays within it. */
export interface ReplayBudget {
  /** Micro-dollars a UTC day may spend. */
  readonly dailyMicros: number;
  /** What each item costs, micro-dollars, charged when it starts. */
  readonly cost: Float64Array;
  /** The replay stops here (ms): what is done by then is what the budget achieved. */
  readonly until: number;
}

export interface SimulationOptions {
  /** Workers per pool. */
  readonly workers: number;
  /** Called every so often with (completed, total); for a progress bar at the edge. */
  readonly onProgress?: (done: number, total: number) => void;
  /** A daily money budget, as a drain's `--budget-usd` applies one (replay-budget.ts). */
  readonly budget?: ReplayBudget;
}

const DAY_MS = 86_400_000;

const PROGRESS_EVERY = 1 << 16;

/**
 * Replays a trace under one policy: arrivals held fixed, each pool with its own N workers, an
 * item ready once it has arrived and all its blockers completed, started whenever a worker of
 * its pool is free and the policy picks it, never preempted. Work conservation is audited, not
 * assumed: after every event moment each pool with a free worker and a waiting ready item counts
 * one. Deterministic: ties break by index, and no randomness is used.
 *
 * Under a daily budget the live rule holds: an item starts only when its cost fits in what the
 * UTC day has left; the best item that does not fit stays queued and nothing starts in any pool
 * until the next UTC midnight (nothing behind it jumps the queue). An item costing more than a
 * whole day's budget could never start and would hold everything behind it for good: it is left
 * out (`neverFits`), and so are the items waiting on it. Moments held for money are not counted
 * as idle beside waiting work: the budget, not the policy, held them.
 */
export function simulateReplay(trace: CompiledTrace, policy: ReplayPolicy, options: SimulationOptions): SimulationResult {
  const { n, arrival, duration, band, pool, kind, dependentStart, dependents, byArrival } = trace;
  const workers = options.workers;
  const pools = trace.poolNames.length;
  const ready = new Float64Array(n).fill(Number.NaN);
  const start = new Float64Array(n).fill(Number.NaN);
  const finish = new Float64Array(n).fill(Number.NaN);
  const waitingOn = trace.blockerCount.slice();
  const arrived = new Uint8Array(n);
  const t0 = n > 0 ? (arrival[byArrival[0] as number] as number) : 0;
  const queues: ReplayQueue[] = Array.from({ length: pools }, () => policy.createQueue(t0, workers));
  const idle = new Int32Array(pools).fill(workers);
  const readyCount = new Int32Array(pools);
  const violating = new Uint8Array(pools);
  const dirty = new Uint8Array(pools);
  const dirtyList: number[] = [];
  const running = new CompletionHeap(pools * workers);
  // The chart starts where the arrivals do in earnest: a few stragglers months before the rest
  // (the beads claim trace has them) would squeeze the whole replay into its last few pixels.
  const chartFrom = n > 0 ? (arrival[byArrival[Math.floor((n - 1) * CHART_SKIP_ARRIVALS)] as number] as number) : 0;
  const series = new QueueLengthSeries(chartFrom, n > 0 ? (arrival[byArrival[n - 1] as number] as number) : 1);
  let violations = 0;
  let idleWithWork = 0;
  let totalReady = 0;
  let done = 0;
  let ai = 0;
  const budget = options.budget;
  let spentDay = Number.NaN;
  let spent = 0;
  // While held for money: the start of the next UTC day, when dispatching resumes.
  let heldUntil = -Infinity;
  let heldDays = 0;
  let neverFits = 0;

  const touch = (p: number): void => {
    if (dirty[p] === 0) {
      dirty[p] = 1;
      dirtyList.push(p);
    }
  };
  const makeReady = (i: number, now: number): void => {
    if (budget !== undefined && (budget.cost[i] as number) > budget.dailyMicros) {
      neverFits++;
      return;
    }
    ready[i] = now;
    let unblocks = 0;
    let unblockWeight = 0;
    for (let k = dependentStart[i] as number, end = dependentStart[i + 1] as number; k < end; k++) {
      const d = dependents[k] as number;
      if (arrived[d] === 1) {
        unblocks++;
        unblockWeight += 5 - (band[d] as number);
      }
    }
    const item = trace.items[i];
    if (item === undefined) return;
    const q: ReplayQueueItem = {
      id: item.id,
      band: item.band,
      createdAt: item.arrival,
      ...(item.due === undefined ? {} : { due: item.due }),
      unblocks,
      pool: item.pool,
      ix: i,
      kind: kind[i] as number,
      unblockWeight,
    };
    const p = pool[i] as number;
    (queues[p] as ReplayQueue).push(q, now);
    readyCount[p] = (readyCount[p] as number) + 1;
    totalReady++;
    touch(p);
  };

  while (ai < n || running.size > 0 || (heldUntil !== -Infinity && totalReady > 0)) {
    const nextArrival = ai < n ? (arrival[byArrival[ai] as number] as number) : Infinity;
    const now = Math.min(nextArrival, running.peekTime(), totalReady > 0 && heldUntil !== -Infinity ? heldUntil : Infinity);
    if (budget !== undefined && now > budget.until) break;
    if (now >= heldUntil && heldUntil !== -Infinity) {
      // A new UTC day: the budget starts again, and every pool with work looks again.
      heldUntil = -Infinity;
      for (let p = 0; p < pools; p++) if ((readyCount[p] as number) > 0) touch(p);
    }
    series.hold(totalReady, now);
    while (running.size > 0 && running.peekTime() === now) {
      const i = running.pop();
      finish[i] = now;
      const p = pool[i] as number;
      idle[p] = (idle[p] as number) + 1;
      touch(p);
      policy.observe?.(kind[i] as number, band[i] as number, duration[i] as number, now);
      for (let k = dependentStart[i] as number, end = dependentStart[i + 1] as number; k < end; k++) {
        const d = dependents[k] as number;
        const left = (waitingOn[d] as number) - 1;
        waitingOn[d] = left;
        if (left === 0 && arrived[d] === 1) makeReady(d, now);
      }
      if (++done % PROGRESS_EVERY === 0) options.onProgress?.(done, n);
    }
    while (ai < n && (arrival[byArrival[ai] as number] as number) === now) {
      const i = byArrival[ai++] as number;
      arrived[i] = 1;
      if ((waitingOn[i] as number) === 0) makeReady(i, now);
    }
    for (const p of dirtyList) {
      dirty[p] = 0;
      const q = queues[p] as ReplayQueue;
      while ((idle[p] as number) > 0 && (readyCount[p] as number) > 0 && heldUntil === -Infinity) {
        const item = q.pop(now);
        if (item === undefined) break;
        if (budget !== undefined) {
          const day = now - (((now % DAY_MS) + DAY_MS) % DAY_MS);
          if (day !== spentDay) {
            spentDay = day;
            spent = 0;
          }
          const cost = budget.cost[item.ix] as number;
          if (spent + cost > budget.dailyMicros) {
            // Held by budget: back in its queue as it was; nothing starts anywhere until the day rolls over.
            if (q.putBack === undefined) q.push(item, now);
            else q.putBack(item, now);
            heldUntil = day + DAY_MS;
            heldDays++;
            for (let k = 0; k < pools; k++) {
              violations -= violating[k] as number;
              violating[k] = 0;
            }
            break;
          }
          spent += cost;
        }
        idle[p] = (idle[p] as number) - 1;
        readyCount[p] = (readyCount[p] as number) - 1;
        totalReady--;
        start[item.ix] = now;
        running.push(now + (duration[item.ix] as number), item.ix);
      }
      const v = (idle[p] as number) > 0 && (readyCount[p] as number) > 0 && heldUntil === -Infinity ? 1 : 0;
      violations += v - (violating[p] as number);
      violating[p] = v;
    }
    dirtyList.length = 0;
    idleWithWork += violations;
  }
  options.onProgress?.(done, n);
  return { policy: policy.name, ready, start, finish, idleWithWork, unfinished: n - done, queueLength: series, ...(budget === undefined ? {} : { budget: { heldDays, neverFits } }) };
}
