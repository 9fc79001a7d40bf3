import type { WorkerState } from "../../../core/engine/step-state.js";
import type { PullLink } from "./tick-github.js";

/**
 * How long after a run ended its pull request may still be missing from GitHub's listings: a
 * listing can be served by a replica a moment behind the write that opened it.
 */
export const LISTING_LAG_MS = 60_000;

/** Whether the listing shows one of Bosun's own pull requests for the item (its branch), open or merged: the work a run left. */
export const ownShown = (links: readonly PullLink[]): boolean => links.some((p) => p.bosunBranch && (p.state === "open" || p.state === "merged"));

/**
 * Whether a run that ended done, with none of Bosun's pull requests for its item in the listing, is
 * given a moment before it lands without one (to a human, or on someone else's pull request that
 * says it closes the item): its run ended within the listing's lag. Meanwhile it counts as live,
 * keeping its claim. A run's end time is GitHub's (`updated_at`).
 */
export function waitsForListing(worker: WorkerState, own: boolean, endedAt: number | undefined, now: number): boolean {
  return worker.kind === "ended" && worker.stop.kind === "done" && !own && endedAt !== undefined && now - endedAt < LISTING_LAG_MS;
}
