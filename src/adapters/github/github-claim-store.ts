import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode, SettledOutcome } from "../../core/claims/claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";
import { mintClaimToken } from "../../core/claims/mint-claim-token.js";
import type { ClaimRefsApi } from "./claim-refs-api.js";
import type { ClaimRecord } from "./claim-record.js";
import { renderBatchMessage, renderClaimMessage } from "./claim-record.js";
import { ClaimRefView } from "./claim-ref-view.js";
import type { BatchResult, ClaimBatch } from "./claim-batch.js";
import { fence, reclaimed, released } from "./claim-transitions.js";

export interface GitHubClaimStoreOptions {
  readonly refs: ClaimRefsApi;
  /** Where claim refs live (default `refs/bosun/claims/`). */
  readonly prefix?: string;
  /** Work already under way for a key (an open pull request or branch linked to it): a grant would duplicate it. */
  readonly evidence?: (key: string) => Promise<string | undefined>;
}

/**
 * Claims as git refs on GitHub (DESIGN.md, "Claims"). Each item has a ref pointing at a chain of
 * claim commits whose messages hold `{holder, epoch, leaseUntil, state}`. The only atomic step is
 * GitHub's all-or-nothing `updateRefs`, each ref moved from the commit we read (`force: false`) —
 * so two writers racing from one state cannot both win. Any failure of a write is "unknown" until
 * the refs are read back: a 422 or a 5xx may have landed.
 *
 * Every write is a batch — the scheduler's tick and the single-item port methods alike, so the
 * contract suite drives the path production runs: one commit holding every changed record (its
 * parents are the refs' old heads, so each ref still fast-forwards) and one all-or-nothing update
 * of those refs. A batch that grants also moves the generation ref from the value the tick read:
 * if any other grant landed since, the whole batch is refused, so pools cannot overfill.
 *
 * Epochs never go back: a long-settled claim ref is cleaned up only by moving its record to an
 * epoch floor ref (`<prefix>-floors/<item>`) in the same atomic update, and a grant on an item with
 * no claim ref starts above its floor.
 */
export class GitHubClaimStore implements ClaimStore, ClaimKeyIndex {
  private readonly prefix: string;
  private readonly view: ClaimRefView;
  /** Moved by every granting batch: the compare-and-swap that keeps pools within their size. */
  readonly generationRef: string;
  /** Where cleaned-up claims leave their last record, so the next grant starts above its epoch. */
  readonly floorPrefix: string;
  private readonly floors: ClaimRefView;
  /** Cleanups GitHub refused in this process: not tried again (the ref simply stays). */
  private readonly forgetRefused = new Set<string>();

  constructor(private readonly options: GitHubClaimStoreOptions) {
    this.prefix = options.prefix ?? "refs/bosun/claims/";
    this.generationRef = `${this.prefix}generation`;
    this.floorPrefix = `${this.prefix.replace(/\/+$/, "")}-floors/`;
    this.view = new ClaimRefView(options.refs, this.prefix);
    this.floors = new ClaimRefView(options.refs, this.floorPrefix);
  }

  private readonly bound = new Map<string, string>();

  /** Ties a claim key to its item's ref (`task:x` → `refs/bosun/claims/42`), as the app learns it from the queue. */
  bind(key: string, ref: string): void {
    this.bound.set(key, ref);
  }

  /** The ref a key's claims live on. */
  refOf(key: string): string {
    return this.bound.get(key) ?? `${this.prefix}${key.replace(/:/g, "/")}`;
  }

  async claim(key: string, holder: string, leaseMs: number, now: number): Promise<ClaimResult> {
    for (let attempt = 1; ; attempt++) {
      const batch = this.newBatch(now);
      const planned = await this.planClaim(batch, key, holder, leaseMs);
      if (!planned.planned) {
        const current = (await this.planned(batch, this.refOf(key))).record;
        // Re-claiming by the same live holder is a no-op that returns its token.
        if (planned.reason === "held" && current?.state === "held" && current.holder === holder && current.leaseUntil > now) return { granted: true, token: token(current) };
        return { granted: false, reason: planned.reason, detail: planned.detail };
      }
      const written = await this.commitBatch(batch);
      if (written.ok) return { granted: true, token: written.granted.get(key) as ClaimToken };
      if (!written.conflict) throw new Error(`claim store: ${written.detail}`);
      // Another writer moved first: the listing read back since is the truth, decide on it again.
      if (attempt >= SINGLE_ATTEMPTS) return { granted: false, reason: "held", detail: `lost the race: ${written.detail}` };
    }
  }

