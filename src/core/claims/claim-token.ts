declare const claimBrand: unique symbol;

/**
 * Proof that a claim was granted: the only thing `dispatch` accepts. The brand is a symbol no
 * module can name, so a token cannot be written as a literal; only a claim store mints one
 * (through mint-claim-token.ts, whose import lint allows in claim stores alone).
 */
export interface ClaimToken {
  readonly [claimBrand]: true;
  readonly key: string;
  readonly holder: string;
  /** Fencing token: grows with every grant of this key; a land or release with an older one is refused. */
  readonly epoch: number;
  /** Lease end, ms since the epoch, as of the grant or the last renewal. */
  readonly expiresAt: number;
}

/** Why a claim was not granted (DESIGN.md, "Claims"). */
export type DenyReason = "held" | "similar" | "not-ready" | "evidence";

export type ClaimResult =
  | { readonly granted: true; readonly token: ClaimToken }
  | { readonly granted: false; readonly reason: DenyReason; readonly detail: string };

/** How an item's claim ends: released for another try, or settled for good with its outcome. */
export type ReleaseMode =
  | { readonly kind: "retry"; readonly notBefore: number }
  | { readonly kind: "settle"; readonly outcome: SettledOutcome };

/** The final word on an item, kept by the store so every holder sees it. */
export interface SettledOutcome {
  readonly ok: boolean;
  readonly disposition: "ok" | "refuse" | "human";
  readonly summary: string;
}

export type FencedResult = { readonly ok: true } | { readonly ok: false; readonly reason: "stale" | "lost"; readonly detail: string };

/** A claim someone else holds (or held until its lease ran out), for idle checks and reclaim. */
export interface ClaimView {
  readonly key: string;
  readonly holder: string;
  readonly epoch: number;
  readonly expiresAt: number;
}
