import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode } from "../../core/claims/claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";
import { mintClaimToken } from "../../core/claims/mint-claim-token.js";
import type { ClaimRefsApi } from "./claim-refs-api.js";
import type { ClaimRecord } from "../../core/claims/claim-record.js";
import { ClaimRefView } from "./claim-ref-view.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { BatchResult, ClaimBatch } from "./claim-batch.js";
import type { GrantFacts } from "../../core/claims/record-transitions.js";
import { ClaimFloors } from "./claim-floors.js";
import { batchStillCurrent, commitClaimBatch } from "./commit-claim-batch.js";
import { believedRecord, type ForgedHead } from "./believed-record.js";
import { ClaimBatchPlanner, viewOf } from "./claim-batch-planner.js";

export interface GitHubClaimStoreOptions {
  readonly refs: ClaimRefsApi;
  /** Where claim refs live (default `refs/bosun/claims/`). */
  readonly prefix?: string;
  /** Work already under way for a key (an open pull request or branch linked to it): a grant would duplicate it. */
  readonly evidence?: (key: string) => Promise<string | undefined>;
  /**
   * The login whose GitHub-signed commits are Bosun's records (the App's bot, e.g. `bosun[bot]`).
   * Anyone who can push can write a ref under `refs/bosun/`: a commit not signed for this login is
   * never believed — the item's record is then the newest one below it that is (or none). Unset,
   * every commit is believed (only for stores that no one else can write, such as tests').
   */
  readonly signer?: string;
}

