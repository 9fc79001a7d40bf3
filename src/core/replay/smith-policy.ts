import type { ReplayPolicy, ReplayQueueItem } from "./replay-policy.js";
import { GroupedReplayQueue } from "./grouped-replay-queue.js";

/** Running mean durations per class, from completions only: what a scheduler could know at the time. */
export class DurationEstimator {
  private sum: Float64Array;
  private count: Float64Array;
  private allSum = 0;
  private allCount = 0;

  constructor(kinds: number) {
    this.sum = new Float64Array(kinds);
    this.count = new Float64Array(kinds);
  }

  /** Records a completed item's duration. */
  observe(kind: number, duration: number): void {
    this.sum[kind] = (this.sum[kind] ?? 0) + duration;
    this.count[kind] = (this.count[kind] ?? 0) + 1;
    this.allSum += duration;
    this.allCount++;
  }

  /** Expected duration of a class: its mean, else the mean of all completions, else undefined. */
  estimate(kind: number): number | undefined {
    const c = this.count[kind] ?? 0;
    if (c > 0) return (this.sum[kind] as number) / c;
    return this.allCount > 0 ? this.allSum / this.allCount : undefined;
  }

  /** The mean duration of every completion so far, or undefined before the first. */
  mean(): number | undefined {
    return this.allCount > 0 ? this.allSum / this.allCount : undefined;
  }

  /** Every class's current estimate, for a queue to order by until its next re-order. */
  snapshot(into: Float64Array): void {
    for (let k = 0; k < into.length; k++) into[k] = this.estimate(k) ?? 1;
  }
}

/** An item's weight for Smith's rule: its band weight (5 - band) plus that of the arrived items it unblocks. */
export const smithWeight = (item: ReplayQueueItem): number => 5 - item.band + item.unblockWeight;

/** Order of Smith's rule inside a band, given a class's expected duration (ms). */
export function smithCompare(a: ReplayQueueItem, b: ReplayQueueItem, expected: (kind: number) => number): number {
  if (a.band !== b.band) return a.band - b.band;
  // w_a / p_a > w_b / p_b, cross-multiplied so a zero estimate cannot divide by zero.
  const d = smithWeight(b) * Math.max(expected(a.kind), 1) - smithWeight(a) * Math.max(expected(b.kind), 1);
  if (d !== 0) return d;
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * `smith`: band first (the band invariant: it never reorders across bands), then Smith's rule —
 * weight over expected duration, highest first — with durations estimated per class from the
 * completions seen so far in the replay. Each queue orders by a snapshot of the estimates taken
 * at its last re-order, so a heap's order never shifts under it between re-orders.
 */
export function createSmithPolicy(kinds: number): ReplayPolicy {
  const estimator = new DurationEstimator(kinds);
  return {
    name: "smith",
    observe: (kind, _band, duration) => estimator.observe(kind, duration),
    createQueue: (now) => {
      const expected = new Float64Array(kinds).fill(1);
      let snapshotAt = Number.NaN;
      const lookup = (k: number): number => expected[k] ?? 1;
      // Within one band and class the order is by weight, then age: it never changes (grouped-replay-queue.ts).
      const heap = new GroupedReplayQueue(
        (a, b, t) => {
          if (t !== snapshotAt) {
            estimator.snapshot(expected);
            snapshotAt = t;
          }
          return smithCompare(a, b, lookup);
        },
        (item) => item.band * kinds + item.kind,
        now,
      );
      // The heap is a ReplayQueue as it stands.
      return heap;
    },
  };
}
