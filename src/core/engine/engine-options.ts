import type { QueuePolicy } from "../queue/queue-policy-type.js";
import { hybrid } from "../queue/queue-policy.js";
import type { SpendLedger } from "../budget/spend-ledger.js";

/** Money for the local drain (DESIGN.md, "Budgets"): the ledger holding the caps, and what an item reserves by default. */
export interface EngineBudget {
  /** Spend and reservations, shared with every drain over the same state folder; it knows the caps. */
  readonly ledger: SpendLedger;
  /** What an item whose brief sets no `budget.usd` reserves (micro-dollars): `--item-usd`. */
  readonly itemCap?: number;
  /** Costs earlier runs reported, by item id (micro-dollars): the p90 of each task class starts from them. */
  readonly pastCosts?: ReadonlyMap<string, readonly number[]>;
}

export interface EngineOptions {
  /** Who holds the claims this engine takes (unique per process). */
  readonly holder: string;
  /** How many items may be in flight at once. */
  readonly pool: number;
  readonly leaseMs: number;
  /** Attempts (grants) before a retryable failure goes to a human instead. */
  readonly maxAttempts: number;
  /** Delay before attempt n+1 after a retryable failure of attempt n. */
  readonly backoffMs: (attempt: number) => number;
  /** How often to look again while another holder's claim is live. */
  readonly pollMs: number;
  readonly policy: QueuePolicy;
  /** Money caps, when any: items reserve before dispatch and wait when they do not fit. */
  readonly budget?: EngineBudget;
  /** Who runs the items (an agent preset's name, `command`), journalled on each DISPATCH. */
  readonly agent?: string;
}

/** Exponential backoff from `baseMs`, doubling per attempt, capped at `capMs`. */
export const exponentialBackoff =
  (baseMs: number, capMs: number) =>
  (attempt: number): number =>
    Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));

export const ENGINE_DEFAULTS = {
  pool: 4,
  leaseMs: 5 * 60_000,
  maxAttempts: 3,
  backoffMs: exponentialBackoff(1000, 5 * 60_000),
  pollMs: 1000,
  policy: hybrid,
} as const;
