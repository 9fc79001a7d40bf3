import { linkSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ClaimStore, KeyState } from "../../core/claims/claim-store.js";
import type { ClaimResult, ClaimToken, ClaimView, FencedResult, ReleaseMode, SettledOutcome } from "../../core/claims/claim-token.js";
import { attempt, checkFence, type ClaimFile, type Live, nonce, quietly, readLive, view, writeAtomic } from "./claim-files.js";
import { mintClaimToken } from "../../core/claims/mint-claim-token.js";
import type { ClaimKeyIndex } from "../../core/claims/guarded-claim-store.js";
import { holderLives, thisHolderProcess, type HolderProcess } from "./holder-process.js";
import { CLAIMED_FOR_ANOTHER_BRIEF, SETTLED_FOR_ANOTHER_BRIEF, readKeyFolder, type EndedClaim, type KeyFolder } from "./read-key-folder.js";

/**
 * Claims on the local file system, safe across processes sharing one state folder.
 *
 * Each key has a folder. The live claim is the file `claim`, created only by `link()` of a fully
 * written temp file (link fails if the name exists; rename would overwrite). The lease end is the
 * file's mtime plus its lease, so renewal is a `utimes` that never replaces the file. Ending a
 * claim renames `claim` to `<epoch>.ended` (or `<epoch>.reclaimed-…`), keeping the epoch history:
 * the next grant's epoch is one above the highest seen, and two grants of one epoch cannot both
 * link `claim`. A final outcome is the file `settled`, written before the claim ends, so a claimer
 * that gets in after it sees it and backs off.
 */
export class FileClaimStore implements ClaimStore, ClaimKeyIndex {
  private readonly root: string;
  /**
   * When each settled key settled, by folder name. A settled outcome is final (its file is only
   * ever created, never replaced or removed), so it is read once: before this, every claim re-read
   * every key's folder for the similarity guard, and 2,000 briefs cost 2,000 × 2,000 reads. This
   * cache only feeds `activeKeys` (the guard); claims, fences and releases always read the disk.
   */
  private readonly settledAt = new Map<string, number>();
  /**
   * Until when a key read as live stays live for the guard, by folder name: its lease end. Reading
   * it again before then could only find it released early, and a key this store releases is
   * dropped from here at once; another process's early release keeps the guard cautious (a
   * similar key waits) until that lease would have ended — never a double grant, which `claim`
   * decides on the disk alone.
   */
  private readonly liveUntil = new Map<string, number>();

  /**
   * `contentOf` names the content each key stands for (the brief's hash): it is written in every
   * claim and settled record, and an outcome settled for other content is not taken as this one's.
   * Two drains on one state folder with two briefs of one id once saw the second brief "landed ok"
   * on the first one's outcome, though it never ran.
   */
  private readonly self: HolderProcess;
  private readonly lives: (holder: HolderProcess) => boolean;

  /**
   * `liveness` says which process this store writes as its claims' holder and whether a holder
   * still runs (default: this process, and a check of its pid on this host); a lapsed lease whose
   * holder runs is not taken back — the one reclaim rule of decide-step.ts, on both faces.
   */
  constructor(
    stateDir: string,
    private readonly contentOf: (key: string) => string | undefined = () => undefined,
    liveness: { readonly self?: HolderProcess; readonly lives?: (holder: HolderProcess) => boolean } = {},
  ) {
    this.root = join(stateDir, "claims");
    this.self = liveness.self ?? thisHolderProcess();
    this.lives = liveness.lives ?? holderLives;
  }

