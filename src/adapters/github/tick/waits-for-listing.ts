import type { WorkerState } from "../../../core/engine/step-state.js";

/**
 * How long after a run ended its pull request may still be missing from GitHub's listings: a
 * listing can be served by a replica a moment behind the write that opened it.
 */
export const LISTING_LAG_MS = 60_000;

/**
 * Whether a worker that ended done, with no pull request in the listing, is given a moment before
 * it lands as having none (which sends its item to a human): its run ended within the listing's lag.
 * Meanwhile it counts as live, keeping its claim. A run's end time is GitHub's (`updated_at`).
 */
export function waitsForListing(worker: WorkerState, pulls: number, endedAt: number | undefined, now: number): boolean {
  return worker.kind === "ended" && worker.stop.kind === "done" && pulls === 0 && endedAt !== undefined && now - endedAt < LISTING_LAG_MS;
}
