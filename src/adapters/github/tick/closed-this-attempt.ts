import type { PullLink } from "./tick-github.js";

/** How far GitHub's clock and a replica's may disagree when a pull request's opening is set against a grant. */
const CLOCKS_APART_MS = 60_000;

/**
 * The pull request, closed unmerged, that ends this attempt of a worker shown only by its pull
 * requests (a `label`, `assign` or `comment` pool), when every one listed for the item is closed:
 * one opened during this attempt (since its grant). One opened before the grant was an earlier
 * attempt's — a maintainer may have requeued the item after it was closed — and says nothing of
 * this one. Undefined: none (the worker has not shown). A pull request whose opening is unknown
 * counts. Known gap: one opened within the clock tolerance before a quick requeue still counts.
 */
export function closedThisAttempt(links: readonly PullLink[], grantedAt: number | undefined): PullLink | undefined {
  if (links.length === 0 || links.some((p) => p.state !== "closed")) return undefined;
  return links.find((p) => grantedAt === undefined || p.createdAt === undefined || p.createdAt >= grantedAt - CLOCKS_APART_MS);
}
