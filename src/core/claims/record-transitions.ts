import type { Approval, ClaimRecord, RecordedLanding } from "./claim-record.js";
import type { ClaimToken, DenyReason, FencedResult, ReleaseMode, SettledOutcome } from "./claim-token.js";

/**
 * Every change a claim record can go through (docs/lifecycle.md), as pure functions of the record
 * read and the time: the stores write what these return, and the tick's plan decides which one.
 */

/** What a grant records besides holder, epoch and lease (DESIGN.md, "Fencing on GitHub"). */
export interface GrantFacts {
  /** The pool the grant counts against: in-flight work is counted by it, whatever the labels say later. */
  readonly pool?: string;
  /** The snapshot hash of the brief dispatched (the gate holds the pull request to it). */
  readonly briefHash?: string;
  /** The snapshot comment dispatched. */
  readonly snapshotId?: number;
  /** By when the grant must show a worker (a run or a pull request), or it is taken back early. */
  readonly dispatchBy?: number;
}

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
export function released(base: ClaimRecord, mode: ReleaseMode, now: number, landing?: RecordedLanding): ClaimRecord {
  const next: ClaimRecord = mode.kind === "settle" ? { ...base, state: "settled", outcome: mode.outcome, at: now } : { ...base, state: "released", notBefore: mode.notBefore, at: now };
  return landing === undefined ? next : { ...next, landing };
}

/** The record after an expired lease is taken back: released, claimable at once. */
export const reclaimed = (record: ClaimRecord, now: number): ClaimRecord => ({ ...record, state: "released", notBefore: now, at: now });

/** Denied (and why), already held by this very holder, or the record a grant writes. */
export type GrantDecision = { readonly denied: { readonly reason: DenyReason; readonly detail: string } } | { readonly mine: ClaimRecord } | { readonly next: ClaimRecord };

/**
 * Whether a key may be granted over its current record, and the record a grant writes. `floor`:
 * the highest epoch the item had before its ref was cleaned up (0: never claimed), and any epoch
 * seen elsewhere (runs titled for it): with no record, the grant starts above it.
 */
export function grantOver(current: ClaimRecord | undefined, key: string, holder: string, leaseMs: number, now: number, grant: GrantFacts, floor: number): GrantDecision {
  const deny = (reason: DenyReason, detail: string): GrantDecision => ({ denied: { reason, detail } });
  switch (current?.state) {
    case "settled":
      return deny("not-ready", `settled: ${current.outcome?.summary ?? ""}`);
    case "invalid":
      return deny("not-ready", "the approved brief is invalid");
    case "withdrawn":
      return deny("not-ready", "the approval was withdrawn");
    case "review":
    case "merged":
      return deny("held", `its pull request #${current.pull ?? "?"} is ${current.state === "merged" ? "merged, waiting for its deployment" : "in review"}`);
    case "held":
      if (current.leaseUntil > now && current.holder === holder) return { mine: current };
      // One rule on every store: an expired lease is not granted over until it is reclaimed (the
      // reclaim is where the attempt is counted, and where a live worker is seen first).
      return deny("held", current.leaseUntil > now ? `held by ${current.holder} (epoch ${current.epoch})` : `held by ${current.holder} (epoch ${current.epoch}) until the expired lease is reclaimed`);
    default:
      break;
  }
  if (current?.notBefore !== undefined && current.notBefore > now) return deny("not-ready", `retry not before ${new Date(current.notBefore).toISOString()}`);
  // Epochs never go back: with no claim ref, the item starts above the floor its cleanup left.
  const base = Math.max(current?.epoch ?? 0, floor);
  const carried = current === undefined ? {} : { ...(current.approval === undefined ? {} : { approval: current.approval }), ...(current.briefHash === undefined ? {} : { briefHash: current.briefHash }), ...(current.briefId === undefined ? {} : { briefId: current.briefId }), ...(current.snapshotId === undefined ? {} : { snapshotId: current.snapshotId }), ...(current.pull === undefined ? {} : { pull: current.pull }), ...(current.spend === undefined ? {} : { spend: current.spend }) };
  const next: ClaimRecord = { key, holder, epoch: base + 1, state: "held", leaseUntil: now + leaseMs, at: now, grantedAt: now, ...carried, ...grant };
  return { next };
}

/**
 * An approval recorded: the item waits for a slot under this approval and brief. The epoch is the
 * one reached so far (it only grows at grants); a settled, invalid or withdrawn item starts a new
 * life here, and so does a queued one whose approval was renewed. No brief: the issue was edited
 * after the approval, so no text is the approved one — nothing is frozen and nothing can run
 * (a grant needs the brief to hash to the record's) until a new approval.
 */
export function approved(current: ClaimRecord | undefined, key: string, holder: string, now: number, approval: Approval, brief: { readonly hash: string; readonly id: string } | undefined, floor: number): ClaimRecord {
  return { key, holder, epoch: Math.max(current?.epoch ?? 0, floor), state: "approved", leaseUntil: 0, at: now, approval, ...(brief === undefined ? {} : { briefHash: brief.hash, briefId: brief.id }), ...spentBy(current) };
}

/** An approval of a brief that does not validate: nothing runs until it is approved again, fixed. */
export function invalid(current: ClaimRecord | undefined, key: string, holder: string, now: number, approval: Approval, floor: number): ClaimRecord {
  return { key, holder, epoch: Math.max(current?.epoch ?? 0, floor), state: "invalid", leaseUntil: 0, at: now, approval, ...spentBy(current) };
}

/** What an item's earlier grants spent stays with it through a new approval: it counts against the caps of its windows. */
const spentBy = (current: ClaimRecord | undefined): Pick<ClaimRecord, "spend"> => (current?.spend === undefined ? {} : { spend: current.spend });

/** The approval was withdrawn, or the issue closed, before anything ran (or between attempts). */
export function withdrawn(current: ClaimRecord, holder: string, now: number): ClaimRecord {
  return { ...current, holder, state: "withdrawn", at: now };
}

/** The run ended done with its pull request open: the gate and a merge decide now, and the pool slot is free. */
export function inReview(current: ClaimRecord, now: number, pull: number, landing: RecordedLanding): ClaimRecord {
  return { ...current, state: "review", pull, at: now, landing };
}

/** The pull request was merged: done, or waiting for a verified deployment where the repository verifies. */
export function merged(current: ClaimRecord, holder: string, now: number, merge: string): ClaimRecord {
  return { ...current, holder, state: "merged", merge, at: now };
}

/** The end of an item's life (done, refused, or for a human), with the landing that decided it. */
export function settled(current: ClaimRecord, holder: string, now: number, outcome: SettledOutcome, landing?: RecordedLanding): ClaimRecord {
  return { ...current, holder, state: "settled", outcome, at: now, ...(landing === undefined ? {} : { landing }) };
}

/** Back to the queue at the next epoch after a backoff (a gate's retry from review). */
export function requeued(current: ClaimRecord, holder: string, now: number, notBefore: number, landing?: RecordedLanding): ClaimRecord {
  return { ...current, holder, state: "released", notBefore, at: now, ...(landing === undefined ? {} : { landing }) };
}