  /** Whether a key may be granted over its current record, and the record a grant writes. */
  private async decideClaim(key: string, ref: string, current: ClaimRecord | undefined, holder: string, leaseMs: number, now: number, grant: GrantFacts, aboveEpoch = 0): Promise<{ denied: ClaimResult & { granted: false } } | { mine: ClaimRecord } | { next: ClaimRecord }> {
    const deny = (reason: DenyReason, detail: string) => ({ denied: { granted: false as const, reason, detail } });
    if (current?.state === "settled") return deny("not-ready", `settled: ${current.outcome?.summary ?? ""}`);
    if (current?.state === "held") {
      if (current.leaseUntil > now && current.holder === holder) return { mine: current };
      // One rule on every store: an expired lease is not granted over until it is reclaimed (the
      // reclaim is where the attempt is counted, and where a live worker is seen first).
      return deny("held", current.leaseUntil > now ? `held by ${current.holder} (epoch ${current.epoch})` : `held by ${current.holder} (epoch ${current.epoch}) until the expired lease is reclaimed`);
    }
    if (current?.notBefore !== undefined && current.notBefore > now) return deny("not-ready", `retry not before ${new Date(current.notBefore).toISOString()}`);
    const evidence = await this.options.evidence?.(key);
    if (evidence !== undefined) return deny("evidence", evidence);
    // Epochs never go back: with no claim ref, the item starts above the floor its cleanup left.
    // And above any epoch the caller saw elsewhere (runs titled for the item, its ref deleted).
    const base = Math.max(current?.epoch ?? (await this.floorOf(ref)), aboveEpoch);
    const next: ClaimRecord = { key, holder, epoch: base + 1, state: "held", leaseUntil: now + leaseMs, at: now, grantedAt: now, ...grant };
    return { next };
  }

  async renew(token: ClaimToken, leaseMs: number, now: number): Promise<{ ok: true; token: ClaimToken } | { ok: false; reason: "stale" | "lost"; detail: string }> {
    const result = await this.single(now, (batch) => this.planRenew(batch, token, leaseMs));
    if (!result.ok) return result;
    return { ok: true, token: mintClaimToken({ key: token.key, holder: token.holder, epoch: token.epoch, expiresAt: now + leaseMs }) };
  }