  async claim(key: string, holder: string, leaseMs: number, now: number): Promise<ClaimResult> {
    const dir = this.keyDir(key);
    mkdirSync(dir, { recursive: true });
    const before = this.read(dir, key);
    if (before.settled !== undefined) return { granted: false, reason: "not-ready", detail: settledDetail(before.settled) };
    if (before.live !== undefined) {
      if (before.live.expiresAt > now) {
        if (before.live.holder === holder) return { granted: true, token: mintClaimToken(view(before.live)) };
        return { granted: false, reason: "held", detail: `held by ${before.live.holder} (epoch ${before.live.epoch})` };
      }
      return { granted: false, reason: "held", detail: `held by ${before.live.holder} until the lease is reclaimed (expired)` };
    }
    if (before.notBefore !== undefined && before.notBefore > now) {
      return { granted: false, reason: "not-ready", detail: `retry not before ${new Date(before.notBefore).toISOString()}` };
    }
    const epoch = before.epoch + 1;
    const hash = this.contentOf(key);
    const mine: ClaimFile = { key, holder, epoch, leaseMs, ...(hash === undefined ? {} : { hash }), process: this.self };
    if (!(this.createExclusive(join(dir, "claim"), JSON.stringify(mine), now))) {
      const live = (this.read(dir)).live;
      return { granted: false, reason: "held", detail: `held by ${live?.holder ?? "another holder"} (lost the race)` };
    }
    // Check after taking the lock: a settle or a newer epoch that slipped in means this grant is void.
    // The claim file is the one just linked: not read again; nor is the ended claim the check
    // before read for the brief's hash, unless a later one ended since.
    const after = this.read(dir, key, false, before.ended);
    if (after.settled !== undefined || after.historyEpoch >= epoch) {
      this.moveIfMine(dir, epoch, holder, `${epoch}.void-${nonce()}`);
      return after.settled !== undefined
        ? { granted: false, reason: "not-ready", detail: settledDetail(after.settled) }
        : { granted: false, reason: "held", detail: "a newer epoch exists (lost the race)" };
    }
    this.liveUntil.set(encodeURIComponent(key), now + leaseMs);
    return { granted: true, token: mintClaimToken({ key, holder, epoch, expiresAt: now + leaseMs }) };
  }

  async renew(token: ClaimToken, leaseMs: number, now: number): Promise<{ ok: true; token: ClaimToken } | { ok: false; reason: "stale" | "lost"; detail: string }> {
    const dir = this.keyDir(token.key);
    const fenced = this.fence(dir, token);
    if (!fenced.ok) return fenced;
    utimesSync(join(dir, "claim"), now / 1000, now / 1000);
    return { ok: true, token: mintClaimToken({ key: token.key, holder: token.holder, epoch: token.epoch, expiresAt: now + leaseMs }) };
  }

  async release(token: ClaimToken, mode: ReleaseMode, now: number): Promise<FencedResult> {
    this.liveUntil.delete(encodeURIComponent(token.key));
    const dir = this.keyDir(token.key);
    const state = this.read(dir);
    const fenced = checkFence(state.live, token);
    if (!fenced.ok) return fenced;
    if ((state.live as Live).expiresAt <= now) {
      // The lease ran out: another holder may be reclaiming it this instant, so this land cannot be trusted.
      return { ok: false, reason: "lost", detail: `lease of epoch ${token.epoch} ran out before the land` };
    }
    try {
      if (mode.kind === "settle") {
        const hash = this.contentOf(token.key);
        const record = { ...mode.outcome, epoch: token.epoch, holder: token.holder, ...(hash === undefined ? {} : { hash }) };
        if (!(this.createExclusive(join(dir, "settled"), JSON.stringify(record), now))) {
          return { ok: false, reason: "stale", detail: "the item was already settled" };
        }
      } else {
        writeAtomic(join(dir, `${token.epoch}.released`), JSON.stringify({ epoch: token.epoch, holder: token.holder, notBefore: mode.notBefore }));
      }
    } catch (err) {
      // A full disk refuses the new file, but a rename needs no new space: end the claim anyway,
      // so the item is free now rather than when its lease runs out. Its epoch stays in the
      // history (the next grant counts this attempt); only the outcome or the backoff is lost.
      const ended = attempt(() => this.moveIfMine(dir, token.epoch, token.holder, `${token.epoch}.ended`)) ?? false;
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      return { ok: false, reason: "lost", detail: `could not record the ${mode.kind === "settle" ? "outcome" : "release"} (${code})${ended ? "; the claim was ended so the item can run again" : ""}` };
    }
    this.moveIfMine(dir, token.epoch, token.holder, `${token.epoch}.ended`);
    return { ok: true };
  }

  async reclaimStale(now: number): Promise<readonly ClaimView[]> {
    const taken: ClaimView[] = [];
    for (const name of this.keyDirNames()) {
      const dir = join(this.root, name);
      const { live } = this.read(dir);
      if (live === undefined || live.expiresAt > now) continue;
      // Its holder runs (paused, or its clock behind): it renews when it wakes, and its workers
      // still run — taking the item now would run it twice at once.
      if (live.process !== undefined && this.lives(live.process)) continue;
      if (this.moveIfMine(dir, live.epoch, live.holder, `${live.epoch}.reclaimed-${nonce()}`, now)) taken.push(view(live));
    }
    return taken;
  }

