import type { QueueItem } from "../queue/queue-item.js";

/** A queued unit of work as the engine sees it: scheduling facts plus an opaque payload for the worker. */
export interface WorkItem<P = unknown> extends QueueItem {
  readonly claimKey: string;
  /** Ids of items that must land ok first. */
  readonly blockedBy: readonly string[];
  readonly payload: P;
  /** Its own money cap (micro-dollars), the brief's `budget.usd`: what it reserves before dispatch. */
  readonly usd?: number;
}
