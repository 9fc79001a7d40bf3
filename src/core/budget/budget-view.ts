import type { BudgetWindow } from "./budget-cap.js";

/** Micro-dollars by what became of the runs they paid for (claim-spend.ts, `outcomeOf`). */
export interface SpendByOutcome {
  /** Runs whose work was accepted: their pull request merged, the item done. */
  readonly accepted: number;
  /** Runs that failed, were refused, went to a human, were retried or reclaimed: accepted by nobody. */
  readonly failed: number;
  /** Runs in flight, or whose pull request is still in review (or merged, waiting for its deployment). */
  readonly open: number;
}

/** One cap as the dashboard shows it: what its window has spent and reserved, and when it resets. */
export interface CapUse {
  /** Where it is written: `budgets.fleet.day_usd`, `budgets.pools.fast.week_usd`. */
  readonly name: string;
  readonly window: BudgetWindow;
  /** The pool it caps; undefined: the fleet. */
  readonly pool?: string;
  /** The cap, micro-dollars. */
  readonly micros: number;
  /** Spent in its window: reported costs, and reservations of runs that reported none. */
  readonly spent: number;
  /** Reserved by runs in flight. */
  readonly reserved: number;
  /** When its window ends (ms). */
  readonly resetsAt: number;
}

/** The money side of the dashboard (docs/budgets.md): each cap's use, and the fleet's spend today and this week by outcome. */
export interface BudgetView {
  readonly caps: readonly CapUse[];
  readonly today: SpendByOutcome;
  readonly week: SpendByOutcome;
}
