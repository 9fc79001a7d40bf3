import type { QueueItem } from "../queue/queue-item.js";
import type { QueuePolicy } from "../queue/queue-policy-type.js";
import { INDEX_SCALES } from "../queue/queue-policy.js";
import { GroupedReplayQueue } from "./grouped-replay-queue.js";
import { ReplayHeap } from "./replay-heap.js";

/**
 * For each time-dependent live policy, groups whose members keep one order among themselves at any
 * time: `index` within a band, unblocking level and due date (the age term then only ever puts the
 * older first, as the tie-break does); `fair` (without estimates) within a band and class.
 */
const STATIC_GROUPS: Readonly<Record<string, (item: ReplayQueueItem) => string | number>> = {
  index: (item) => (item.due === undefined ? item.band * 8 + Math.min(item.unblocks, INDEX_SCALES.unblocksCap) : `${item.band}:${Math.min(item.unblocks, INDEX_SCALES.unblocksCap)}:${item.due}`),
  fair: (item) => `${item.band}:${item.kind}`,
};

/** A ready item in a replay: what a live queue sees, plus the replay's own bookkeeping. */
export interface ReplayQueueItem extends QueueItem {
  /** Index in the compiled trace. */
  readonly ix: number;
  /** Class index (issue type), what duration estimates are grouped by. */
  readonly kind: number;
  /** Σ band weights of the items already waiting on this one. */
  readonly unblockWeight: number;
}

/** The ready items of one pool in one replay: push when an item becomes ready, pop to dispatch. */
export interface ReplayQueue {
  readonly size: number;
  push(item: ReplayQueueItem, now: number): void;
  /** The next item to start now; undefined means "start nothing" (a work-conserving policy never says so while size > 0). */
  pop(now: number): ReplayQueueItem | undefined;
  /**
   * Undoes the last pop (the item did not start: a budget held it), leaving the queue as it was
   * before. A queue whose pop keeps no state about the others needs none: push is the same.
   */
  putBack?(item: ReplayQueueItem, now: number): void;
}

/** A policy as the simulation runs it: a queue per pool, told of each completion as it happens. */
export interface ReplayPolicy {
  readonly name: string;
  /** A pool's queue; `workers` is how many workers serve that pool (a guard may scale by it). */
  createQueue(now: number, workers: number): ReplayQueue;
  /** A completion, at the moment it happens: the only way a policy learns durations (never from the future). */
  observe?(kind: number, band: number, duration: number, now: number): void;
}

/** A ready item for the simulation's queues, built from the live queue policy. */
export function fromQueuePolicy(policy: QueuePolicy): ReplayPolicy {
  return {
    name: policy.name,
    createQueue: (now) => {
      const groupOf = STATIC_GROUPS[policy.name];
      // A time-dependent order in groups that keep their order (grouped-replay-queue.ts); the others in one heap.
      if (policy.timeDependent && groupOf !== undefined) return new GroupedReplayQueue((a, b, t) => policy.compare(a, b, t), groupOf, now);
      const heap = new ReplayHeap<ReplayQueueItem>((a, b, t) => policy.compare(a, b, t), policy.timeDependent, now);
      // The heap is a ReplayQueue as it stands.
      return heap;
    },
  };
}
