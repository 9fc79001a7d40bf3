import { normalizeLogin } from "./identity.js";

/** One change to the head branch as GitHub's repository activity list records it. */
export interface PushFact {
  /** `push`, `force_push`, `branch_creation`, `branch_deletion`, `pr_merge`, `merge_queue_merge`. */
  readonly type: string;
  /** The account that made it; null when GitHub no longer names one (a deleted account). */
  readonly actor: string | null;
  /** The branch's commit after the change. */
  readonly after: string;
  /** ISO time of the change. */
  readonly at: string;
}

/** GitHub's record of one branch's changes, newest first, and whether all of it was read. */
export interface PushRecord {
  readonly branch: string;
  readonly activities: readonly PushFact[];
  /** False when the list was longer than the reader's bound. */
  readonly complete: boolean;
}

/** Everyone who moved the head branch, or why the record cannot say. */
export type Pushers = { readonly ok: true; readonly logins: readonly string[] } | { readonly ok: false; readonly why: string };

/**
 * Who pushed to the head branch, from GitHub's record of pushes (never commit metadata, which the
 * pusher writes). The record must be whole: read to its end, reaching back to the branch's creation
 * and forward to the head being judged (a record that lags behind the head could miss the last
 * pusher), and naming every actor. Otherwise nobody can be ruled out, and the answer is why.
 */
export function pushersOf(record: PushRecord | undefined, headSha: string): Pushers {
  if (record === undefined) return { ok: false, why: "GitHub's record of pushes to the head branch was not read" };
  const where = `GitHub's record of pushes to ${record.branch}`;
  if (!record.complete) return { ok: false, why: `${where} is longer than Bosun reads, so not every pusher is known` };
  if (!record.activities.some((a) => a.type === "branch_creation")) return { ok: false, why: `${where} does not reach back to the branch's creation, so not every pusher is known` };
  const newest = [...record.activities].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))[0];
  if (newest?.after.toLowerCase() !== headSha.toLowerCase()) return { ok: false, why: `${where} ends at ${newest?.after.slice(0, 12) ?? "nothing"}, not at the head ${headSha.slice(0, 12)} (it may lag behind the push): run again shortly` };
  if (record.activities.some((a) => a.actor === null)) return { ok: false, why: `${where} has a push by an account GitHub no longer names` };
  return { ok: true, logins: [...new Set(record.activities.map((a) => a.actor ?? ""))] };
}

/** Normalized logins of the pushers, for comparison with approvers. */
export function pusherKeys(pushers: Pushers): Set<string> {
  return new Set(pushers.ok ? pushers.logins.map(normalizeLogin) : []);
}
