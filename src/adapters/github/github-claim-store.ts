import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode } from "../../core/claims/claim-token.js";
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
 * claim commits whose messages hold `{holder, epoch, leaseUntil, state}`. The only atomic steps
 * are GitHub's: creating a ref fails when it exists, and a `force: false` update fails unless it
 * fast-forwards from the commit we read — so two writers racing from one state cannot both win.
 * Any failure of a write is "unknown" until the ref is read back: a 422 or a 5xx may have landed.
 *
 * The scheduler writes a tick's changes as a batch: one commit holding every changed record (its
 * parents are the refs' old heads, so each ref still fast-forwards) and one all-or-nothing update
 * of those refs. A batch that grants also moves the generation ref from the value the tick read:
 * if any other grant landed since, the whole batch is refused, so pools cannot overfill.
 */
export class GitHubClaimStore implements ClaimStore, ClaimKeyIndex {
  private readonly prefix: string;
  private readonly view: ClaimRefView;
  /** Moved by every granting batch: the compare-and-swap that keeps pools within their size. */
  readonly generationRef: string;

  constructor(private readonly options: GitHubClaimStoreOptions) {
    this.prefix = options.prefix ?? "refs/bosun/claims/";
    this.generationRef = `${this.prefix}generation`;
    this.view = new ClaimRefView(options.refs, this.prefix);
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
    const first = await this.attempt(key, holder, leaseMs, now);
    // Lost a race against a head we only remembered: the ref has been read back since, so one more
    // attempt decides on the truth (free, held, or ours to take).
    return first.lostRace ? (await this.attempt(key, holder, leaseMs, now)).result : first.result;
  }

  private async attempt(key: string, holder: string, leaseMs: number, now: number): Promise<{ result: ClaimResult; lostRace: boolean }> {
    const ref = this.refOf(key);
    const remembered = this.view.head(ref) !== undefined;
    const head = await this.view.read(ref);
    const decided = await this.decideClaim(key, head?.record, holder, leaseMs, now);
    if ("denied" in decided) return { result: decided.denied, lostRace: false };
    if ("mine" in decided) return { result: { granted: true, token: token(decided.mine) }, lostRace: false };
    if (await this.advance(ref, head?.sha, decided.next)) return { result: { granted: true, token: token(decided.next) }, lostRace: false };
    const after = (await this.view.read(ref))?.record;
    return { result: { granted: false, reason: "held", detail: `lost the race to ${after?.holder ?? "another holder"} (epoch ${after?.epoch ?? "?"})` }, lostRace: remembered };
  }

  /** Whether a key may be granted over its current record, and the record a grant writes. */
  private async decideClaim(key: string, current: ClaimRecord | undefined, holder: string, leaseMs: number, now: number): Promise<{ denied: ClaimResult & { granted: false } } | { mine: ClaimRecord } | { next: ClaimRecord }> {
    const deny = (reason: DenyReason, detail: string) => ({ denied: { granted: false as const, reason, detail } });
    if (current?.state === "settled") return deny("not-ready", `settled: ${current.outcome?.summary ?? ""}`);
    if (current?.state === "held" && current.leaseUntil > now) {
      if (current.holder === holder) return { mine: current };
      return deny("held", `held by ${current.holder} (epoch ${current.epoch})`);
    }
    // An expired lease is taken over directly: the fast-forward from the commit read here is the
    // compare-and-swap, and the old holder's epoch is fenced out from now on.
    if (current?.notBefore !== undefined && current.notBefore > now) return deny("not-ready", `retry not before ${new Date(current.notBefore).toISOString()}`);
    const evidence = await this.options.evidence?.(key);
    if (evidence !== undefined) return deny("evidence", evidence);
    return { next: { key, holder, epoch: (current?.epoch ?? 0) + 1, state: "held", leaseUntil: now + leaseMs, at: now } };
  }