// Read by the tick with the listing (`listClaims`).
export type { ForgedHead };

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
  private readonly floors: ClaimFloors;
  private readonly signer: string | undefined;
  private readonly plans: ClaimBatchPlanner;

  constructor(private readonly options: GitHubClaimStoreOptions) {
    this.prefix = options.prefix ?? "refs/bosun/claims/";
    this.generationRef = `${this.prefix}generation`;
    this.view = new ClaimRefView(options.refs, this.prefix);
    this.floors = new ClaimFloors(options.refs, this.view, this.prefix, REUSE_LISTING_MS);
    this.floorPrefix = this.floors.floorPrefix;
    this.signer = options.signer === undefined ? undefined : normalizeLogin(options.signer);
    this.plans = new ClaimBatchPlanner({ current: (ref) => this.current(ref), refOf: (key) => this.refOf(key), floorOf: (ref) => this.floors.floorOf(ref), evidence: options.evidence });
  }

  /**
   * A ref's head and the record Bosun wrote for it: the head's own when GitHub signed it for the
   * signer; otherwise the newest signed record below it (the forged head is reported, and a write
   * still moves the ref from it, so the next record of Bosun's replaces it).
   */
  async current(ref: string): Promise<{ sha: string | undefined; record: ClaimRecord | undefined; forged?: ForgedHead }> {
    const head = await this.view.read(ref);
    if (head === undefined) return { sha: undefined, record: undefined };
    return { sha: head.sha, ...(await believedRecord(this.view, this.signer, ref, head.sha, head.record)) };
  }


  /** The record Bosun wrote at a ref as this process last read it, without a request (undefined: not known). */
  lastSeen(ref: string): ClaimRecord | undefined {
    return this.view.lastSeen(ref, this.signer);
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
        const current = (await this.plans.planned(batch, this.refOf(key))).record;
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

  async renew(token: ClaimToken, leaseMs: number, now: number): Promise<{ ok: true; token: ClaimToken } | { ok: false; reason: "stale" | "lost"; detail: string }> {
    const result = await this.single(now, (batch) => this.plans.planRenew(batch, token, leaseMs));
    if (!result.ok) return result;
    return { ok: true, token: mintClaimToken({ key: token.key, holder: token.holder, epoch: token.epoch, expiresAt: now + leaseMs }) };
  }

  release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    return this.single(now, (batch) => this.plans.planRelease(batch, token, mode));
  }

  /**
   * Moves the claim the token holds to the record `next` returns (a run's land job landing its
   * own claim: to review, back to the queue, or settled), as its own batch, fenced by the token's
   * epoch and lease. A lost race is read back and decided again.
   */
  land(token: ClaimToken, next: (record: ClaimRecord) => ClaimRecord, now: number): Promise<FencedResult> {
    return this.single(now, (batch) => this.plans.planFenced(batch, token, next));
  }

  /**
   * Moves a key's record, whatever holds it, to what `next` returns — or leaves it when `next`
   * answers undefined (the record moved on meanwhile) — as its own batch; the compare-and-swap is
   * from the record read here. For changes that are not a worker's landing: a verified deployment
   * ending a merged item, a person retrying an item from the dashboard. Answers the record
   * written, or why none was.
   */
  async transition(key: string, next: (record: ClaimRecord | undefined) => ClaimRecord | string, now: number): Promise<{ ok: true; record: ClaimRecord } | { ok: false; detail: string }> {
    for (let attempt = 1; ; attempt++) {
      const batch = this.newBatch(now);
      const ref = this.refOf(key);
      const { from, record } = await this.plans.planned(batch, ref);
      const wanted = next(record);
      if (typeof wanted === "string") return { ok: false, detail: wanted };
      batch.writes.set(ref, { from, record: wanted, grant: false });
      const written = await this.commitBatch(batch);
      if (written.ok) return { ok: true, record: wanted };
      if (!written.conflict) throw new Error(`claim store: ${written.detail}`);
      if (attempt >= SINGLE_ATTEMPTS) return { ok: false, detail: written.detail };
    }
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
        const view = await this.plans.planReclaim(batch, ref);
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

  /** Plans a grant (the same rules as `claim`; see `ClaimBatchPlanner.planClaim`); the token comes from `commitBatch`. */
  planClaim(batch: ClaimBatch, key: string, holder: string, leaseMs: number, grant: GrantFacts = {}, overSettled = false, aboveEpoch = 0): Promise<{ planned: true } | { planned: false; reason: DenyReason; detail: string }> {
    return this.plans.planClaim(batch, key, holder, leaseMs, grant, overSettled, aboveEpoch);
  }

  /** The highest epoch an item with no claim ref had before its ref was cleaned up (0: never claimed). */
  floorOf(ref: string): Promise<number> {
    return this.floors.floorOf(ref);
  }

  /** Cleans up the ref of an item settled before `settledBefore` (see `ClaimFloors.forget`). */
  forget(ref: string, sha: string, settledBefore: number): Promise<boolean> {
    return this.floors.forget(ref, sha, settledBefore);
  }

  /**
   * Whether a planned batch would still apply: one conditional listing of the claim refs (a 304,
   * free against the rate limit, when nothing moved) and every ref the batch moves still where the
   * plan read it, the generation ref too when it grants. A tick that other replicas may be racing
   * asks this before it writes, and drops a batch another writer has already made stale: a lost
   * batch is a commit and an `updateRefs` (both content-creating) for nothing. Only a shortcut: the
   * compare-and-swap still decides, so a failed listing answers true and the write goes ahead.
   */
  stillCurrent(batch: ClaimBatch): Promise<boolean> {
    return batchStillCurrent(this.view, this.generationRef, batch);
  }

  /** Writes a batch in one commit and one atomic ref update (see `commitClaimBatch`); grants get their tokens here. */
  async commitBatch(batch: ClaimBatch): Promise<BatchResult> {
    const written = await commitClaimBatch(this.options.refs, this.view, this.generationRef, batch);
    if (!written.ok) return written;
    // The port's calls by key (a release after a refused dispatch) must find the refs a batch wrote by ref.
    for (const [ref, w] of batch.writes) this.bind(w.record.key, ref);
    return { ok: true, granted: new Map(written.granted.map((r) => [r.key, token(r)])) };
  }

  /**
   * A token for the claim now held on a key, whoever holds it: how a replica lands or renews work
   * another replica dispatched. Fencing still applies: the token carries the epoch it saw.
   */
  async adopt(key: string): Promise<ClaimToken | undefined> {
    const { record } = await this.current(this.refOf(key));
    return record?.state === "held" ? token(record) : undefined;
  }

  async inspect(key: string, _now: number): Promise<KeyState> {
    const ref = this.refOf(key);
    const { record } = await this.current(ref);
    if (record === undefined) return { epoch: await this.floors.floorOf(ref) };
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
      const r = (await believedRecord(this.view, this.signer, ref, sha, await this.view.recordAt(sha, ref))).record;
      if (r === undefined) continue;
      if ((r.state === "held" && r.leaseUntil > now) || (r.state === "settled" && r.at >= now - recentMs)) keys.push(r.key);
    }
    return keys;
  }

  /**
   * Every claim ref and the record Bosun wrote for it, as of now (for reconcile). A ref whose head
   * someone else wrote is listed with `forged` (and the record below it, if any), so the tick can
   * show it and write over it; a ref with no record of Bosun's at all is listed with none.
   */
  async listClaims(): Promise<ReadonlyArray<{ ref: string; sha: string; record: ClaimRecord | undefined; forged?: ForgedHead }>> {
    const refs = await this.view.list();
    await this.view.readAhead(refs);
    const out: Array<{ ref: string; sha: string; record: ClaimRecord | undefined; forged?: ForgedHead }> = [];
    for (const { ref, sha } of refs) {
      if (ref === this.generationRef) continue;
      const own = await this.view.recordAt(sha, ref);
      const { record, forged } = await believedRecord(this.view, this.signer, ref, sha, own);
      if (record === undefined && forged === undefined) continue;
      if (record !== undefined) this.bound.set(record.key, ref);
      out.push({ ref, sha, record, ...(forged === undefined ? {} : { forged }) });
    }
    return out;
  }
}

/** Tries of a single-item write that lost its compare-and-swap to another writer. */
const SINGLE_ATTEMPTS = 3;

/** How old a listing of claim refs may be for reclaim and the similarity guard (one tick's span). */
const REUSE_LISTING_MS = 5_000;

const token = (r: ClaimRecord): ClaimToken => mintClaimToken({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
