import type { WorkerState } from "../../../core/engine/step-state.js";
import { closedThisAttempt } from "./closed-this-attempt.js";
import type { PullLink } from "./tick-github.js";
import { ownShown } from "./waits-for-listing.js";

/**
 * Whether a held item's pull requests are listed once more (conditionally) before the tick decides
 * on them: where the decision rests on the worker's pull request being absent, or closed, in a
 * listing this process may have read before it changed (its webhook went to another replica, or was
 * lost). A run that ended lands without one of Bosun's own (to a human, or on someone else's). A
 * worker shown only by its pull requests (a `label`, `assign` or `comment` pool) whose lease ran
 * out is sent again unless one shows it — open or merged, or closed during this attempt (an earlier
 * attempt's closed one, of an item a maintainer requeued, does not); one shown closed during this
 * attempt ends it for a human, and may have been reopened since.
 */
export function listsAgain(worker: WorkerState, links: readonly PullLink[], record: { readonly grantedAt?: number; readonly leaseUntil: number }, now: number): boolean {
  if (worker.kind === "ended") return !ownShown(links);
  if (worker.kind !== "unseen") return false;
  if (closedThisAttempt(links, record.grantedAt) !== undefined) return true;
  return record.leaseUntil <= now && !links.some((p) => p.state !== "closed");
}
