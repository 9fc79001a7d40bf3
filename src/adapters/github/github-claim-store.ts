import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode } from "../../core/claims/claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";
import { mintClaimToken } from "../../core/claims/mint-claim-token.js";
import type { ClaimRefsApi } from "./claim-refs-api.js";
import type { ClaimCommit, ClaimRecord } from "./claim-record.js";
import { parseClaimCommit, recordFor, renderBatchMessage, renderClaimMessage } from "./claim-record.js";

export interface GitHubClaimStoreOptions {
  readonly refs: ClaimRefsApi;
  /** Where claim refs live (default `refs/bosun/claims/`). */
  readonly prefix?: string;
  /** Work already under way for a key (an open pull request or branch linked to it): a grant would duplicate it. */
  readonly evidence?: (key: string) => Promise<string | undefined>;
}

/**
 * Changes to several claims planned by one reconcile tick, written as one commit and one atomic
 * update of every ref it moves (see `commitBatch`). Nothing in it is granted until it is committed:
 * tokens come only from `commitBatch`.
 */
export interface ClaimBatch {
  readonly now: number;
  /** ref → where it pointed when planned, and its record after the batch. */
  readonly writes: Map<string, { readonly from: string | undefined; readonly record: ClaimRecord; readonly grant: boolean }>;
  /** Whether the batch grants anything: then it also moves the generation ref (pool bounds). */
  granting: boolean;
  /** Refs of long-settled items to delete with the batch (ref → the head it must still be at). */
  readonly deletes: Map<string, string>;
}

