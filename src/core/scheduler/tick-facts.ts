import type { Brief, BriefProblem } from "../brief/brief.js";
import type { Approval, ClaimRecord } from "../claims/claim-record.js";
import type { DenyReason } from "../claims/claim-token.js";
import type { BosunConfig } from "../config/bosun-config.js";
import type { GateFact, WorkerState } from "../engine/step-state.js";

/**
 * Everything a tick decides from, read once by the gather stage (docs/scheduling.md, "The tick"):
 * plain data, so the plan is a pure function of it and can be tested as a table.
 */
export interface TickFacts {
  readonly now: number;
  /** This writer's holder name (a replica, an Action run). */
  readonly holder: string;
  readonly config: BosunConfig;
  /** Every item the tick knows of: approval-labelled open issues, and every claim ref. */
  readonly items: readonly ItemFacts[];
}

/** The issue as listed or read. */
export interface IssueFacts {
  readonly title: string;
  readonly labels: readonly string[];
  /** ms */
  readonly createdAt: number;
  readonly open: boolean;
  /** Closed as completed (a merged pull request closing it, or a person). */
  readonly completed: boolean;
  readonly author: string;
  /** The brief the body holds now. */
  readonly brief: BodyBrief;
}

export type BodyBrief = { readonly ok: true; readonly brief: Brief; readonly hash: string } | { readonly ok: false; readonly problems: readonly BriefProblem[] };

/**
 * What the issue's events say of its approval label: the newest `labeled` or `unlabeled` event of
 * it, and for a `labeled` one whether its actor may approve (the approval rule, checked against
 * GitHub's record of the actor's role).
 *
 * `bodyEditedAt`: when the issue's body was last edited (GitHub's `lastEditedAt`, whole seconds;
 * null: never), read with the body it goes with whenever this approval is not the one recorded.
 * A body edited at or after the approval is text nobody approved. Undefined: not known (not read,
 * or read while the body was moving): the approval is not taken in until it is.
 */
export type ApprovalFacts =
  | { readonly kind: "approved"; readonly approval: Approval; readonly bodyEditedAt?: number | null }
  | { readonly kind: "refused"; readonly approval: Approval; readonly why: string }
  | { readonly kind: "withdrawn"; readonly by: string; readonly at: number }
  | { readonly kind: "none" };

/** The item's pull request, as GitHub lists it. */
export interface PullFacts {
  readonly number: number;
  readonly state: "open" | "merged" | "closed";
  readonly head: string;
  readonly mergeSha?: string;
  /** Its head branch is Bosun's own for the item (`bosun/<n>-…`, in this repository). */
  readonly bosunBranch: boolean;
}

/** One item: issue `n`, its claim ref, and what was read about it this tick. */
export interface ItemFacts {
  readonly n: number;
  readonly ref: string;
  /** The ref's head as listed (undefined: no ref): every write moves it from here or fails. */
  readonly sha: string | undefined;
  /** The record Bosun wrote for it (signed by GitHub for the App), if any. */
  readonly record?: ClaimRecord;
  /** The ref's head was written by someone else: not believed, and shown. */
  readonly forged?: { readonly signedBy: string | undefined };
  /** The issue; undefined when it is gone (or could not be found after asking again). */
  readonly issue?: IssueFacts;
  /** Read when an approval may have to be recorded or checked before a grant. */
  readonly approval?: ApprovalFacts;
  /** What can be seen of a held claim's worker. */
  readonly worker?: WorkerState;
  /** The item's pull request (the one its record names, else the one linked to it). */
  readonly pull?: PullFacts;
  /** The gate's verdict on the pull request's head, as the App posted it. */
  readonly gate?: GateFact;
  /** With no record: the highest epoch the item had (its floor, and run names), so a grant starts above it. */
  readonly floor: number;
  /** With no record: a run titled for the item is still queued or in progress. */
  readonly runLive?: boolean;
  /** Why a grant would duplicate work already under way (an open pull request or a branch of someone else's); null: probed, none. Undefined: not probed yet. */
  readonly evidence?: string | null;
  /** A grant of this item was screened and denied this tick (the similarity guard, the evidence probe). */
  readonly denied?: { readonly reason: DenyReason; readonly detail: string };
}
