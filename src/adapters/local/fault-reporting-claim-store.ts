import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, FencedResult, ReleaseMode } from "../../core/claims/claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";

/**
 * Errors that mean the state folder itself is failing, not one claim: the drain cannot go on.
 * Not ENOENT: a claim file renamed by another drain between two reads is an ordinary race (a
 * vanished state folder is caught by the journal and the dispatcher instead).
 */
const FATAL = new Set(["ENOSPC", "EDQUOT", "EROFS", "EIO", "EACCES", "EPERM"]);

/**
 * A local claim store that tells `onFault` when the disk under it fails (a full disk, a read-only
 * or vanished state folder), then rethrows. The engine treats a throwing store as "ask again
 * later", which on a full disk is forever; the drain instead stops, which releases the claims.
 */
export class FaultReportingClaimStore implements ClaimStore, ClaimKeyIndex {
  constructor(
    private readonly inner: ClaimStore & ClaimKeyIndex,
    private readonly onFault: (message: string) => void,
  ) {}

  claim(key: string, holder: string, leaseMs: number, now: number): Promise<ClaimResult> {
    return this.watch(`claiming ${key}`, () => this.inner.claim(key, holder, leaseMs, now));
  }

  renew(token: ClaimToken, leaseMs: number, now: number): ReturnType<ClaimStore["renew"]> {
    return this.watch(`renewing ${token.key}`, () => this.inner.renew(token, leaseMs, now));
  }

  release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    return this.watch(`releasing ${token.key}`, () => this.inner.release(token, mode, now));
  }

  reclaimStale(now: number): Promise<readonly ClaimView[]> {
    return this.watch("reclaiming expired leases", () => this.inner.reclaimStale(now));
  }

  inspect(key: string, now: number): Promise<KeyState> {
    return this.watch(`reading ${key}`, () => this.inner.inspect(key, now));
  }

  activeKeys(now: number, recentMs: number): Promise<readonly string[]> {
    return this.watch("listing active keys", () => this.inner.activeKeys(now, recentMs));
  }

  private async watch<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== undefined && FATAL.has(code)) this.onFault(`the claim store failed ${what}: ${code}`);
      throw err;
    }
  }
}
