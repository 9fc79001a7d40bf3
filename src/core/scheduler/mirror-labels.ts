import type { ClaimRecord } from "../claims/claim-record.js";
import type { Labels } from "../config/labels.js";

/**
 * The labels an item shows for its record (docs/lifecycle.md, "What you see on the issue"): Bosun's
 * state labels are mirrors of the record, set whole, so a mirror that did not follow (a failed
 * write, someone's hand) is put right by the next tick. People's labels (the approval label,
 * priorities, pools, hold) are left as they are, except that `hold` goes when a new approval is
 * recorded (`clearHold`) and comes when the brief changed after approval (`changed`).
 * Returns undefined when the labels are already right.
 */
export function mirrorLabels(current: readonly string[], record: Pick<ClaimRecord, "state" | "outcome" | "briefHash"> | undefined, labels: Labels, opts: { readonly changed?: boolean; readonly clearHold?: boolean } = {}): string[] | undefined {
  const owned = new Set([labels.queued, labels.claimed, labels.review, labels.done, labels.needsHuman, labels.invalidBrief].map((l) => l.toLowerCase()));
  const want = stateLabel(record, labels);
  const keep = current.filter((l) => !owned.has(l.toLowerCase()) && !(opts.clearHold === true && l.toLowerCase() === labels.hold.toLowerCase()));
  const next = [...keep, ...(want === undefined ? [] : [want])];
  if (opts.changed === true && !next.some((l) => l.toLowerCase() === labels.hold.toLowerCase())) next.push(labels.hold);
  const same = next.length === current.length && next.every((l) => current.some((c) => c.toLowerCase() === l.toLowerCase()));
  return same ? undefined : next;
}

/** The one state label a record calls for; none for an approval that froze no brief (nothing is queued). */
export function stateLabel(record: Pick<ClaimRecord, "state" | "outcome" | "briefHash"> | undefined, labels: Labels): string | undefined {
  switch (record?.state) {
    case undefined:
    case "withdrawn":
      return undefined;
    case "approved":
      return record.briefHash === undefined ? undefined : labels.queued;
    case "released":
      return labels.queued;
    case "invalid":
      return labels.invalidBrief;
    case "held":
      return labels.claimed;
    case "review":
    case "merged":
      return labels.review;
    case "settled":
      return record.outcome?.ok === true ? labels.done : labels.needsHuman;
  }
}
