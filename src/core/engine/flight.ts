import type { ClaimToken } from "../claims/claim-token.js";
import type { HeldClaim } from "./step-state.js";
import type { RunResult } from "./engine-loop.js";
import type { LazyAbort } from "./lazy-abort.js";
import type { WorkItem } from "./work-item.js";

/** The local drain has one pool: every item counts against `options.pool`. */
export const LOCAL_POOL = "local";

/** One item dispatched by this engine: its claim (renewed in place) and its worker's stop switch. */
export interface Flight<P> {
  readonly item: WorkItem<P>;
  token: ClaimToken;
  readonly control: LazyAbort;
  renewAt: number;
  /** When its worker was started: the run's length is measured from here. */
  readonly startedAt: number;
  /** Its reservation in the spend ledger, when it made one: settled with what the run reports. */
  readonly ticket?: string;
}

/** A flight as the decision step sees a held claim. */
export function heldClaim<P>(flight: Flight<P>, leaseMs: number, worker: HeldClaim["worker"]): HeldClaim {
  return { id: flight.item.id, epoch: flight.token.epoch, holder: flight.token.holder, leaseUntil: flight.token.expiresAt, leaseMs, pool: LOCAL_POOL, worker };
}

/** A finished run as the decision step sees its worker. */
export function endedWorker(result: RunResult): HeldClaim["worker"] {
  return result.evidence === undefined ? { kind: "ended", stop: result.stop } : { kind: "ended", stop: result.stop, evidence: result.evidence };
}
