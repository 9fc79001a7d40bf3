import type { DurationEstimates } from "../queue/queue-policy-type.js";
import { fairPolicy } from "../queue/fair-policy.js";
import { REORDER_EVERY_MS } from "../queue/ready-queue.js";
import type { ReplayPolicy, ReplayQueue, ReplayQueueItem } from "./replay-policy.js";
import { DurationEstimator } from "./smith-policy.js";

/**
 * The guard's fairness coefficient: the share of its arrival-order flow time by which later
 * arrivals may delay a waiting item before it is served ahead of them. 0.1 is the target's own
 * tolerance (no band's p95 more than 10% worse than under `oldest`) and the best of 0.05, 0.1, 0.2
 * and 0.3 on the tuning set; the guard's family was picked after held-out figures were seen, so
 * the clean test is bench/fairness.ts's fresh seeds 30-59 (docs/replay.md, "How g was chosen").
 */
export const FAIR_GUARD_SHARE = 0.1;

/**
 * `fair-guard`: `fair`'s response ratio with a guard against being overtaken too much.
 *
 * Each waiting item keeps the expected work (its class's running mean, as `fair` uses) of every
 * item that arrived after it and was started while it waited: the work that jumped it. Divided
 * by the pool's workers that is roughly how much later it starts than arrival order would have
 * started it, d. Its arrival-order flow time is then about max(time queued − d, 0) + its
 * expected length. Once d ≥ FAIR_GUARD_SHARE × that, the item is "overdue", and overdue items are served
 * oldest first, ahead of `fair`'s order; otherwise `fair`'s score decides. So the short items
 * still jump the queue (the gain), but no item is pushed back by more than about a tenth of what
 * arrival order would have made it wait and run — the band tails stay near `oldest`'s.
 *
 * Only what a scheduler has at the moment: arrivals so far, which items it started, and the class
 * means of completions. It never starves: an item passed over by later arrivals becomes overdue
 * after a bounded wait (d grows with every start it is passed over for, the threshold only with
 * its own wait, at a tenth of the rate), and overdue items are served oldest first.
 *
 * Cost: choosing is O(queue length) per start (a scan, not a heap), which the replay's traces
 * afford; its estimates are refreshed on the live queue's re-order cadence.
 */
export function createFairGuardPolicy(kinds: number, share: number = FAIR_GUARD_SHARE): ReplayPolicy {
  const estimator = new DurationEstimator(kinds);
  return {
    name: "fair-guard",
    observe: (kind, _band, duration) => estimator.observe(kind, duration),
    createQueue: (now, workers) => createGuardedQueue(estimator, kinds, Math.max(workers, 1), share, now),
  };
}

function createGuardedQueue(estimator: DurationEstimator, kinds: number, workers: number, share: number, now: number): ReplayQueue {
  // Before the first completion nothing is known: every length 1 ms, no head start (as `fair`).
  const expected = new Float64Array(kinds).fill(1);
  let mean = 1;
  let snapshotAt = now - 2 * REORDER_EVERY_MS;
  const estimates: DurationEstimates = { expected: (item) => expected[(item as ReplayQueueItem).kind] ?? mean, mean: () => mean };
  const order = fairPolicy(estimates);
  const items: ReplayQueueItem[] = [];
  const queuedAt: number[] = [];
  const jumped: number[] = [];
  const earlier = (a: ReplayQueueItem, b: ReplayQueueItem): boolean => a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
  // The last pop, so a start a budget held back can be undone: what the item carried, and what it charged the others.
  let lastPop: { item: ReplayQueueItem; queuedAt: number; jumped: number; work: number } | undefined;

  return {
    get size() {
      return items.length;
    },
    push: (item, t) => {
      items.push(item);
      queuedAt.push(t);
      jumped.push(0);
    },
    pop: (t) => {
      if (items.length === 0) return undefined;
      if (t - snapshotAt > REORDER_EVERY_MS) {
        estimator.snapshot(expected);
        mean = Math.max(estimator.mean() ?? 1, 1);
        snapshotAt = t;
      }
      let pick = -1;
      let overdue = false;
      for (let i = 0; i < items.length; i++) {
        const item = items[i] as ReplayQueueItem;
        const d = (jumped[i] as number) / workers;
        // Its arrival-order wait, estimated as time queued − d, is never below 0: class means can
        // overstate what the items that jumped it took, and then d exceeds the time it has queued.
        const late = d >= share * (Math.max(t - (queuedAt[i] as number) - d, 0) + estimates.expected(item));
        if (late) {
          if (!overdue || earlier(item, items[pick] as ReplayQueueItem)) pick = i;
          overdue = true;
        } else if (!overdue && (pick < 0 || order.compare(item, items[pick] as ReplayQueueItem, t) < 0)) {
          pick = i;
        }
      }
      const chosen = items[pick] as ReplayQueueItem;
      const work = estimates.expected(chosen);
      lastPop = { item: chosen, queuedAt: queuedAt[pick] as number, jumped: jumped[pick] as number, work };
      // Remove by moving the last entry into the hole, then charge everyone the chosen one jumped.
      const last = items.length - 1;
      items[pick] = items[last] as ReplayQueueItem;
      queuedAt[pick] = queuedAt[last] as number;
      jumped[pick] = jumped[last] as number;
      items.pop();
      queuedAt.pop();
      jumped.pop();
      for (let i = 0; i < items.length; i++) if (earlier(items[i] as ReplayQueueItem, chosen)) jumped[i] = (jumped[i] as number) + work;
      return chosen;
    },
    putBack: (item, t) => {
      if (lastPop?.item !== item) {
        items.push(item);
        queuedAt.push(t);
        jumped.push(0);
        return;
      }
      // Nobody was jumped after all: take back the charges, and queue it as it was.
      for (let i = 0; i < items.length; i++) if (earlier(items[i] as ReplayQueueItem, item)) jumped[i] = (jumped[i] as number) - lastPop.work;
      items.push(item);
      queuedAt.push(lastPop.queuedAt);
      jumped.push(lastPop.jumped);
      lastPop = undefined;
    },
  };
}
