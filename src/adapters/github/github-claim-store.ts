import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, DenyReason, FencedResult, ReleaseMode, SettledOutcome } from "../../core/claims/claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";
import { mintClaimToken } from "../../core/claims/mint-claim-token.js";
import type { ClaimRefsApi } from "./claim-refs-api.js";

/** What one claim commit says: the state of the item's claim after that commit. */
interface ClaimRecord {
  readonly key: string;
  readonly holder: string;
  readonly epoch: number;
  readonly state: "held" | "released" | "settled";
  readonly leaseUntil: number;
  readonly notBefore?: number;
  readonly outcome?: SettledOutcome;
  /** When the commit was written (the writer's clock), ms. */
  readonly at: number;
}

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
 */
export class GitHubClaimStore implements ClaimStore, ClaimKeyIndex {
  private readonly prefix: string;
  /** Commits never change: their parsed messages are cached by sha. */
  private readonly records = new Map<string, ClaimRecord | null>();

  constructor(private readonly options: GitHubClaimStoreOptions) {
    this.prefix = options.prefix ?? "refs/bosun/claims/";
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
    const current = head?.record;
    const deny = (reason: DenyReason, detail: string) => ({ result: { granted: false as const, reason, detail }, lostRace: false });
    if (current?.state === "settled") return deny("not-ready", `settled: ${current.outcome?.summary ?? ""}`);
    if (current?.state === "held" && current.leaseUntil > now) {
      if (current.holder === holder) return { result: { granted: true, token: token(current) }, lostRace: false };
      return deny("held", `held by ${current.holder} (epoch ${current.epoch})`);
    }
    // An expired lease is taken over directly: the fast-forward from the commit read here is the
    // compare-and-swap, and the old holder's epoch is fenced out from now on.
    if (current?.notBefore !== undefined && current.notBefore > now) return deny("not-ready", `retry not before ${new Date(current.notBefore).toISOString()}`);
    const evidence = await this.options.evidence?.(key);
    if (evidence !== undefined) return deny("evidence", evidence);
    const next: ClaimRecord = { key, holder, epoch: (current?.epoch ?? 0) + 1, state: "held", leaseUntil: now + leaseMs, at: now };
    if (await this.advance(ref, head?.sha, next)) return { result: { granted: true, token: token(next) }, lostRace: false };
    const after = (await this.read(ref))?.record;
    return { result: { granted: false, reason: "held", detail: `lost the race to ${after?.holder ?? "another holder"} (epoch ${after?.epoch ?? "?"})` }, lostRace: remembered };
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
    const base = head?.record as ClaimRecord;
    const next: ClaimRecord =
      mode.kind === "settle"
        ? { ...base, state: "settled", outcome: mode.outcome, at: now }
        : { ...base, state: "released", notBefore: mode.notBefore, at: now };
    if (await this.advance(ref, head?.sha, next)) return { ok: true };
    return { ok: false, reason: "stale", detail: "the claim ref moved: a newer holder has the item" };
  }

  async reclaimStale(now: number): Promise<readonly ClaimView[]> {
    // A listing from the same tick will do: a reclaim from a stale head fails its compare-and-swap.
    const refs = await this.currentRefs(REUSE_LISTING_MS);
    const taken: ClaimView[] = [];
    for (const { ref, sha } of refs) {
      const record = await this.recordAt(sha);
      if (record?.state !== "held" || record.leaseUntil > now) continue;
      const next: ClaimRecord = { ...record, state: "released", notBefore: now, at: now };
      // Only one reclaimer's fast-forward from this exact commit can land.
      if (await this.advance(ref, sha, next)) taken.push(view(record));
    }
    return taken;
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
    for (const { sha } of refs) {
      const r = await this.recordAt(sha);
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
    const out: Array<{ ref: string; sha: string; record: ClaimRecordView }> = [];
    for (const { ref, sha } of refs) {
      const record = await this.recordAt(sha);
      if (record === undefined) continue;
      this.bound.set(record.key, ref);
      out.push({ ref, sha, record });
    }
    return out;
  }

  /** Moves the ref from `from` (or creates it) to a new claim commit; true only when ours is now the head. */
  private async advance(ref: string, from: string | undefined, next: ClaimRecord): Promise<boolean> {
    const sha = await this.options.refs.createCommit(renderClaimMessage(next), from === undefined ? [] : [from]);
    this.records.set(sha, next);
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
    const known = this.heads.get(ref);
    const sha = known !== undefined ? (known ?? undefined) : await this.options.refs.getRef(ref);
    if (known === undefined) this.heads.set(ref, sha ?? null);
    if (sha === undefined) return undefined;
    return { sha, record: await this.recordAt(sha) };
  }

  private async recordAt(sha: string): Promise<ClaimRecord | undefined> {
    if (!this.records.has(sha)) this.records.set(sha, parseClaimMessage(await this.options.refs.getCommitMessage(sha)) ?? null);
    return this.records.get(sha) ?? undefined;
  }
}

export type ClaimRecordView = ClaimRecord;

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

const token = (r: ClaimRecord): ClaimToken => mintClaimToken({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });
const view = (r: ClaimRecord): ClaimView => ({ key: r.key, holder: r.holder, epoch: r.epoch, expiresAt: r.leaseUntil });

const MESSAGE_HEAD = "bosun claim";

/** The claim commit's message: a readable first line, then the record as JSON. */
export function renderClaimMessage(r: ClaimRecord): string {
  return `${MESSAGE_HEAD} ${r.key} epoch ${r.epoch} ${r.state} by ${r.holder}\n\n${JSON.stringify(r)}\n`;
}

/** Reads a claim commit's message; undefined for anything else (a stray commit is not a claim). */
export function parseClaimMessage(message: string): ClaimRecord | undefined {
  if (!message.startsWith(MESSAGE_HEAD)) return undefined;
  const json = message.slice(message.indexOf("\n\n") + 2).trim();
  try {
    const r = JSON.parse(json) as ClaimRecord;
    return typeof r.key === "string" && typeof r.holder === "string" && Number.isInteger(r.epoch) && ["held", "released", "settled"].includes(r.state) && typeof r.leaseUntil === "number" ? r : undefined;
  } catch {
    return undefined;
  }
}
