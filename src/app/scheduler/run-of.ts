import { runTitle } from "../../core/scheduler/stop-from-run.js";
import type { PullLink, WorkflowRunView } from "./scheduler-github.js";

/**
 * Whether an in-flight item shows signs of life worth a lease renewal: its workflow run for this
 * epoch has not finished, or a pull request for it is open. A claim whose dispatch never started
 * anything is left to expire, so the item runs again instead of being held forever.
 */
export function stillRunning(run: WorkflowRunView | undefined, n: number, pulls: ReadonlyMap<number, readonly PullLink[]>): boolean {
  if (run !== undefined) return run.status !== "completed";
  return (pulls.get(n) ?? []).some((p) => p.state === "open");
}

/**
 * The run of an item's epoch: by the id its dispatch answered when this process dispatched it,
 * else by the run name the dispatch workflow sets from its inputs (`bosun #<n> epoch <e>`), which
 * names exactly one dispatch. Never by time or order.
 */
export function runOf(runs: readonly WorkflowRunView[], n: number, epoch: number, knownId: number | undefined): WorkflowRunView | undefined {
  if (knownId !== undefined) return runs.find((r) => r.id === knownId);
  return runs.find((r) => r.displayTitle === runTitle(String(n), epoch));
}
