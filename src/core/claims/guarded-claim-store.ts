import type { ClaimStore, KeyState } from "./claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode } from "./claim-token.js";
import type { ClaimNamespace } from "./similarity-guard.js";
import { canBeSimilar, findSimilarKey } from "./similarity-guard.js";

/** The keys a store knows to be live, or settled within the last `recentMs`: what a new key is compared to. */
export interface ClaimKeyIndex {
  activeKeys(now: number, recentMs: number): Promise<readonly string[]>;
}

/** How long a completed claim still gates similar new ones. */
export const RECENT_MS = 24 * 3_600_000;

/**
 * A claim store with the similarity guard in front: a key too much like a live or recently
 * completed one is denied as `similar` (probably the same work under another name). Denials are
 * counted by reason. The guard is a check before the lock, not part of it: it stops duplicate
 * work filed under two names, while the store's compare-and-swap alone stops double dispatch.
 */
export class GuardedClaimStore implements ClaimStore {
  constructor(
    private readonly inner: ClaimStore,
    private readonly index: ClaimKeyIndex,
    private readonly namespaces: Readonly<Record<string, ClaimNamespace>> = {},
    private readonly recentMs = RECENT_MS,
    /** Denials by reason; pass one map to keep counting across guards (e.g. one per configuration). */
    readonly denials = new Map<DenyReason, number>(),
  ) {}

  async claim(key: string, holder: string, leaseMs: number, now: number): Promise<ClaimResult> {
    // The index is read only for a key that could match: listing every live and recent key costs
    // a read of the whole store, once per claim.
    const similar = canBeSimilar(key) ? findSimilarKey(key, await this.index.activeKeys(now, this.recentMs), this.namespaces) : undefined;
    const result: ClaimResult = similar
      ? { granted: false, reason: "similar", detail: `too much like ${similar.key} (shares ${similar.shared.join(", ")})` }
      : await this.inner.claim(key, holder, leaseMs, now);
    if (!result.granted) this.count(result.reason);
    return result;
  }

  /**
   * The guard alone, for a caller that grants in batches: a `similar` denial (counted) when the key
   * is too much like a live or recent one, or like one of `pending` (granted in the same batch).
   */
  async screen(key: string, now: number, pending: readonly string[] = []): Promise<{ reason: "similar"; detail: string } | undefined> {
    const similar = canBeSimilar(key) ? findSimilarKey(key, [...(await this.index.activeKeys(now, this.recentMs)), ...pending], this.namespaces) : undefined;
    if (similar === undefined) return undefined;
    this.count("similar");
    return { reason: "similar", detail: `too much like ${similar.key} (shares ${similar.shared.join(", ")})` };
  }

  /** Counts a denial decided elsewhere (a batch's held, not-ready or evidence). */
  count(reason: DenyReason): void {
    this.denials.set(reason, (this.denials.get(reason) ?? 0) + 1);
  }

  renew(token: ClaimToken, leaseMs: number, now: number): ReturnType<ClaimStore["renew"]> {
    return this.inner.renew(token, leaseMs, now);
  }

  release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    return this.inner.release(token, mode, now);
  }

  reclaimStale(now: number): Promise<readonly ClaimView[]> {
    return this.inner.reclaimStale(now);
  }

  inspect(key: string, now: number): Promise<KeyState> {
    return this.inner.inspect(key, now);
  }
}
