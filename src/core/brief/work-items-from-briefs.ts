import type { WorkItem } from "../engine/work-item.js";
import type { Brief } from "./brief.js";
import { dueTime } from "./due-time.js";
import { toMicros } from "../budget/budget-cap.js";

/** A brief with the time it entered the queue (ms since the epoch). */
export interface QueuedBrief {
  readonly brief: Brief;
  readonly queuedAt: number;
}

/** Turns briefs into the engine's work items: due dates parsed, and how many items each one unblocks. */
export function workItemsFromBriefs(queued: readonly QueuedBrief[]): WorkItem<Brief>[] {
  const unblocks = new Map<string, number>();
  for (const { brief } of queued) for (const b of brief.blocked_by) unblocks.set(b, (unblocks.get(b) ?? 0) + 1);
  return queued.map(({ brief, queuedAt }) => {
    const due = dueTime(brief.due);
    return {
      id: brief.id,
      band: brief.priority,
      createdAt: queuedAt,
      ...(due === undefined ? {} : { due }),
      unblocks: unblocks.get(brief.id) ?? 0,
      pool: brief.pool,
      claimKey: brief.claim_key,
      blockedBy: brief.blocked_by,
      payload: brief,
      ...(brief.budget.usd === undefined ? {} : { usd: toMicros(brief.budget.usd) }),
    };
  });
}
