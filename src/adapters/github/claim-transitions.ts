import type { ClaimToken, FencedResult, ReleaseMode } from "../../core/claims/claim-token.js";
import type { ClaimRecord } from "./claim-record.js";

/** Whether a token may still act on a claim: its epoch and holder hold it, and its lease is live. */
export function fence(record: ClaimRecord | undefined, token: ClaimToken, now: number): FencedResult {
  if (record === undefined) return { ok: false, reason: "lost", detail: `no claim ref for ${token.key}` };
  if (record.epoch !== token.epoch || record.holder !== token.holder) return { ok: false, reason: "stale", detail: `epoch ${token.epoch} is stale; ${record.holder} holds epoch ${record.epoch}` };
  if (record.state !== "held") return { ok: false, reason: "lost", detail: `the claim at epoch ${record.epoch} was already ${record.state}` };
  // A lease that ran out may be reclaimed by another replica this instant: do not land on it.
  if (record.leaseUntil <= now) return { ok: false, reason: "lost", detail: `lease of epoch ${token.epoch} ran out` };
  return { ok: true };
}

/** The record after a release: settled for good, or released for a retry not before a time. */
export const released = (base: ClaimRecord, mode: ReleaseMode, now: number): ClaimRecord =>
  mode.kind === "settle" ? { ...base, state: "settled", outcome: mode.outcome, at: now } : { ...base, state: "released", notBefore: mode.notBefore, at: now };
/** The record after an expired lease is taken back: released, claimable at once. */
export const reclaimed = (record: ClaimRecord, now: number): ClaimRecord => ({ ...record, state: "released", notBefore: now, at: now });
