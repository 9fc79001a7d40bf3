import type { Brief, BriefProblem } from "../brief/brief.js";
import type { BudgetView } from "../budget/budget-view.js";
import type { Approval, ClaimRecord } from "../claims/claim-record.js";
import type { UnstampedEvent } from "../journal/journal-emitter.js";
import type { Disposition } from "../stop/stop.js";
import type { StatusExtras } from "./status-comment.js";

/** A record the tick's batch writes: moved from `from` (the head it read) or not at all. */
export interface PlannedWrite {
  readonly n: number;
  readonly ref: string;
  readonly from: string | undefined;
  readonly next: ClaimRecord;
  /** A grant: the batch then also moves the generation ref, so pools cannot overfill. */
  readonly grant: boolean;
}

/** What follows a written batch, in order; each names its item. Nothing here happens if the batch lost. */
export type PlannedEffect =
  /**
   * Post the frozen brief, unless Bosun's latest snapshot on the issue already has its hash.
   * `first`: the item's first approval ever recorded, so no snapshot of Bosun's can be there yet.
   */
  | { readonly kind: "snapshot"; readonly n: number; readonly brief: Brief; readonly approval: Approval; readonly first: boolean }
  /** One comment listing every problem of an approved brief that does not validate. */
  | { readonly kind: "problems"; readonly n: number; readonly problems: readonly BriefProblem[]; readonly approval: Approval }
  /**
   * Render the status comment from the record; `create`: this writer won the approval (or the
   * grant), so it posts it when there is none; `first`: the item's first approval ever, so none can be there yet.
   */
  | { readonly kind: "status"; readonly n: number; readonly record: ClaimRecord; readonly extras: StatusExtras; readonly create: boolean; readonly first?: boolean }
  /** Hand a granted item to its pool's agent (with the token the batch minted for `key`); `reserve`: the micro-dollars its grant reserved. */
  | { readonly kind: "dispatch"; readonly n: number; readonly key: string; readonly brief: Brief; readonly hash: string; readonly pool: string; readonly reserve?: number }
  /** The item is done and its issue still open: close it as completed. */
  | { readonly kind: "close"; readonly n: number }
  | { readonly kind: "journal"; readonly event: UnstampedEvent };

/** What the dashboard shows, decided from the same facts as the tick. */
export interface TickView {
  readonly idle: boolean;
  readonly queue: ReadonlyArray<{ readonly pool: string; readonly items: ReadonlyArray<{ readonly n: number; readonly title: string; readonly band: number; readonly reason: string }> }>;
  readonly inFlight: ReadonlyArray<{ readonly n: number; readonly title: string; readonly pool: string; readonly holder: string; readonly epoch: number; readonly leaseUntil: number }>;
  readonly review: ReadonlyArray<{ readonly n: number; readonly title: string; readonly pull: number; readonly state: "review" | "merged"; readonly gate?: string }>;
  readonly needsHuman: ReadonlyArray<{ readonly n: number; readonly title: string; readonly reason: string }>;
  readonly waiting: ReadonlyArray<{ readonly n: number; readonly title: string; readonly reason: string }>;
  /** Invalid approved briefs, each with its problems by field as the body holds them now. */
  readonly invalid: ReadonlyArray<{ readonly n: number; readonly title: string; readonly problems: readonly string[] }>;
  /** Things a maintainer should know: a claim ref someone else wrote, an approval that does not count. */
  readonly notes: ReadonlyArray<{ readonly n: number; readonly title: string; readonly note: string }>;
  /** What this tick landed or moved on. */
  readonly landed: ReadonlyArray<{ readonly n: number; readonly title: string; readonly disposition: Disposition | "review" | "merged"; readonly summary: string }>;
  /** Spend against each cap of `budgets:`, and by outcome (docs/budgets.md); absent when no money is watched. */
  readonly budget?: BudgetView;
  /** Nothing is in flight and what is queued waits only for money: the cap that holds it, as people read it. */
  readonly paused?: string;
}

/** A tick's decisions: the one batch, what follows it, the labels to mirror, and the view. */
export interface TickPlan {
  readonly writes: readonly PlannedWrite[];
  readonly effects: readonly PlannedEffect[];
  /** Items whose labels must change, with their whole new set. */
  readonly labels: ReadonlyArray<{ readonly n: number; readonly labels: readonly string[] }>;
  /**
   * Items the plan would grant once screened (their approval read again from the events,
   * the evidence probe asked): the tick reads those facts and plans again.
   */
  readonly screen: readonly number[];
  readonly view: TickView;
}