export type BatchResult =
  | { readonly ok: true; readonly granted: ReadonlyMap<string, ClaimToken> }
  /** `conflict`: another writer moved first (decide again); otherwise the write failed on its own. */
  | { readonly ok: false; readonly conflict: boolean; readonly detail: string };

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
  /** Commits never change: their parsed messages are cached by sha. */
  private readonly commits = new Map<string, ClaimCommit | null>();
  /** Moved by every granting batch: the compare-and-swap that keeps pools within their size. */
  readonly generationRef: string;

  constructor(private readonly options: GitHubClaimStoreOptions) {
    this.prefix = options.prefix ?? "refs/bosun/claims/";
    this.generationRef = `${this.prefix}generation`;
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
    const remembered = this.heads.get(ref) !== undefined;
    const head = await this.read(ref);
    const decided = await this.decideClaim(key, head?.record, holder, leaseMs, now);
    if ("denied" in decided) return { result: decided.denied, lostRace: false };
    if ("mine" in decided) return { result: { granted: true, token: token(decided.mine) }, lostRace: false };
    if (await this.advance(ref, head?.sha, decided.next)) return { result: { granted: true, token: token(decided.next) }, lostRace: false };
    const after = (await this.read(ref))?.record;
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
    const head = await this.read(ref);
    const fenced = fence(head?.record, token, now);
    if (!fenced.ok) return fenced;
    const next: ClaimRecord = { ...(head?.record as ClaimRecord), leaseUntil: now + leaseMs, at: now };
    if (await this.advance(ref, head?.sha, next)) return { ok: true, token: mintClaimToken({ key: token.key, holder: token.holder, epoch: token.epoch, expiresAt: next.leaseUntil }) };
    return { ok: false, reason: "stale", detail: "the claim ref moved while renewing" };
  }

  async release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    const ref = this.refOf(token.key);
    const head = await this.read(ref);
    const fenced = fence(head?.record, token, now);
    if (!fenced.ok) return fenced;
    if (await this.advance(ref, head?.sha, released(head?.record as ClaimRecord, mode, now))) return { ok: true };
    return { ok: false, reason: "stale", detail: "the claim ref moved: a newer holder has the item" };
  }

  async reclaimStale(now: number): Promise<readonly ClaimView[]> {
    // A listing from the same tick will do: a reclaim from a stale head fails its compare-and-swap.
    const refs = await this.currentRefs(REUSE_LISTING_MS);
    const taken: ClaimView[] = [];
    for (const { ref, sha } of refs) {
      const record = await this.recordAt(sha, ref);
      if (record?.state !== "held" || record.leaseUntil > now) continue;
      // Only one reclaimer's fast-forward from this exact commit can land.
      if (await this.advance(ref, sha, reclaimed(record, now))) taken.push(view(record));
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
    const head = await this.read(ref);
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
  async planRelease(batch: ClaimBatch, token: ClaimToken, mode: ReleaseMode): Promise<FencedResult> {
    const ref = this.refOf(token.key);
    const { from, record } = await this.planned(batch, ref);
    const fenced = fence(record, token, batch.now);
    if (!fenced.ok) return fenced;
    batch.writes.set(ref, { from, record: released(record as ClaimRecord, mode, batch.now), grant: false });
    return { ok: true };
  }

  /** Plans a lease renewal. */
  async planRenew(batch: ClaimBatch, token: ClaimToken, leaseMs: number): Promise<FencedResult> {
    const ref = this.refOf(token.key);
    const { from, record } = await this.planned(batch, ref);
    const fenced = fence(record, token, batch.now);
    if (!fenced.ok) return fenced;
    batch.writes.set(ref, { from, record: { ...(record as ClaimRecord), leaseUntil: batch.now + leaseMs, at: batch.now }, grant: false });
    return { ok: true };
  }

  /** Plans the reclaim of an expired claim on a listed ref; the view of what it takes back, or undefined. */
  async planReclaim(batch: ClaimBatch, ref: string): Promise<ClaimView | undefined> {
    const { from, record } = await this.planned(batch, ref);
    if (record?.state !== "held" || record.leaseUntil > batch.now) return undefined;
    batch.writes.set(ref, { from, record: reclaimed(record, batch.now), grant: false });
    return view(record);
  }

  /**
   * Plans deleting the ref of an item settled before `settledBefore` (it must still be at the head
   * listed): listings and a cold start then read only live and recent claims. Deletions ride on a
   * batch that writes anyway; a batch of deletions alone is not written.
   */
  async planForget(batch: ClaimBatch, ref: string, settledBefore: number): Promise<boolean> {
    if (batch.writes.has(ref)) return false;
    const head = await this.read(ref);
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
    if (batch.granting) updates.push({ ref: this.generationRef, from: this.heads.get(this.generationRef) ?? undefined });
    const parents = [...new Set(updates.map((u) => u.from).filter((s): s is string => s !== undefined))];
    const message = renderBatchMessage(writes);
    const sha = await this.options.refs.createCommit(message, parents);
    this.commits.set(sha, parseClaimCommit(message) ?? null);
    const deletes = [...batch.deletes].map(([ref, from]) => ({ ref, from, to: undefined }));
    const outcome = await this.options.refs.updateRefs([...updates.map((u) => ({ ...u, to: sha })), ...deletes]);
    let applied = outcome === "applied";
    if (!applied) {
      await this.currentRefs();
      applied = updates.some((u) => this.heads.get(u.ref) === sha);
    }
    if (!applied) {
      // Refused while every ref is still where the tick read it: not a race another tick won, but a
      // failure to report (no permission, no updateRefs on this server, a transient error).
      const moved = [...updates, ...deletes].some((u) => (this.heads.get(u.ref) ?? undefined) !== u.from);
      if (!moved && outcome !== "applied") return { ok: false, conflict: false, detail: `updateRefs failed with no other writer in the way: ${outcome.unknown}` };
      return { ok: false, conflict: true, detail: "another writer moved a claim or granted since this tick read them" };
    }
    for (const u of updates) this.heads.set(u.ref, sha);
    for (const d of deletes) this.heads.set(d.ref, null);
    const granted = new Map<string, ClaimToken>();
    for (const w of writes) if (w.grant) granted.set(w.record.key, token(w.record));
    return { ok: true, granted };
  }

  /**
   * A token for the claim now held on a key, whoever holds it: how a replica lands or renews work
   * another replica dispatched. Fencing still applies: the token carries the epoch it saw.
   */
  async adopt(key: string): Promise<ClaimToken | undefined> {
    const record = (await this.read(this.refOf(key)))?.record;
    return record?.state === "held" ? token(record) : undefined;
  }

  async inspect(key: string, _now: number): Promise<KeyState> {
    const record = (await this.read(this.refOf(key)))?.record;
    if (record === undefined) return { epoch: 0 };
    return {
      epoch: record.epoch,
      ...(record.state === "held" ? { live: view(record) } : {}),
      ...(record.state === "settled" && record.outcome !== undefined ? { settled: record.outcome } : {}),
      ...(record.notBefore === undefined || record.state !== "released" ? {} : { notBefore: record.notBefore }),
    };
  }

  async activeKeys(now: number, recentMs: number): Promise<readonly string[]> {
    // The guard is a heuristic before the lock, not the lock: a listing from the same tick will do.
    const refs = await this.currentRefs(REUSE_LISTING_MS);
    const keys: string[] = [];
    for (const { ref, sha } of refs) {
      const r = await this.recordAt(sha, ref);
      if (r === undefined) continue;
      if ((r.state === "held" && r.leaseUntil > now) || (r.state === "settled" && r.at >= now - recentMs)) keys.push(r.key);
    }
    return keys;
  }

  private lastListed: ReadonlyArray<{ ref: string; sha: string }> = [];

  /** The claim refs; a 304 means they are as this store last listed them. */
  private async currentRefs(maxAgeMs = 0): Promise<ReadonlyArray<{ ref: string; sha: string }>> {
    if (maxAgeMs > 0 && Date.now() - this.listedAt <= maxAgeMs) {
      // Recent enough: the last listing, with this store's own writes since applied to it.
      return [...this.heads].filter((e): e is [string, string] => e[1] !== null && e[0].startsWith(this.prefix)).map(([ref, sha]) => ({ ref, sha }));
    }
    const refs = await this.options.refs.listRefs(this.prefix);
    this.listedAt = Date.now();
    if (refs !== undefined) {
      this.lastListed = refs;
      for (const key of this.heads.keys()) if (key.startsWith(this.prefix)) this.heads.set(key, null);
      for (const { ref, sha } of refs) this.heads.set(ref, sha);
    } else {
      // Unchanged since the last listing: forget writes of ours that did not land and heads guessed since.
      for (const key of this.heads.keys()) if (key.startsWith(this.prefix)) this.heads.set(key, null);
      for (const { ref, sha } of this.lastListed) this.heads.set(ref, sha);
    }
    return this.lastListed;
  }

  /**
   * Where each ref pointed when this store last saw it (a listing, or its own write); null when it
   * did not exist. Writes start from it without reading the ref again: a stale head only makes the
   * compare-and-swap fail, and the ref is then read back, so being optimistic costs no safety.
   */
  private readonly heads = new Map<string, string | null>();
  private listedAt = Number.NEGATIVE_INFINITY;

  /** Every claim ref and its record, as of now (for reconcile). */
  async listClaims(): Promise<ReadonlyArray<{ ref: string; sha: string; record: ClaimRecordView }>> {
    const refs = await this.currentRefs();
    // Many commits never read (a new process, an Action run): one query per 100 refs reads their
    // messages instead of one request each.
    // (Counted by commit: one batch commit is the head of every ref it moved.)
    const unknown = new Set(refs.filter(({ sha }) => !this.commits.has(sha)).map(({ sha }) => sha)).size;
    if (unknown > PREFETCH_FROM) {
      // Only a shortcut: if it fails, each commit is read on its own below.
      const read = await this.options.refs.listRefsWithMessages(this.prefix).catch(() => []);
      for (const { sha, message } of read) if (!this.commits.has(sha)) this.commits.set(sha, parseClaimCommit(message) ?? null);
    }
    const out: Array<{ ref: string; sha: string; record: ClaimRecordView }> = [];
    for (const { ref, sha } of refs) {
      const record = await this.recordAt(sha, ref);
      if (record === undefined) continue;
      this.bound.set(record.key, ref);
      out.push({ ref, sha, record });
    }
    return out;
  }

  /** Moves the ref from `from` (or creates it) to a new claim commit; true only when ours is now the head. */
  private async advance(ref: string, from: string | undefined, next: ClaimRecord): Promise<boolean> {
    const sha = await this.options.refs.createCommit(renderClaimMessage(next), from === undefined ? [] : [from]);
    this.commits.set(sha, { single: next });
    const outcome = from === undefined ? await this.options.refs.createRef(ref, sha) : await this.options.refs.updateRef(ref, sha);
    if (outcome === "created" || outcome === "updated") {
      this.heads.set(ref, sha);
      return true;
    }
    // Lost, or unknown (the write may or may not have landed): the ref says which.
    const now = (await this.options.refs.getRef(ref)) ?? null;
    this.heads.set(ref, now);
    return now === sha;
  }

  private async read(ref: string): Promise<{ sha: string; record: ClaimRecord | undefined } | undefined> {
    let known = this.heads.get(ref);
    // A ref under the prefix that the last listing did not show does not exist, as far as we know:
    // creating it fails if it appeared since, and the ref is then read back.
    if (known === undefined && ref.startsWith(this.prefix) && this.listedAt > Number.NEGATIVE_INFINITY) known = null;
    const sha = known !== undefined ? (known ?? undefined) : await this.options.refs.getRef(ref);
    if (known === undefined) this.heads.set(ref, sha ?? null);
    if (sha === undefined) return undefined;
    return { sha, record: await this.recordAt(sha, ref) };
  }

  private async recordAt(sha: string, ref: string): Promise<ClaimRecord | undefined> {
    if (!this.commits.has(sha)) this.commits.set(sha, parseClaimCommit(await this.options.refs.getCommitMessage(sha)) ?? null);
    return recordFor(this.commits.get(sha) ?? undefined, ref);
  }
}

export type ClaimRecordView = ClaimRecord;

/** Unread claim commits above which a listing reads their messages in one GraphQL query. */
const PREFETCH_FROM = 2;

/** How old a listing of claim refs may be for reclaim and the similarity guard (one tick's span). */
const REUSE_LISTING_MS = 5_000;

function fence(record: ClaimRecord | undefined, token: ClaimToken, now: number): FencedResult {
  if (record === undefined) return { ok: false, reason: "lost", detail: `no claim ref for ${token.key}` };
  if (record.epoch !== token.epoch || record.holder !== token.holder) return { ok: false, reason: "stale", detail: `epoch ${token.epoch} is stale; ${record.holder} holds epoch ${record.epoch}` };
  if (record.state !== "held") return { ok: false, reason: "lost", detail: `the claim at epoch ${record.epoch} was already ${record.state}` };
  // A lease that ran out may be reclaimed by another replica this instant: do not land on it.
  if (record.leaseUntil <= now) return { ok: false, reason: "lost", detail: `lease of epoch ${token.epoch} ran out` };
  return { ok: true };
}

const released = (base: ClaimRecord, mode: ReleaseMode, now: number): ClaimRecord =>
  mode.kind === "settle" ? { ...base, state: "settled", outcome: mode.outcome, at: now } : { ...base, state: "released", notBefore: mode.notBefore, at: now };
const reclaimed = (record: ClaimRecord, now: number): ClaimRecord => ({ ...record, state: "released", notBefore: now, at: now });
const token = (r: ClaimRecord): ClaimToken => mintClaimToken({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
const view = (r: ClaimRecord): ClaimView => ({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
