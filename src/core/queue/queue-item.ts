import type { Band } from "../brief/brief.js";

/** What a queue policy may look at: never an item's content, only scheduling facts. */
export interface QueueItem {
  readonly id: string;
  readonly band: Band;
  /** When the item became ready to queue, ms since the epoch. */
  readonly createdAt: number;
  /** Due time, ms since the epoch. */
  readonly due?: number;
  /** How many other items wait on this one (blocked_by edges pointing at it). */
  readonly unblocks: number;
  readonly pool: string;
}
