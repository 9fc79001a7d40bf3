import type { ClaimResult, DenyReason } from "../../core/claims/claim-token.js";
import type { ClaimRecord } from "./claim-record.js";
import type { GrantFacts } from "./grant-facts.js";

/** What deciding a grant reads besides the claim's own record. */
export interface ClaimSources {
  /** Work already under way for a key (an open pull request or branch linked to it): a grant would duplicate it. */
  readonly evidence: ((key: string) => Promise<string | undefined>) | undefined;
  /** The highest epoch an item with no claim ref had before its ref was cleaned up (0: never claimed). */
  readonly floorOf: (ref: string) => Promise<number>;
}

/** Denied (and why), already held by this very holder, or the record a grant writes. */
export type ClaimDecision = { readonly denied: ClaimResult & { granted: false } } | { readonly mine: ClaimRecord } | { readonly next: ClaimRecord };

/** Whether a key may be granted over its current record, and the record a grant writes. */
export async function decideClaim(sources: ClaimSources, key: string, ref: string, current: ClaimRecord | undefined, holder: string, leaseMs: number, now: number, grant: GrantFacts, aboveEpoch = 0): Promise<ClaimDecision> {
  const deny = (reason: DenyReason, detail: string) => ({ denied: { granted: false as const, reason, detail } });
  if (current?.state === "settled") return deny("not-ready", `settled: ${current.outcome?.summary ?? ""}`);
  if (current?.state === "held") {
    if (current.leaseUntil > now && current.holder === holder) return { mine: current };
    // One rule on every store: an expired lease is not granted over until it is reclaimed (the
    // reclaim is where the attempt is counted, and where a live worker is seen first).
    return deny("held", current.leaseUntil > now ? `held by ${current.holder} (epoch ${current.epoch})` : `held by ${current.holder} (epoch ${current.epoch}) until the expired lease is reclaimed`);
  }
  if (current?.notBefore !== undefined && current.notBefore > now) return deny("not-ready", `retry not before ${new Date(current.notBefore).toISOString()}`);
  const evidence = await sources.evidence?.(key);
  if (evidence !== undefined) return deny("evidence", evidence);
  // Epochs never go back: with no claim ref, the item starts above the floor its cleanup left.
  // And above any epoch the caller saw elsewhere (runs titled for the item, its ref deleted).
  const base = Math.max(current?.epoch ?? (await sources.floorOf(ref)), aboveEpoch);
  const next: ClaimRecord = { key, holder, epoch: base + 1, state: "held", leaseUntil: now + leaseMs, at: now, grantedAt: now, ...grant };
  return { next };
}
