import { isSnapshotComment, parseSnapshotComment } from "../../core/brief/snapshot.js";
import type { SnapshotRead } from "../snapshot-cache.js";

/**
 * The newest snapshot comment by the bot among `comments` (oldest first): the approved one; anyone
 * else's marker proves nothing. Replicas that took in one approval at once each post the same
 * snapshot: of a run of identical latest snapshots the oldest wins (every replica picks the same
 * one) and the others are `extras`, to delete — one snapshot per approval.
 */
export function snapshotOf(issue: number, comments: ReadonlyArray<{ id: number; login: string; body: string }>, botLogin: string): SnapshotRead & { extras: number[] } {
  const all = comments.filter((c) => c.login === botLogin && isSnapshotComment(c.body));
  let first = all.length - 1;
  while (first > 0 && all[first - 1]?.body === all[first]?.body) first--;
  const mine = all[first];
  if (mine === undefined) return { ok: false, reason: `issue #${issue} has no snapshot comment by ${botLogin}`, extras: [] };
  const extras = all.slice(first + 1).map((c) => c.id);
  const parsed = parseSnapshotComment(mine.body, `issue #${issue}`);
  return parsed.ok ? { ok: true, snapshot: parsed.snapshot, commentId: mine.id, body: mine.body, extras } : { ok: false, reason: parsed.reason, extras };
}
