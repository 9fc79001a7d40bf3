import type { CapRoom } from "../budget/cap-room.js";
import type { Evidence } from "../journal/journal-event.js";
import type { RunCost } from "../journal/run-cost.js";
import type { Stop } from "../stop/stop.js";

// The facts the one decision step reads (decide-step.ts): the claims held, the items in review,
// the ready queue, the money caps, and the rules it applies to them.

/** What a face can see of an in-flight item's worker. */
export type WorkerState =
  /** No sign of life: no run found, nothing open for it. A lapsed lease is taken back. */
  | { readonly kind: "unseen" }
  /** Its run is queued or in progress (or its pull request is open): it keeps its claim. */
  | { readonly kind: "live" }
  /** It finished with this stop: land it. `run`, `url`: the workflow run it finished in; `cost`: what it reported. */
  | { readonly kind: "ended"; readonly stop: Stop; readonly evidence?: Evidence; readonly run?: number; readonly url?: string; readonly cost?: RunCost };

/** A claim held on an item (by anyone), as the claim store recorded it. */
export interface HeldClaim {
  readonly id: string;
  readonly epoch: number;
  readonly holder: string;
  readonly leaseUntil: number;
  /** This claim's lease length: a renewal extends it by as much. */
  readonly leaseMs: number;
  /** The pool the grant counted against, recorded at grant (never the item's current labels). */
  readonly pool: string;
  readonly worker: WorkerState;
  /**
   * By when a grant must show its worker: an unseen worker past it is taken back at once, not at
   * lease end (its granter died between grant and dispatch). Undefined: only the lease counts.
   */
  readonly dispatchBy?: number;
}

/**
 * An item whose worker finished `done` and whose pull request now decides (GitHub only: the local
 * drain has no pull requests). What can be seen of it: the pull request's state and the gate's
 * verdict on its current head, as Bosun posted it.
 */
export interface ReviewingItem {
  readonly id: string;
  readonly epoch: number;
  /** Whether the item is already merged and only waits for its deployment to be verified. */
  readonly merged: boolean;
  readonly pull: { readonly number: number; readonly state: "open" | "merged" | "closed"; readonly mergeSha?: string };
  /** The gate's latest verdict on the pull request's head; undefined while none is posted. */
  readonly gate?: GateFact;
  /** Whether the repository verifies deployments before an item is done. */
  readonly verify: boolean;
}

/** The gate's verdict on a head, with the failure class it stands for (docs/lifecycle.md). */
export interface GateFact {
  readonly verdict: "pass" | "fail" | "could-not-check";
  /** For a fail: the acceptance command failed (retry), or the change is off-brief (refuse). */
  readonly failure?: "retry" | "refuse";
  /** The gate's own words: the failing paths, the cap, the command's exit. */
  readonly reason: string;
  readonly sha: string;
}

/** An item ready to claim: open, not blocked, not held, not claimed, eligible for its pool. */
export interface ReadyItem {
  readonly id: string;
  readonly pool: string;
  /** Its brief's own money cap, `budget.usd`, in micro-dollars. */
  readonly usd?: number;
  /** Its task class (the claim key's namespace): whose observed costs it reserves when it names none. */
  readonly taskClass?: string;
}

/** The money facts of a step (DESIGN.md, "Budgets"); without them no money rule applies. */
export interface StepBudget {
  /** The caps in force, each with what its window has used: spent, plus reserved by runs in flight. */
  readonly rooms: readonly CapRoom[];
  /** A pool's per-item cap (micro-dollars): what an item that names none reserves. */
  readonly itemCap?: (pool: string) => number | undefined;
  /** The observed 90th percentile cost of a task class (micro-dollars), when any run reported one. */
  readonly p90?: (taskClass: string) => number | undefined;
}

export interface StepState {
  readonly now: number;
  /** Claims to judge this step. */
  readonly held: readonly HeldClaim[];
  /** Work in flight that `held` does not list, per pool (already counted against its pool). */
  readonly busy?: ReadonlyMap<string, number>;
  /** Ready items, best first by the queue policy; read only as far as free slots reach. */
  readonly ready: Iterable<ReadyItem>;
  /** Items neither ready, nor final, nor in flight (a backoff, a claim elsewhere): not idle while any. */
  readonly waiting?: number;
  /** Items in review or merged and waiting for their deployment: not idle while any. */
  readonly reviewing?: readonly ReviewingItem[];
  /** Money caps and what they have left; absent: none apply. */
  readonly budget?: StepBudget;
  /**
   * Ready items the face holds back, unread, because a cap they did not fit under has not moved
   * since: not idle while any, but when nothing else is left the fleet is paused by its budget.
   */
  readonly heldByBudget?: number;
}

export interface StepOptions {
  /** Attempts (grants, reclaims included) before the item goes to a human. */
  readonly maxAttempts: number;
  /** Delay before attempt n+1 after a retryable failure of attempt n. */
  readonly backoffMs: (attempt: number) => number;
  readonly poolSize: (pool: string) => number;
  /** Every pool there is, when known: once all are full, the ready items are read no further (they may be a lazy feed). */
  readonly pools?: readonly string[];
}
