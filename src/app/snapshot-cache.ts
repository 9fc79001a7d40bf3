import type { BriefSnapshot } from "../core/brief/snapshot.js";

/** The bot's newest snapshot on an issue as last read, or why there is none. */
export type SnapshotRead = { ok: true; snapshot: BriefSnapshot; commentId: number; body: string } | { ok: false; reason: string };

/**
 * The snapshots one process knows, shared by the intake (which writes them) and the scheduler
 * (which dispatches them), so an item queued by this process costs the scheduler no read. An
 * entry holds while the issue's comment count is the one it was read at: a snapshot is always a
 * new comment (a re-approval posts another), so label changes — every claim and landing makes
 * some — do not make the scheduler read the comments again.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { comments: number; result: SnapshotRead }>();

  /** The entry when it is still valid for an issue with `comments` comments. */
  get(repo: string, issue: number, comments: number): SnapshotRead | undefined {
    const entry = this.entries.get(`${repo}#${issue}`);
    return entry !== undefined && entry.comments === comments ? entry.result : undefined;
  }

  /** The entry whatever the count (an item in flight keeps the snapshot it was dispatched with). */
  last(repo: string, issue: number): SnapshotRead | undefined {
    return this.entries.get(`${repo}#${issue}`)?.result;
  }

  set(repo: string, issue: number, comments: number, result: SnapshotRead): void {
    this.entries.set(`${repo}#${issue}`, { comments, result });
  }

  /** The snapshot comment's body changed (a landing note): keep the entry's body current. */
  updateBody(repo: string, commentId: number, body: string): void {
    for (const entry of this.entries.values()) if (entry.result.ok && entry.result.commentId === commentId) entry.result = { ...entry.result, body };
  }
}