  release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    return this.single(now, (batch) => this.planRelease(batch, token, mode));
  }

  /** One fenced change written as its own batch; a lost race is read back and decided again. */
  private async single(now: number, plan: (batch: ClaimBatch) => Promise<FencedResult>): Promise<FencedResult> {
    for (let attempt = 1; ; attempt++) {
      const batch = this.newBatch(now);
      const planned = await plan(batch);
      if (!planned.ok) return planned;
      const written = await this.commitBatch(batch);
      if (written.ok) return { ok: true };
      if (!written.conflict) throw new Error(`claim store: ${written.detail}`);
      if (attempt >= SINGLE_ATTEMPTS) return { ok: false, reason: "stale", detail: written.detail };
    }
  }

  async reclaimStale(now: number): Promise<readonly ClaimView[]> {
    for (let attempt = 1; ; attempt++) {
      const claims = await this.listClaims();
      const batch = this.newBatch(now);
      const taken: ClaimView[] = [];
      for (const { ref } of claims) {
        const view = await this.planReclaim(batch, ref);
        if (view !== undefined) taken.push(view);
      }
      const written = await this.commitBatch(batch);
      if (written.ok) return taken;
      if (!written.conflict) throw new Error(`claim store: ${written.detail}`);
      if (attempt >= SINGLE_ATTEMPTS) return [];
    }
  }

  // --- Batches: a tick's changes in one commit and one atomic ref update ---

  newBatch(now: number): ClaimBatch {
    return { now, writes: new Map(), granting: false };
  }

  /** The record a batch will leave on a ref, else its current one. */
  private async planned(batch: ClaimBatch, ref: string): Promise<{ from: string | undefined; record: ClaimRecord | undefined }> {
    const write = batch.writes.get(ref);
    if (write !== undefined) return { from: write.from, record: write.record };
    const head = await this.view.read(ref);
    return { from: head?.sha, record: head?.record };
  }

  /**
   * Plans a grant (the same rules as `claim`); the token comes from `commitBatch`. `grant` is
   * recorded in the claim (the pool it counts against, the snapshot it dispatches). `overSettled`:
   * the item was proven approved again after it settled (a newer snapshot), so its outcome no
   * longer stands in the way (the epoch still grows: workers of the settled epochs stay fenced out).
   */
  async planClaim(batch: ClaimBatch, key: string, holder: string, leaseMs: number, grant: GrantFacts = {}, overSettled = false, aboveEpoch = 0): Promise<{ planned: true } | { planned: false; reason: DenyReason; detail: string }> {
    const ref = this.refOf(key);
    const { from, record: current } = await this.planned(batch, ref);
    const record = overSettled && current?.state === "settled" ? { ...current, state: "released" as const } : current;
    const decided = await this.decideClaim(key, ref, record, holder, leaseMs, batch.now, grant, aboveEpoch);
    if ("denied" in decided) return { planned: false, reason: decided.denied.reason, detail: decided.denied.detail };
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
  private async planFenced(batch: ClaimBatch, token: ClaimToken, next: (record: ClaimRecord) => ClaimRecord, revive = false): Promise<FencedResult> {
    const ref = this.refOf(token.key);
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

  /**
   * Cleans up the ref of an item settled before `settledBefore` (it must still be at `sha`, the
   * head listed): listings and a cold start then read only live and recent claims. On its own,
   * never inside a claim batch (GitHub does not document deletions in `updateRefs` without force):
   * one atomic update moves the record to the item's epoch floor ref and deletes the claim ref, so
   * the floor exists whenever the claim ref is gone. Best effort: refused, the ref simply stays.
   */
  async forget(ref: string, sha: string, settledBefore: number): Promise<boolean> {
    if (this.forgetRefused.has(ref) || !ref.startsWith(this.prefix)) return false;
    const record = await this.view.recordAt(sha, ref);
    if (record?.state !== "settled" || record.at >= settledBefore) return false;
    const floorRef = this.floorRefOf(ref);
    await this.floors.list(REUSE_LISTING_MS);
    const floorHead = (await this.floors.read(floorRef))?.sha;
    // The floor commit descends from the previous floor, so the floor ref only fast-forwards.
    const floorSha = await this.options.refs.createCommit(renderClaimMessage(record), floorHead === undefined ? [sha] : [floorHead, sha]);
    this.floors.wrote(floorSha, { single: record });
    const outcome = await this.options.refs.updateRefs([
      { ref: floorRef, from: floorHead, to: floorSha },
      { ref, from: sha, to: undefined },
    ]);
    if (outcome === "applied" || (await this.view.readBack(ref)) === null) {
      this.view.moved(ref, null);
      this.floors.moved(floorRef, floorSha);
      return true;
    }
    this.forgetRefused.add(ref);
    return false;
  }

  private floorRefOf(ref: string): string {
    return `${this.floorPrefix}${ref.slice(this.prefix.length)}`;
  }

  /** The highest epoch an item with no claim ref had before its ref was cleaned up (0: never claimed). */
  private async floorOf(ref: string): Promise<number> {
    if (!ref.startsWith(this.prefix)) return 0;
    await this.floors.list(REUSE_LISTING_MS);
    const head = await this.floors.read(this.floorRefOf(ref));
    return head === undefined ? 0 : ((await this.floors.recordAt(head.sha, ref))?.epoch ?? 0);
  }

  /**
   * Writes a batch: one commit whose parents are the old heads, then one all-or-nothing update of
   * every ref (plus the generation ref when it grants). A failure is unknown until read back: the
   * batch counts as applied only when EVERY ref it names points at its commit — a listing that
   * shows some of them there proves nothing about the rest.
   */
  async commitBatch(batch: ClaimBatch): Promise<BatchResult> {
    if (batch.writes.size === 0) return { ok: true, granted: new Map() };
    const writes = [...batch.writes].map(([ref, w]) => ({ ref, ...w }));
    const updates = writes.map((w) => ({ ref: w.ref, from: w.from }));
    if (batch.granting) updates.push({ ref: this.generationRef, from: this.view.head(this.generationRef) ?? undefined });
    const parents = [...new Set(updates.map((u) => u.from).filter((s): s is string => s !== undefined))];
    const sha = await this.options.refs.createCommit(renderBatchMessage(writes), parents);
    this.view.wrote(sha, { byRef: new Map(writes.map((w) => [w.ref, { record: w.record, from: w.from }])) });
    const outcome = await this.options.refs.updateRefs(updates.map((u) => ({ ...u, to: sha })));
    let applied = outcome === "applied";
    if (!applied) {
      // A failed read here would fail the tick with its grants perhaps written and not dispatched
      // (held until their leases end): the listing is tried a few times.
      await this.view.list(0, READ_BACK_ATTEMPTS);
      applied = updates.every((u) => this.view.head(u.ref) === sha);
    }
    if (!applied) {
      // Refused while every ref is still where the tick read it: not a race another tick won, but a
      // failure to report (no permission, no updateRefs on this server, a transient error).
      const moved = updates.some((u) => (this.view.head(u.ref) ?? undefined) !== u.from);
      if (!moved && outcome !== "applied") return { ok: false, conflict: false, detail: `updateRefs failed with no other writer in the way: ${outcome.unknown}` };
      return { ok: false, conflict: true, detail: "another writer moved a claim or granted since this tick read them (or the batch's outcome could not be read back whole)" };
    }
    for (const u of updates) this.view.moved(u.ref, sha);
    const granted = new Map<string, ClaimToken>();
    for (const w of writes) if (w.grant) granted.set(w.record.key, token(w.record));
    return { ok: true, granted };
  }

  /**
   * A token for the claim now held on a key, whoever holds it: how a replica lands or renews work
   * another replica dispatched. Fencing still applies: the token carries the epoch it saw.
   */
  async adopt(key: string): Promise<ClaimToken | undefined> {
    const record = (await this.view.read(this.refOf(key)))?.record;
    return record?.state === "held" ? token(record) : undefined;
  }

  async inspect(key: string, _now: number): Promise<KeyState> {
    const ref = this.refOf(key);
    const record = (await this.view.read(ref))?.record;
    if (record === undefined) return { epoch: await this.floorOf(ref) };
    return {
      epoch: record.epoch,
      ...(record.state === "held" ? { live: viewOf(record) } : {}),
      ...(record.state === "settled" && record.outcome !== undefined ? { settled: record.outcome } : {}),
      ...(record.notBefore === undefined || record.state !== "released" ? {} : { notBefore: record.notBefore }),
    };
  }

  async activeKeys(now: number, recentMs: number): Promise<readonly string[]> {
    // The guard is a heuristic before the lock, not the lock: a listing from the same tick will do.
    const refs = await this.view.list(REUSE_LISTING_MS);
    const keys: string[] = [];
    for (const { ref, sha } of refs) {
      const r = await this.view.recordAt(sha, ref);
      if (r === undefined) continue;
      if ((r.state === "held" && r.leaseUntil > now) || (r.state === "settled" && r.at >= now - recentMs)) keys.push(r.key);
    }
    return keys;
  }


  /** Every claim ref and its record, as of now (for reconcile). */
  async listClaims(): Promise<ReadonlyArray<{ ref: string; sha: string; record: ClaimRecord }>> {
    const refs = await this.view.list();
    await this.view.readAhead(refs);
    const out: Array<{ ref: string; sha: string; record: ClaimRecord }> = [];
    for (const { ref, sha } of refs) {
      const record = await this.view.recordAt(sha, ref);
      if (record === undefined) continue;
      this.bound.set(record.key, ref);
      out.push({ ref, sha, record });
    }
    return out;
  }
}

/** What a grant records besides holder, epoch and lease (DESIGN.md, "Fencing on GitHub"). */
export interface GrantFacts {
  /** The pool the grant counts against: in-flight work is counted by it, whatever the labels say later. */
  readonly pool?: string;
  /** The snapshot hash of the brief dispatched (the gate holds the pull request to it). */
  readonly briefHash?: string;
  /** The snapshot comment dispatched: only a newer one proves a re-approval after the item settled. */
  readonly snapshotId?: number;
}

/** Tries of a single-item write that lost its compare-and-swap to another writer. */
const SINGLE_ATTEMPTS = 3;

/** Reads of the claim listing after a batch whose outcome is unknown, before the tick gives up. */
const READ_BACK_ATTEMPTS = 3;

/** How old a listing of claim refs may be for reclaim and the similarity guard (one tick's span). */
const REUSE_LISTING_MS = 5_000;

const token = (r: ClaimRecord): ClaimToken => mintClaimToken({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
const viewOf = (r: ClaimRecord): ClaimView => ({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