  async activeKeys(now: number, recentMs: number): Promise<readonly string[]> {
    const names = this.keyDirNames();
    const listed = new Set(names);
    for (const name of this.settledAt.keys()) if (!listed.has(name)) this.settledAt.delete(name);
    for (const name of this.liveUntil.keys()) if (!listed.has(name)) this.liveUntil.delete(name);
    const keys: string[] = [];
    const unknown: string[] = [];
    for (const name of names) {
      const settledAt = this.settledAt.get(name);
      if (settledAt !== undefined) {
        if (settledAt >= now - recentMs) keys.push(decodeURIComponent(name));
      } else if ((this.liveUntil.get(name) ?? 0) > now) keys.push(decodeURIComponent(name));
      else unknown.push(name);
    }
    // Only keys not known to be settled need reading.
    const read = unknown.map((name) => {
        const dir = join(this.root, name);
        const live = readLive(join(dir, "claim"));
        const settledAt = attempt(() => statSync(join(dir, "settled")).mtimeMs);
        if (settledAt !== undefined) this.settledAt.set(name, settledAt);
        if (live !== undefined && live.expiresAt > now) this.liveUntil.set(name, live.expiresAt);
        return (live !== undefined && live.expiresAt > now) || (settledAt !== undefined && settledAt >= now - recentMs) ? decodeURIComponent(name) : undefined;
      });
    for (const key of read) if (key !== undefined) keys.push(key);
    return keys;
  }

  async inspect(key: string, _now: number): Promise<KeyState> {
    const state = this.read(this.keyDir(key), key);
    return {
      epoch: state.epoch,
      ...(state.live === undefined ? {} : { live: view(state.live) }),
      ...(state.settled === undefined ? {} : { settled: state.settled }),
      ...(state.notBefore === undefined ? {} : { notBefore: state.notBefore }),
    };
  }

  /** The folders of every key ever claimed (none before the first claim). */
  private keyDirNames(): string[] {
    try {
      return readdirSync(this.root);
    } catch {
      return [];
    }
  }

  /** A key's folder; only a claim creates it: a key with no folder has no claim to renew, release or read. */
  private keyDir(key: string): string {
    return join(this.root, encodeURIComponent(key));
  }

  /** Reads a key's folder (see `readKeyFolder`); given the key, as the content it stands for now sees it. */
  private read(dir: string, key?: string, withLive = true, ended?: EndedClaim): KeyFolder {
    return readKeyFolder(dir, key === undefined ? undefined : () => this.contentOf(key), withLive, ended);
  }

  private fence(dir: string, token: ClaimToken): FencedResult {
    return checkFence((this.read(dir)).live, token);
  }

  /** Links a temp file into place: all or nothing, and fails when the name exists. */
  private createExclusive(path: string, content: string, now: number): boolean {
    const tmp = `${path}.tmp-${nonce()}`;
    try {
      // Inside the try: a write refused by a full disk still leaves an empty temp file to remove.
      writeFileSync(tmp, content);
      utimesSync(tmp, now / 1000, now / 1000);
      linkSync(tmp, path);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
      throw err;
    } finally {
      quietly(() => unlinkSync(tmp));
    }
  }

  /**
   * Renames `claim` away when it is still the given epoch and holder (and, with `expiredAt`, still
   * expired). If another process put a newer claim there in between, it is linked back.
   */
  private moveIfMine(dir: string, epoch: number, holder: string, to: string, expiredAt?: number): boolean {
    const target = join(dir, to);
    try {
      renameSync(join(dir, "claim"), target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
    const moved = readLive(target);
    const still = moved !== undefined && moved.epoch === epoch && moved.holder === holder && (expiredAt === undefined || moved.expiresAt <= expiredAt);
    if (still) return true;
    // Took someone else's fresh claim: put it back. If a third process linked a claim meanwhile, the displaced one is fenced out.
    quietly(() => linkSync(target, join(dir, "claim")));
    quietly(() => unlinkSync(target));
    return false;
  }
}

/** How a denial names a settled key: `settled: <outcome>`, or the whole story when it was another brief. */
function settledDetail(settled: SettledOutcome): string {
  return settled.summary.startsWith(SETTLED_FOR_ANOTHER_BRIEF) || settled.summary.startsWith(CLAIMED_FOR_ANOTHER_BRIEF) ? settled.summary : `settled: ${settled.summary}`;
}
