import type { QueueItem } from "./queue-item.js";

/** An ordering of ready items; `compare < 0` means `a` goes first. */
export interface QueuePolicy {
  readonly name: string;
  compare(a: QueueItem, b: QueueItem, now: number): number;
  /** True when the order between two items can change as time passes (a heap must be rebuilt). */
  readonly timeDependent: boolean;
  /** One line saying why an item sits where it does, for the dashboard. */
  explain(item: QueueItem, now: number): string;
  /**
   * The same policy ordering by these duration estimates, for a policy that uses lengths (`fair`);
   * absent on the others. A front that measures durations (the local engine) calls it.
   */
  withEstimates?(estimates: DurationEstimates): QueuePolicy;
}

/** A queue item with what a front may know of its length: the mean duration of its class so far. */
export interface EstimatedQueueItem extends QueueItem {
  /** Expected work time, ms (e.g. the running mean of the item's class); absent = unknown. */
  readonly expectedMs?: number;
}

/** What `fair` knows of durations: an item's expected length and the mean over all items, ms. */
export interface DurationEstimates {
  expected(item: EstimatedQueueItem): number;
  mean(): number;
}
