import type { ClaimResult, ClaimToken, ClaimView, FencedResult, ReleaseMode, SettledOutcome } from "./claim-token.js";

/**
 * The claim port (DESIGN.md, "Claims"), one contract suite for every backend.
 * Times are ms since the epoch and come from the caller's clock.
 */
export interface ClaimStore {
  /** Grants the key to `holder` for `leaseMs`, or says why not. Re-claiming by the same live holder returns its token. */
  claim(key: string, holder: string, leaseMs: number, now: number): Promise<ClaimResult>;
  /** Extends a live lease; refused when a newer epoch exists or the claim is gone. */
  renew(token: ClaimToken, leaseMs: number, now: number): Promise<{ ok: true; token: ClaimToken } | { ok: false; reason: "stale" | "lost"; detail: string }>;
  /** Ends the claim: for a retry (the item goes back to the queue) or settled for good. Fenced by epoch. */
  release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult>;
  /** Takes back every claim whose lease ended; the items go back to the queue. */
  reclaimStale(now: number): Promise<readonly ClaimView[]>;
  /** What the store knows of a key: its live claim, its settled outcome, its last epoch. */
  inspect(key: string, now: number): Promise<KeyState>;
}

export interface KeyState {
  readonly live?: ClaimView;
  readonly settled?: SettledOutcome;
  /** The highest epoch granted so far (0 when never claimed): the number of attempts. */
  readonly epoch: number;
  /** A retry's earliest next attempt, ms since the epoch. */
  readonly notBefore?: number;
}
