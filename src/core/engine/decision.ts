import type { BudgetHold } from "../budget/cap-room.js";
import type { ReleaseMode, SettledOutcome } from "../claims/claim-token.js";
import type { Evidence } from "../journal/journal-event.js";
import type { Disposition, Stop } from "../stop/stop.js";

/** What landing a stop means: its disposition, a summary, and how the claim ends. */
export interface LandingDecision {
  readonly stop: Stop;
  readonly disposition: Disposition;
  readonly summary: string;
  readonly mode: ReleaseMode;
  readonly note?: string;
  readonly evidence?: Evidence;
}

export type Decision =
  /** Land the outcome and end the claim in one motion; `revive`: the lease lapsed but the claim is still this epoch's, so it is renewed in the same compare-and-swap first. */
  | { readonly kind: "land"; readonly id: string; readonly epoch: number; readonly revive: boolean; readonly landing: LandingDecision }
  /** Extend the lease (`revive`: it lapsed while the worker lived; nobody took it). */
  | { readonly kind: "renew"; readonly id: string; readonly epoch: number; readonly leaseMs: number; readonly revive: boolean }
  /** Take back a lapsed claim whose worker shows no life: the item goes back to the queue (an attempt spent). */
  | { readonly kind: "reclaim"; readonly id: string; readonly epoch: number; readonly holder: string }
  /** Attempts are spent: end the claim as settled for a human (label `bosun:needs-human`). */
  | { readonly kind: "settle-to-human"; readonly id: string; readonly epoch: number; readonly landing: LandingDecision & { readonly mode: { readonly kind: "settle"; readonly outcome: SettledOutcome } } }
  /** Claim this ready item against its pool; `reserve`: the micro-dollars it reserves first, where money is capped or it names a figure. */
  | { readonly kind: "claim"; readonly id: string; readonly pool: string; readonly reserve?: number }
  /** Its pool has room but its reservation does not fit under a cap: it stays queued, held by budget. */
  | { readonly kind: "hold"; readonly id: string; readonly pool: string; readonly hold: BudgetHold }
  /** A cap applies and the item has no cost to reserve: not claimed, for the reason given. */
  | { readonly kind: "refuse"; readonly id: string; readonly pool: string; readonly reason: string }
  /** Nothing is in flight and what is left waits only for money: a cap's window to roll over or the cap to rise. */
  | { readonly kind: "paused"; readonly hold?: BudgetHold }
  /** Hand a granted claim to its worker. */
  | { readonly kind: "dispatch"; readonly id: string; readonly epoch: number }
  /** A reviewed item moves on: merged (waiting for its deployment), or its life ends or restarts as `landing` says. */
  | { readonly kind: "advance"; readonly id: string; readonly epoch: number; readonly to: "merged"; readonly mergeSha: string }
  | { readonly kind: "advance"; readonly id: string; readonly epoch: number; readonly to: "landed"; readonly landing: LandingDecision }
  /** The queue is empty and nothing is in flight: both facts checked. */
  | { readonly kind: "idle" };
