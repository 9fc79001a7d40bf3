import type { QueuePolicy } from "../queue/queue-policy-type.js";
import { hybrid } from "../queue/queue-policy.js";

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
