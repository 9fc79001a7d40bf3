import type { BudgetCap } from "./budget-cap.js";

/** The money caps a drain over a state folder set, as it recorded them when it started. */
export interface RecordedCaps {
  /** Which drain set them, and when (ms). */
  readonly holder: string;
  readonly at: number;
  readonly caps: readonly BudgetCap[];
  /** What an item reserves when its brief names no figure (`--item-usd`), micro-dollars. */
  readonly itemCap?: number;
}
