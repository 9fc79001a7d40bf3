import type { ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode, SettledOutcome } from "../../core/claims/claim-token.js";
import type { ClaimRecord } from "../../core/claims/claim-record.js";
import { fence, grantOver, reclaimed, released, type GrantFacts } from "../../core/claims/record-transitions.js";
import type { ClaimBatch } from "./claim-batch.js";

/** What planning reads: the record believed on a ref, where a key's claims live, epoch floors, work under way. */
export interface PlanReads {
  readonly current: (ref: string) => Promise<{ sha: string | undefined; record: ClaimRecord | undefined }>;
  readonly refOf: (key: string) => string;
  readonly floorOf: (ref: string) => Promise<number>;
  /** Work already under way for a key (an open pull request or branch linked to it): a grant would duplicate it. */
  readonly evidence: ((key: string) => Promise<string | undefined>) | undefined;
}

/**
 * The claim rules of the GitHub store (github-claim-store.ts), applied into a batch: each plan
 * reads the record the batch would leave on the ref (else the one believed there now) and adds the
 * next record to the batch, or answers why not. Nothing is written until the batch is committed.
 */
export class ClaimBatchPlanner {
  constructor(private readonly reads: PlanReads) {}

  /** The record a batch will leave on a ref, else its current one. */
  async planned(batch: ClaimBatch, ref: string): Promise<{ from: string | undefined; record: ClaimRecord | undefined }> {
    const write = batch.writes.get(ref);
    if (write !== undefined) return { from: write.from, record: write.record };
    const { sha, record } = await this.reads.current(ref);
    return { from: sha, record };
  }

  /**
   * Plans a grant (the same rules as `claim`); the token comes from `commitBatch`. `grant` is
   * recorded in the claim (the pool it counts against, the snapshot it dispatches). `overSettled`:
   * the item was proven approved again after it settled (a newer snapshot), so its outcome no
   * longer stands in the way (the epoch still grows: workers of the settled epochs stay fenced out).
   */
  async planClaim(batch: ClaimBatch, key: string, holder: string, leaseMs: number, grant: GrantFacts = {}, overSettled = false, aboveEpoch = 0): Promise<{ planned: true } | { planned: false; reason: DenyReason; detail: string }> {
    const ref = this.reads.refOf(key);
    const { from, record: current } = await this.planned(batch, ref);
    const record = overSettled && current?.state === "settled" ? { ...current, state: "released" as const } : current;
    const floor = Math.max(record === undefined ? await this.reads.floorOf(ref) : 0, aboveEpoch);
    const decided = grantOver(record, key, holder, leaseMs, batch.now, grant, floor);
    if ("denied" in decided) return { planned: false, reason: decided.denied.reason, detail: decided.denied.detail };
    // Work already under way for the key (an open pull request or branch linked to it): a grant would duplicate it.
    const evidence = await this.reads.evidence?.(key);
    if (evidence !== undefined) return { planned: false, reason: "evidence", detail: evidence };
    // A live claim of this very holder is not granted twice in one tick.
    if ("mine" in decided) return { planned: false, reason: "held", detail: `already held by ${holder} (epoch ${decided.mine.epoch})` };
    batch.writes.set(ref, { from, record: decided.next, grant: true });
    batch.granting = true;
    return { planned: true };
  }

  /** Plans a release (landing); fenced by the token's epoch like `release`. */
  planRelease(batch: ClaimBatch, token: ClaimToken, mode: ReleaseMode): Promise<FencedResult> {
    return this.planFenced(batch, token, (record) => released(record, mode, batch.now));
  }

  /**
   * Plans a lease renewal. `revive`: the lease lapsed while its worker visibly lived and nobody
   * reclaimed it; the claim is still this epoch's, so the compare-and-swap from the record read
   * here renews it (a reclaim or a newer grant since would move the ref and refuse the batch).
   */
  planRenew(batch: ClaimBatch, token: ClaimToken, leaseMs: number, revive = false): Promise<FencedResult> {
    return this.planFenced(batch, token, (record) => ({ ...record, leaseUntil: batch.now + leaseMs, at: batch.now }), revive);
  }

  /** Plans the next record of a claim the token still holds (its epoch, its holder, a live lease unless reviving). */
  async planFenced(batch: ClaimBatch, token: ClaimToken, next: (record: ClaimRecord) => ClaimRecord, revive = false): Promise<FencedResult> {
    const ref = this.reads.refOf(token.key);
    const { from, record } = await this.planned(batch, ref);
    const fenced = fence(record, token, revive ? Number.NEGATIVE_INFINITY : batch.now);
    if (!fenced.ok) return fenced;
    batch.writes.set(ref, { from, record: next(record as ClaimRecord), grant: false });
    return { ok: true };
  }

  /**
   * Plans the reclaim of an expired claim on a listed ref; the view of what it takes back, or
   * undefined. `settle`: its attempts are spent, so it ends settled (for a human) instead of going
   * back to the queue.
   */
  async planReclaim(batch: ClaimBatch, ref: string, settle?: SettledOutcome): Promise<ClaimView | undefined> {
    const { from, record } = await this.planned(batch, ref);
    if (record?.state !== "held" || record.leaseUntil > batch.now) return undefined;
    batch.writes.set(ref, { from, record: settle === undefined ? reclaimed(record, batch.now) : released(record, { kind: "settle", outcome: settle }, batch.now), grant: false });
    return viewOf(record);
  }
}

/** A claim record as the store's callers see a claim. */
export const viewOf = (r: ClaimRecord): ClaimView => ({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
