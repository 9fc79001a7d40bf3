import type { ClaimRefsApi } from "./claim-refs-api.js";
import type { ClaimCommit, ClaimRecord } from "../../core/claims/claim-record.js";
import { parseClaimCommit, recordFor } from "../../core/claims/claim-record.js";

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
  /** sha → what the commit says, who GitHub signed it for, and its parents when read on its own. */
  private readonly commits = new Map<string, { readonly commit: ClaimCommit | null; readonly signedBy: string | undefined; readonly parents?: readonly string[] }>();
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
    for (const { sha, message, signedBy } of read) if (!this.commits.has(sha)) this.commits.set(sha, { commit: parseClaimCommit(message) ?? null, signedBy });
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
    return recordFor((await this.commitAt(sha)).commit ?? undefined, ref);
  }

  /** What a commit says, when this process has read it (undefined: not read; null: not a claim commit). */
  commitOf(sha: string): ClaimCommit | null | undefined {
    return this.commits.get(sha)?.commit;
  }

  /** Who GitHub signed a commit for (normalized login), read with its message. */
  async signerAt(sha: string): Promise<string | undefined> {
    return (await this.commitAt(sha)).signedBy;
  }

  /** A commit's parents (read on their own when the listing did not carry them). */
  async parentsOf(sha: string): Promise<readonly string[]> {
    const known = await this.commitAt(sha);
    if (known.parents !== undefined) return known.parents;
    const read = await this.refs.getCommit(sha);
    this.commits.set(sha, { ...known, parents: read.parents });
    return read.parents;
  }

  private async commitAt(sha: string): Promise<{ readonly commit: ClaimCommit | null; readonly signedBy: string | undefined; readonly parents?: readonly string[] }> {
    let known = this.commits.get(sha);
    if (known === undefined) {
      const read = await this.refs.getCommit(sha);
      known = { commit: parseClaimCommit(read.message) ?? null, signedBy: read.signedBy, parents: read.parents };
      this.commits.set(sha, known);
    }
    return known;
  }

  /**
   * The record at a ref as this process last saw it, from memory alone (no request): undefined when
   * the ref or its head commit was never read, or when GitHub did not sign that commit for `signer`.
   */
  lastSeen(ref: string, signer: string | undefined): ClaimRecord | undefined {
    const sha = this.heads.get(ref);
    const known = sha === undefined || sha === null ? undefined : this.commits.get(sha);
    if (known === undefined || (signer !== undefined && known.signedBy !== signer)) return undefined;
    return recordFor(known.commit ?? undefined, ref);
  }

  /** The remembered head (undefined: never seen; null: absent). */
  head(ref: string): string | null | undefined {
    return this.heads.get(ref);
  }

  /** A commit this process wrote (signed for `signedBy`, the identity it writes as): known without reading it back. */
  wrote(sha: string, commit: ClaimCommit, signedBy: string | undefined, parents: readonly string[]): void {
    this.commits.set(sha, { commit, signedBy, parents });
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
