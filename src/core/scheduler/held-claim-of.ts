import type { ClaimRecord } from "../claims/claim-record.js";
import type { HeldClaim, WorkerState } from "../engine/step-state.js";
import type { ItemFacts } from "./tick-facts.js";

/** A held record as the step sees it; an item whose approval or issue went while it ran ends refused once its worker stops. */
export function heldClaimOf(item: ItemFacts, r: ClaimRecord, defaultLeaseMs: number, readyLabel: string): HeldClaim {
  const span = r.leaseUntil - r.at;
  let worker: WorkerState = item.worker ?? { kind: "unseen" };
  const issue = item.issue;
  const gone = issue === undefined || !issue.open || !issue.labels.some((l) => l.toLowerCase() === readyLabel.toLowerCase()) || item.approval?.kind === "withdrawn";
  if (worker.kind !== "live" && gone) {
    worker = item.pull?.state === "merged" ? { kind: "ended", stop: { kind: "done", reason: `pull request #${item.pull.number} merged` } } : { kind: "ended", stop: { kind: "failed", failure: "refuse", reason: issue === undefined ? "the issue is gone" : !issue.open ? "the issue was closed while in flight" : "the approval was withdrawn while in flight" } };
  }
  return { id: String(item.n), epoch: r.epoch, holder: r.holder, leaseUntil: r.leaseUntil, leaseMs: span > 0 ? span : defaultLeaseMs, pool: r.pool ?? "default", worker, ...(r.dispatchBy === undefined ? {} : { dispatchBy: r.dispatchBy }) };
}
