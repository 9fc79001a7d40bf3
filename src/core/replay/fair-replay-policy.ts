import type { DurationEstimates } from "../queue/queue-policy-type.js";
import { fairPolicy } from "../queue/fair-policy.js";
import type { ReplayPolicy, ReplayQueueItem } from "./replay-policy.js";
import { GroupedReplayQueue } from "./grouped-replay-queue.js";
import { DurationEstimator } from "./smith-policy.js";

/**
 * `fair` in a replay, with what a scheduler could know at the time: each class's expected length
 * is the running mean of its completions so far (else the mean of all, else one hour), and the
 * mean job length scales the band head start. Like `smith`, each queue orders by a snapshot of
 * the estimates taken at its last re-order, so a heap's order never shifts under it between two.
 */
export function createFairReplayPolicy(kinds: number): ReplayPolicy {
  const estimator = new DurationEstimator(kinds);
  return {
    name: "fair",
    observe: (kind, _band, duration) => estimator.observe(kind, duration),
    createQueue: (now) => {
      const expected = new Float64Array(kinds).fill(3_600_000);
      let mean = 3_600_000;
      let snapshotAt = Number.NaN;
      const estimates: DurationEstimates = { expected: (item) => expected[(item as ReplayQueueItem).kind] ?? mean, mean: () => mean };
      const policy = fairPolicy(estimates);
      // Within one band and class the order is by age: it never changes (grouped-replay-queue.ts).
      const heap = new GroupedReplayQueue(
        (a, b, t) => {
          if (t !== snapshotAt) {
            estimator.snapshot(expected);
            // Before the first completion nothing is known: no head start, every length equal.
            mean = Math.max(estimator.mean() ?? 1, 1);
            snapshotAt = t;
          }
          return policy.compare(a, b, t);
        },
        (item) => item.band * kinds + item.kind,
        now,
      );
      // The heap is a ReplayQueue as it stands.
      return heap;
    },
  };
}
