import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, FencedResult, ReleaseMode, SettledOutcome } from "../../core/claims/claim-token.js";
import { mintClaimToken } from "../../core/claims/mint-claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";

interface Entry {
  epoch: number;
  settledAt?: number;
  live?: ClaimView;
  settled?: SettledOutcome;
  notBefore?: number;
}

/** The claim store in memory: for tests, benchmarks and `--dry-run`. Same contract as every store. */
export class MemoryClaimStore implements ClaimStore, ClaimKeyIndex {
  private readonly entries = new Map<string, Entry>();
  /** Effects as readable strings, in order (prow's fakegithub style), for tests to assert on. */
  readonly effects: string[] = [];

  constructor(private readonly record = false) {}

  async claim(key: string, holder: string, leaseMs: number, now: number): Promise<ClaimResult> {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      entry = { epoch: 0 };
      this.entries.set(key, entry);
    }
    if (entry.settled !== undefined) return { granted: false, reason: "not-ready", detail: `settled: ${entry.settled.summary}` };
    const live = entry.live;
    if (live !== undefined && live.expiresAt > now) {
      if (live.holder === holder) return { granted: true, token: mintClaimToken(live) };
      return { granted: false, reason: "held", detail: `held by ${live.holder} (epoch ${live.epoch})` };
    }
    // One rule on every store: an expired lease is reclaimed (counting the attempt) before anyone is granted.
    if (live !== undefined) return { granted: false, reason: "held", detail: `held by ${live.holder} (epoch ${live.epoch}) until the expired lease is reclaimed` };
    if (entry.notBefore !== undefined && entry.notBefore > now) {
      return { granted: false, reason: "not-ready", detail: `retry not before ${new Date(entry.notBefore).toISOString()}` };
    }
    entry.epoch += 1;
    entry.live = { key, holder, epoch: entry.epoch, expiresAt: now + leaseMs };
    if (this.record) this.effects.push(`claim ${key} ${holder} epoch=${entry.epoch}`);
    return { granted: true, token: mintClaimToken(entry.live) };
  }

  async renew(token: ClaimToken, leaseMs: number, now: number): Promise<{ ok: true; token: ClaimToken } | { ok: false; reason: "stale" | "lost"; detail: string }> {
    const fenced = this.fence(token);
    if (!fenced.ok) return fenced;
    const entry = this.entries.get(token.key) as Entry;
    entry.live = { key: token.key, holder: token.holder, epoch: token.epoch, expiresAt: now + leaseMs };
    return { ok: true, token: mintClaimToken(entry.live) };
  }

  async release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    const fenced = this.fence(token);
    if (!fenced.ok) return fenced;
    const entry = this.entries.get(token.key) as Entry;
    // A lease that ran out may be reclaimed this instant: a land on it cannot be trusted (as on every store).
    if ((entry.live as ClaimView).expiresAt <= now) return { ok: false, reason: "lost", detail: `lease of epoch ${token.epoch} ran out before the land` };
    delete entry.live;
    if (mode.kind === "settle") {
      entry.settled = mode.outcome;
      entry.settledAt = now;
    } else entry.notBefore = mode.notBefore;
    if (this.record) this.effects.push(`release ${token.key} epoch=${token.epoch} ${mode.kind}`);
    return { ok: true };
  }

  async activeKeys(now: number, recentMs: number): Promise<readonly string[]> {
    const keys: string[] = [];
    for (const [key, entry] of this.entries) {
      if ((entry.live !== undefined && entry.live.expiresAt > now) || (entry.settledAt !== undefined && entry.settledAt >= now - recentMs)) keys.push(key);
    }
    return keys;
  }

  async reclaimStale(now: number): Promise<readonly ClaimView[]> {
    const taken: ClaimView[] = [];
    for (const entry of this.entries.values()) {
      if (entry.live !== undefined && entry.live.expiresAt <= now) {
        taken.push(entry.live);
        if (this.record) this.effects.push(`reclaim ${entry.live.key} from ${entry.live.holder} epoch=${entry.live.epoch}`);
        delete entry.live;
      }
    }
    return taken;
  }

  async inspect(key: string, _now: number): Promise<KeyState> {
    const entry = this.entries.get(key);
    if (entry === undefined) return { epoch: 0 };
    return {
      epoch: entry.epoch,
      ...(entry.live === undefined ? {} : { live: entry.live }),
      ...(entry.settled === undefined ? {} : { settled: entry.settled }),
      ...(entry.notBefore === undefined ? {} : { notBefore: entry.notBefore }),
    };
  }

  private fence(token: ClaimToken): FencedResult {
    const entry = this.entries.get(token.key);
    if (entry === undefined || entry.epoch !== token.epoch) {
      return { ok: false, reason: "stale", detail: `epoch ${token.epoch} is not the current epoch ${entry?.epoch ?? 0}` };
    }
    if (entry.live === undefined || entry.live.holder !== token.holder) {
      return { ok: false, reason: "lost", detail: `claim on ${token.key} at epoch ${token.epoch} is no longer held` };
    }
    return { ok: true };
  }
}
