import type { WorkerState } from "../../core/engine/decide-step.js";
import { epochOfRunTitle, runTitle, stopFromRun } from "../../core/scheduler/stop-from-run.js";
import type { PullLink, WorkflowRunView } from "./scheduler-github.js";

/**
 * How far a run's creation (GitHub's clock) may precede the grant (the granting replica's clock)
 * and still be that grant's run. Epochs are granted once each (the floor keeps them growing), so a
 * run named for an epoch from before its grant can only be an older life's: it is refused.
 */
export const RUN_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The run of an item's epoch: by the id its dispatch answered when this process dispatched it,
 * else by the run name the dispatch workflow sets from its inputs (`bosun #<n> epoch <e>`) — and
 * only a run created after that epoch was granted. Never by time or order alone.
 */
export function runOf(runs: readonly WorkflowRunView[], n: number, epoch: number, knownId: number | undefined, grantedAt?: number): WorkflowRunView | undefined {
  // A known id is checked against the grant too: an id this process kept for an item and epoch
  // from an earlier life (its claim ref deleted, the epoch granted again) is not this grant's run.
  const sinceGrant = (r: WorkflowRunView): boolean => grantedAt === undefined || r.createdAt === undefined || r.createdAt >= grantedAt - RUN_CLOCK_SKEW_MS;
  if (knownId !== undefined) return runs.find((r) => r.id === knownId && sinceGrant(r));
  const title = runTitle(String(n), epoch);
  return runs.find((r) => r.displayTitle === title && sinceGrant(r));
}

/**
 * What the runs say of an item no claim ref covers: the highest epoch any run was titled with (a
 * grant must start above it), and whether one of them is still queued or in progress (a grant
 * then would put a second worker on the item).
 */
export function runsOfItem(runs: readonly WorkflowRunView[], n: number): { maxEpoch: number; live: boolean } {
  let maxEpoch = 0;
  let live = false;
  for (const r of runs) {
    const epoch = epochOfRunTitle(r.displayTitle ?? "", String(n));
    if (epoch === undefined) continue;
    maxEpoch = Math.max(maxEpoch, epoch);
    if (r.status !== "completed") live = true;
  }
  return { maxEpoch, live };
}

/**
 * What the tick can see of an in-flight item's worker: its run finished (ended, with the run's
 * stop) or still queued or in progress (live); else its pull requests — one merged is done, all
 * closed unmerged is blocked, one open is live. Nothing at all: unseen, and a lapsed lease is
 * taken back.
 */
export function workerOf(run: WorkflowRunView | undefined, links: readonly PullLink[]): WorkerState {
  if (run?.status === "completed") return { kind: "ended", stop: stopFromRun(run.conclusion, run.url) };
  if (run !== undefined) return { kind: "live" };
  const merged = links.find((p) => p.state === "merged");
  if (merged !== undefined) return { kind: "ended", stop: { kind: "done", reason: `pull request #${merged.number} merged` } };
  if (links.length > 0 && links.every((p) => p.state === "closed")) return { kind: "ended", stop: { kind: "blocked", reason: `pull request #${links[0]?.number} was closed unmerged` } };
  if (links.some((p) => p.state === "open")) return { kind: "live" };
  return { kind: "unseen" };
}