  async renew(token: ClaimToken, leaseMs: number, now: number): Promise<{ ok: true; token: ClaimToken } | { ok: false; reason: "stale" | "lost"; detail: string }> {
    const ref = this.refOf(token.key);
    const head = await this.view.read(ref);
    const fenced = fence(head?.record, token, now);
    if (!fenced.ok) return fenced;
    const next: ClaimRecord = { ...(head?.record as ClaimRecord), leaseUntil: now + leaseMs, at: now };
    if (await this.advance(ref, head?.sha, next)) return { ok: true, token: mintClaimToken({ key: token.key, holder: token.holder, epoch: token.epoch, expiresAt: next.leaseUntil }) };
    return { ok: false, reason: "stale", detail: "the claim ref moved while renewing" };
  }

  async release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    const ref = this.refOf(token.key);
    const head = await this.view.read(ref);
    const fenced = fence(head?.record, token, now);
    if (!fenced.ok) return fenced;
    if (await this.advance(ref, head?.sha, released(head?.record as ClaimRecord, mode, now))) return { ok: true };
    return { ok: false, reason: "stale", detail: "the claim ref moved: a newer holder has the item" };
  }

  async reclaimStale(now: number): Promise<readonly ClaimView[]> {
    // A listing from the same tick will do: a reclaim from a stale head fails its compare-and-swap.
    const refs = await this.view.list(REUSE_LISTING_MS);
    const taken: ClaimView[] = [];
    for (const { ref, sha } of refs) {
      const record = await this.view.recordAt(sha, ref);
      if (record?.state !== "held" || record.leaseUntil > now) continue;
      // Only one reclaimer's fast-forward from this exact commit can land.
      if (await this.advance(ref, sha, reclaimed(record, now))) taken.push(viewOf(record));
    }
    return taken;
  }

  // --- Batches: a tick's changes in one commit and one atomic ref update ---

  newBatch(now: number): ClaimBatch {
    return { now, writes: new Map(), granting: false, deletes: new Map() };
  }

  /** The record a batch will leave on a ref, else its current one. */
  private async planned(batch: ClaimBatch, ref: string): Promise<{ from: string | undefined; record: ClaimRecord | undefined }> {
    const write = batch.writes.get(ref);
    if (write !== undefined) return { from: write.from, record: write.record };
    const head = await this.view.read(ref);
    return { from: head?.sha, record: head?.record };
  }

  /**
   * Plans a grant (the same rules as `claim`); the token comes from `commitBatch`. `overSettled`:
   * the item was approved again after it settled, so its outcome no longer stands in the way (the
   * epoch still grows: workers of the settled epochs stay fenced out).
   */
  async planClaim(batch: ClaimBatch, key: string, holder: string, leaseMs: number, overSettled = false): Promise<{ planned: true } | { planned: false; reason: DenyReason; detail: string }> {
    const ref = this.refOf(key);
    const { from, record: current } = await this.planned(batch, ref);
    const record = overSettled && current?.state === "settled" ? { ...current, state: "released" as const } : current;
    const decided = await this.decideClaim(key, record, holder, leaseMs, batch.now);
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

  /** Plans a lease renewal. */
  planRenew(batch: ClaimBatch, token: ClaimToken, leaseMs: number): Promise<FencedResult> {
    return this.planFenced(batch, token, (record) => ({ ...record, leaseUntil: batch.now + leaseMs, at: batch.now }));
  }

  /** Plans the next record of a claim the token still holds (its epoch, its holder, a live lease). */
  private async planFenced(batch: ClaimBatch, token: ClaimToken, next: (record: ClaimRecord) => ClaimRecord): Promise<FencedResult> {
    const ref = this.refOf(token.key);
    const { from, record } = await this.planned(batch, ref);
    const fenced = fence(record, token, batch.now);
    if (!fenced.ok) return fenced;
    batch.writes.set(ref, { from, record: next(record as ClaimRecord), grant: false });
    return { ok: true };
  }

  /** Plans the reclaim of an expired claim on a listed ref; the view of what it takes back, or undefined. */
  async planReclaim(batch: ClaimBatch, ref: string): Promise<ClaimView | undefined> {
    const { from, record } = await this.planned(batch, ref);
    if (record?.state !== "held" || record.leaseUntil > batch.now) return undefined;
    batch.writes.set(ref, { from, record: reclaimed(record, batch.now), grant: false });
    return viewOf(record);
  }

  /**
   * Plans deleting the ref of an item settled before `settledBefore` (it must still be at the head
   * listed): listings and a cold start then read only live and recent claims. Deletions ride on a
   * batch that writes anyway; a batch of deletions alone is not written.
   */
  async planForget(batch: ClaimBatch, ref: string, settledBefore: number): Promise<boolean> {
    if (batch.writes.has(ref)) return false;
    const head = await this.view.read(ref);
    if (head?.record?.state !== "settled" || head.record.at >= settledBefore) return false;
    batch.deletes.set(ref, head.sha);
    return true;
  }

  /**
   * Writes a batch: one commit whose parents are the old heads, then one all-or-nothing update of
   * every ref (plus the generation ref when it grants). A failure is unknown until read back: the
   * batch landed if any of its refs points at its commit (all of them moved together).
   */
  async commitBatch(batch: ClaimBatch): Promise<BatchResult> {
    if (batch.writes.size === 0) return { ok: true, granted: new Map() };
    const writes = [...batch.writes].map(([ref, w]) => ({ ref, ...w }));
    const updates = writes.map((w) => ({ ref: w.ref, from: w.from }));
    if (batch.granting) updates.push({ ref: this.generationRef, from: this.view.head(this.generationRef) ?? undefined });
    const parents = [...new Set(updates.map((u) => u.from).filter((s): s is string => s !== undefined))];
    const sha = await this.options.refs.createCommit(renderBatchMessage(writes), parents);
    this.view.wrote(sha, { byRef: new Map(writes.map((w) => [w.ref, { record: w.record, from: w.from }])) });
    const deletes = [...batch.deletes].map(([ref, from]) => ({ ref, from, to: undefined }));
    const outcome = await this.options.refs.updateRefs([...updates.map((u) => ({ ...u, to: sha })), ...deletes]);
    let applied = outcome === "applied";
    if (!applied) {
      // A failed read here would fail the tick with its grants perhaps written and not dispatched
      // (held until their leases end): the listing is tried a few times.
      await this.view.list(0, READ_BACK_ATTEMPTS);
      applied = updates.some((u) => this.view.head(u.ref) === sha);
    }
    if (!applied) {
      // Refused while every ref is still where the tick read it: not a race another tick won, but a
      // failure to report (no permission, no updateRefs on this server, a transient error).
      const moved = [...updates, ...deletes].some((u) => (this.view.head(u.ref) ?? undefined) !== u.from);
      if (!moved && outcome !== "applied") return { ok: false, conflict: false, detail: `updateRefs failed with no other writer in the way: ${outcome.unknown}` };
      return { ok: false, conflict: true, detail: "another writer moved a claim or granted since this tick read them" };
    }
    for (const u of updates) this.view.moved(u.ref, sha);
    for (const d of deletes) this.view.moved(d.ref, null);
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
    const record = (await this.view.read(this.refOf(key)))?.record;
    if (record === undefined) return { epoch: 0 };
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

  /** Moves the ref from `from` (or creates it) to a new claim commit; true only when ours is now the head. */
  private async advance(ref: string, from: string | undefined, next: ClaimRecord): Promise<boolean> {
    const sha = await this.options.refs.createCommit(renderClaimMessage(next), from === undefined ? [] : [from]);
    this.view.wrote(sha, { single: next });
    const outcome = from === undefined ? await this.options.refs.createRef(ref, sha) : await this.options.refs.updateRef(ref, sha);
    if (outcome === "created" || outcome === "updated") {
      this.view.moved(ref, sha);
      return true;
    }
    // Lost, or unknown (the write may or may not have landed): the ref says which.
    return (await this.view.readBack(ref)) === sha;
  }
}

/** Reads of the claim listing after a batch whose outcome is unknown, before the tick gives up. */
const READ_BACK_ATTEMPTS = 3;

/** How old a listing of claim refs may be for reclaim and the similarity guard (one tick's span). */
const REUSE_LISTING_MS = 5_000;

const token = (r: ClaimRecord): ClaimToken => mintClaimToken({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
const viewOf = (r: ClaimRecord): ClaimView => ({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
