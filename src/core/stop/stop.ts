/** The budget a run ran out of. */
export type BudgetLimit = "steps" | "tokens" | "wall_clock" | "tool_errors" | "usd";

/** How a failed run is classified: retried, refused for good, or handed to a human. */
export type FailureClass = "retry" | "refuse" | "unclassified";

/**
 * How a worker's run ended (DESIGN.md, "Stop reasons"). `done` claims completion (a gate decides);
 * `out_of_budget` and `blocked` need a human; `failed` carries its classification.
 */
export type Stop =
  | { readonly kind: "done"; readonly reason?: string }
  | { readonly kind: "out_of_budget"; readonly limit: BudgetLimit; readonly reason?: string }
  | { readonly kind: "blocked"; readonly reason: string }
  | { readonly kind: "failed"; readonly failure: FailureClass; readonly reason: string };

export const STOP_KINDS = ["done", "out_of_budget", "blocked", "failed"] as const;
export const BUDGET_LIMITS = ["steps", "tokens", "wall_clock", "tool_errors", "usd"] as const;
export const FAILURE_CLASSES = ["retry", "refuse", "unclassified"] as const;

export const done = (reason?: string): Stop => (reason === undefined ? { kind: "done" } : { kind: "done", reason });
export const outOfBudget = (limit: BudgetLimit, reason?: string): Stop =>
  reason === undefined ? { kind: "out_of_budget", limit } : { kind: "out_of_budget", limit, reason };
export const blocked = (reason: string): Stop => ({ kind: "blocked", reason });
export const failed = (failure: FailureClass, reason: string): Stop => ({ kind: "failed", failure, reason });

/**
 * What the engine does with a stop: land it ok, retry it, refuse it for good, or hand it to a human.
 * Out of budget and blocked go to a human (re-scope or decide); cannot-classify is never guessed.
 */
export type Disposition = "ok" | "retry" | "refuse" | "human";

export function dispositionOf(stop: Stop): Disposition {
  switch (stop.kind) {
    case "done":
      return "ok";
    case "out_of_budget":
    case "blocked":
      return "human";
    case "failed":
      return stop.failure === "retry" ? "retry" : stop.failure === "refuse" ? "refuse" : "human";
  }
}

/** Renders a stop in one line: `out_of_budget(wall_clock)`, `failed/retry: exit 75`. */
export function describeStop(stop: Stop): string {
  switch (stop.kind) {
    case "done":
      return stop.reason === undefined ? "done" : `done: ${stop.reason}`;
    case "out_of_budget":
      return `out_of_budget(${stop.limit})${stop.reason === undefined ? "" : `: ${stop.reason}`}`;
    case "blocked":
      return `blocked: ${stop.reason}`;
    case "failed":
      return `failed/${stop.failure}: ${stop.reason}`;
  }
}
