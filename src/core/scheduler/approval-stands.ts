import type { ItemFacts } from "./tick-facts.js";

/**
 * How long after an approval was made a grant takes it as standing without reading the issue's
 * events again. Whoever recorded it read the events after it was made, so at most this long has gone
 * unread; a withdrawal in that time shows anyway — the label gone from the listing the tick reads,
 * or the `issues` webhook that makes the tick read the events — unless the label was removed and
 * added back and both webhooks were lost. Grants later than this read the events again.
 */
export const APPROVAL_FRESH_MS = 60_000;

/**
 * Whether the approval an item's record holds still stands for a grant now: read this tick (it
 * must be the recorded one), or made less than `APPROVAL_FRESH_MS` ago. Undefined: not known — the
 * events are read again before the grant (the screen).
 */
export function approvalStands(item: { readonly approval?: ItemFacts["approval"] | undefined; readonly record?: ItemFacts["record"] | undefined }, now: number): boolean | undefined {
  const recorded = item.record?.approval;
  if (item.approval !== undefined) return item.approval.kind === "approved" && item.approval.approval.id === recorded?.id;
  if (recorded !== undefined && item.record?.state === "approved" && now - recorded.at < APPROVAL_FRESH_MS) return true;
  return undefined;
}
