import type { ClaimRefsApi } from "./claim-refs-api.js";
import type { ClaimCommit, ClaimRecord } from "./claim-record.js";
import { parseClaimCommit, recordFor } from "./claim-record.js";

/** Unread claim commits above which a listing reads their messages in one GraphQL query. */
const READ_AHEAD_FROM = 2;

/**
 * What one process knows of the claim refs: where each pointed when last seen (a listing, or its
 * own write) and what each claim commit says (commits never change, so they are cached by sha).
 * Writes start from a remembered head without reading the ref again: a stale head only makes the
 * compare-and-swap fail, and the ref is then read back, so being optimistic costs no safety.
 */
export class ClaimRefView {
  /** ref → sha, or null when it did not exist. */
  private readonly heads = new Map<string, string | null>();
  private readonly commits = new Map<string, ClaimCommit | null>();
  private lastListed: ReadonlyArray<{ ref: string; sha: string }> = [];
  private listedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly refs: ClaimRefsApi,
    private readonly prefix: string,
  ) {}

  /**
   * The claim refs. `maxAgeMs`: a listing that recent will do (with this process's writes since
   * applied to it); otherwise a conditional listing, whose 304 means "as last listed", tried up
   * to `attempts` times.
   */
  async list(maxAgeMs = 0, attempts = 1): Promise<ReadonlyArray<{ ref: string; sha: string }>> {
    if (maxAgeMs > 0 && Date.now() - this.listedAt <= maxAgeMs) {
      return [...this.heads].filter((e): e is [string, string] => e[1] !== null && e[0].startsWith(this.prefix)).map(([ref, sha]) => ({ ref, sha }));
    }
    let listed: ReadonlyArray<{ ref: string; sha: string }> | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        listed = await this.refs.listRefs(this.prefix);
        break;
      } catch (err) {
        if (attempt >= attempts) throw err;
      }
    }
    this.lastListed = listed ?? this.lastListed;
    this.listedAt = Date.now();
    // The listing is the truth: our own writes it does not show did not land.
    for (const key of this.heads.keys()) if (key.startsWith(this.prefix)) this.heads.set(key, null);
    for (const { ref, sha } of this.lastListed) this.heads.set(ref, sha);
    return this.lastListed;
  }

  /**
   * Many commits never read (a new process, an Action run): one query per 100 refs reads their
   * messages instead of one request each. Counted by commit: a batch commit heads every ref it
   * moved. Only a shortcut: if it fails, each commit is read on its own later.
   */
  async readAhead(refs: ReadonlyArray<{ sha: string }>): Promise<void> {
    const unknown = new Set(refs.filter(({ sha }) => !this.commits.has(sha)).map(({ sha }) => sha)).size;
    if (unknown <= READ_AHEAD_FROM) return;
    const read = await this.refs.listRefsWithMessages(this.prefix).catch(() => []);
    for (const { sha, message } of read) if (!this.commits.has(sha)) this.commits.set(sha, parseClaimCommit(message) ?? null);
  }

  /** The ref's head and its record, from memory when known. */
  async read(ref: string): Promise<{ sha: string; record: ClaimRecord | undefined } | undefined> {
    let known = this.heads.get(ref);
    // A ref under the prefix that the last listing did not show does not exist, as far as we know:
    // creating it fails if it appeared since, and the ref is then read back.
    if (known === undefined && ref.startsWith(this.prefix) && this.listedAt > Number.NEGATIVE_INFINITY) known = null;
    const sha = known !== undefined ? (known ?? undefined) : await this.refs.getRef(ref);
    if (known === undefined) this.heads.set(ref, sha ?? null);
    if (sha === undefined) return undefined;
    return { sha, record: await this.recordAt(sha, ref) };
  }

  /** The record a commit holds for a ref (read once per commit). */
  async recordAt(sha: string, ref: string): Promise<ClaimRecord | undefined> {
    if (!this.commits.has(sha)) this.commits.set(sha, parseClaimCommit(await this.refs.getCommitMessage(sha)) ?? null);
    return recordFor(this.commits.get(sha) ?? undefined, ref);
  }

  /** The remembered head (undefined: never seen; null: absent). */
  head(ref: string): string | null | undefined {
    return this.heads.get(ref);
  }

  /** A commit this process wrote: known without reading it back. */
  wrote(sha: string, commit: ClaimCommit): void {
    this.commits.set(sha, commit);
  }

  /** A ref now points at `sha` (null: deleted), as this process's own write or read says. */
  moved(ref: string, sha: string | null): void {
    this.heads.set(ref, sha);
  }

  /** Reads the ref fresh (after a write whose outcome is unknown) and remembers it. */
  async readBack(ref: string): Promise<string | null> {
    const sha = (await this.refs.getRef(ref)) ?? null;
    this.heads.set(ref, sha);
    return sha;
  }
}
