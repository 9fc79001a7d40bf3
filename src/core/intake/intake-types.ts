import type { Labels } from "../config/labels.js";

/** A comment on the issue as the intake sees it: enough to recognise the bot's own comments. */
export interface IntakeComment {
  readonly id: number;
  readonly author: string;
  /** GitHub's `user.type === "Bot"`: a human named like the bot is still not the bot. */
  readonly authorIsBot: boolean;
  readonly body: string;
}

/** The issue's CURRENT state, read from the API (webhook payloads can be stale or reordered). */
export interface IssueView {
  readonly number: number;
  readonly title: string;
  readonly state: "open" | "closed";
  readonly body: string;
  readonly labels: readonly string[];
  /** Only filled when the decision needs them (see `intakeReads`). */
  readonly comments: readonly IntakeComment[];
}

/** What a webhook says happened: a hint to look at the issue, never the truth about it. */
export type IntakeEvent =
  | {
      readonly kind: "labeled";
      readonly label: string;
      readonly sender: string;
      /** Write, maintain or admin on the repository, checked through the API. */
      readonly senderCanWrite: boolean;
      /** The body as it was when the label was added (the payload's), i.e. the text approved. */
      readonly approvedBody?: string;
    }
  | { readonly kind: "unlabeled"; readonly label: string; readonly sender: string }
  | { readonly kind: "edited"; readonly sender: string }
  | { readonly kind: "closed"; readonly sender: string };

/** One effect on GitHub; the executor performs them in order. */
export type IntakeAction =
  | { readonly kind: "comment"; readonly body: string }
  | { readonly kind: "update-comment"; readonly commentId: number; readonly body: string }
  | { readonly kind: "add-labels"; readonly labels: readonly string[] }
  | { readonly kind: "remove-label"; readonly label: string }
  | { readonly kind: "noop"; readonly reason: string };

/**
 * `stale`: what was read does not yet show what the webhook says happened (an approval whose
 * label the read does not carry): read again, never conclude from it.
 */
export type IntakeOutcome = "queued" | "invalid" | "held" | "left" | "ignored" | "unchanged" | "stale";

/** What the intake decided for one event, and why (for the log). */
export interface IntakeDecision {
  readonly outcome: IntakeOutcome;
  readonly reason: string;
  readonly actions: readonly IntakeAction[];
}

/** Everything `decideIntake` needs besides the issue: who the bot is and what the labels are called. */
export interface IntakeContext {
  readonly botLogin: string;
  readonly labels: Labels;
}
