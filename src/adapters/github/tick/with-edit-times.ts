import type { ApprovalFacts } from "../../../core/scheduler/tick-facts.js";
import type { TickReads } from "./tick-github.js";

/**
 * New approvals (not the ones recorded) with when each issue's body was last edited, read with the
 * body — every one of them in one read: only when that body is the one the tick parsed does its
 * edit time speak for the text the plan would freeze. Otherwise (moving, unreadable) the edit time
 * is left unknown. Answers the approvals in the order given.
 */
export async function withEditTimes(github: TickReads, entries: ReadonlyArray<{ readonly n: number; readonly body: string | undefined; readonly approval: ApprovalFacts }>): Promise<ApprovalFacts[]> {
  if (entries.length === 0) return [];
  const reads = await github.bodyEdits(entries.map((e) => e.n));
  // Line endings aside (a browser sends CRLF), the two reads must hold the same text.
  const same = (a: string, b: string): boolean => a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n");
  return entries.map(({ n, body, approval }) => {
    const read = reads.get(n);
    if (approval.kind !== "approved" || read === undefined || body === undefined || !same(read.body, body)) return approval;
    return { ...approval, bodyEditedAt: read.editedAt };
  });
}
