import type { DenyReason } from "../claims/claim-token.js";
import type { BudgetLimit, FailureClass } from "../stop/stop.js";
import type { RunCost } from "./run-cost.js";

/** Structured evidence of a run: what ran, how it exited, and the key lines of its output. */
export interface Evidence {
  readonly command: string;
  readonly exit: number | null;
  readonly lines: readonly string[];
}

/** What one run cost (DESIGN.md, "Journal"): the wall clock always, tokens and money where the worker reported them. */
export type { RunCost } from "./run-cost.js";

/** The stop as the journal writes it (DESIGN.md, "Journal"). */
export interface JournalStop {
  readonly kind: "done" | "out_of_budget" | "blocked" | "failed";
  readonly limit?: BudgetLimit;
  readonly reason?: string;
}

interface Base {
  readonly v: 1;
  /** ISO 8601 time of the event. */
  readonly t: string;
}

/** One line of the append-only journal. */
export type JournalEvent =
  | (Base & { readonly event: "CLAIM"; readonly item: string; readonly holder: string; readonly epoch: number })
  | (Base & { readonly event: "DENY"; readonly item: string; readonly holder: string; readonly reason: DenyReason; readonly detail: string })
  | (Base & {
      readonly event: "DISPATCH";
      readonly item: string;
      readonly epoch: number;
      readonly attempt: number;
      readonly tier: string;
      /** The item's task class (its claim key's namespace): what cost per accepted task is grouped by. */
      readonly class?: string;
      /** Who runs it: the drain's agent preset (`claude-code`, `codex`, ...), `command` for `--run`. */
      readonly agent?: string;
      /** What the run reserved under the money caps before it was dispatched (US dollars). */
      readonly reserve_usd?: number;
    })
  | (Base & {
      /** Not dispatched for money (DESIGN.md, "Budgets"): held (it stays queued) or refused (nothing to reserve). */
      readonly event: "HOLD";
      readonly item: string;
      readonly reason: "budget" | "unpriced";
      readonly detail: string;
      /** The cap it did not fit under, what it would reserve, what the cap had left, and when the cap's window ends. */
      readonly cap?: string;
      readonly reserve_usd?: number;
      readonly left_usd?: number;
      readonly resets?: string;
    })
  | (Base & {
      readonly event: "LAND";
      readonly item: string;
      readonly epoch: number;
      readonly ok: boolean;
      readonly stop: JournalStop;
      readonly failure?: FailureClass;
      /** What the engine did with the outcome: settled ok, retried, refused or handed to a human. */
      readonly disposition: "ok" | "retry" | "refuse" | "human";
      readonly evidence?: Evidence;
      /** What the run cost: the wall clock always where Bosun ran the worker, tokens and usd as the worker reported them. */
      readonly cost?: RunCost;
      /** Set when the land was refused because a newer epoch holds the item (fencing). */
      readonly fenced?: string;
    })
  | (Base & {
      readonly event: "GATE";
      readonly item: string;
      /** The task class (the namespace of the brief's claim key, see `taskClassOf`). */
      readonly class: string;
      /** The commit the verdict is about. */
      readonly sha: string;
      readonly verdict: "pass" | "fail" | "could-not-check";
      /** Which face ran the gate: the CLI, the Action, or the App reading the Action's check run. */
      readonly by: "cli" | "action" | "check-run";
    })
  | (Base & { readonly event: "RELEASE"; readonly item: string; readonly epoch: number })
  | (Base & { readonly event: "RECLAIM"; readonly item: string; readonly from: string; readonly epoch: number })
  | (Base & { readonly event: "IDLE"; readonly holder: string; readonly summary: string });

/** Where journal events go: a file, a log, memory. Appends happen as the events happen. */
export interface Journal {
  append(event: JournalEvent): void;
}
