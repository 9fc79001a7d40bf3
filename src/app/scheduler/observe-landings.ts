import { landingFor } from "../../core/engine/decide-step.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import type { JournalEvent } from "../../core/journal/journal-event.js";
import { landEvent } from "../../core/journal/land-event.js";
import { stopFromRun } from "../../core/scheduler/stop-from-run.js";
import type { Disposition, Stop } from "../../core/stop/stop.js";
import type { RunCost } from "../../core/journal/run-cost.js";
import type { TickDeps, TickReport } from "./reconcile-tick.js";
import { runOf } from "./run-of.js";
import type { WorkflowRunView, WorkRecordRead } from "./scheduler-github.js";
import { stepOptionsOf } from "./step-options-of.js";
import { tallyWorkRecord } from "./work-cost-of.js";

/** An item this process saw in flight in a `workflow` pool, at the epoch it saw. */
export interface WatchedFlight {
  readonly n: number;
  readonly epoch: number;
  readonly grantedAt?: number;
}

/** The key of a watched flight: one per item and epoch (a retry granted in the same tick is watched beside the landing one). */
const keyOf = (n: number, epoch: number): string => `${n}:${epoch}`;

/** How many flights one scheduler watches at most (a pool's size is far below it). */
const MAX_WATCHED = 1000;

/**
 * Journals the LAND of every `work` run that landed its own claim since the last tick. A `work`
 * run's land job moves the claim itself (fenced by its epoch), so the App's tick never lands it
 * and would journal nothing for it: no stop, no cost on the dashboard. So the App watches what it
 * saw in flight in a `workflow` pool; once an item has left that epoch without this process
 * journalling a LAND or RECLAIM for it, the run of that epoch (by the id its dispatch answered,
 * or its exact name) is asked for its `bosun/work` record — only then, never on an idle tick —
 * and the LAND is journalled from it: the stop the land job landed and its cost. Without a record
 * the run's conclusion is the stop once the run has ended, with no cost (`runs missing`); while
 * the run still runs and no record shows yet, the next tick looks again. Each (item, epoch) is
 * journalled once. Returns what it journalled, for the dashboard's recent lands.
 */
export async function observeLandings(deps: TickDeps, watching: Map<string, WatchedFlight>, report: TickReport, journalled: readonly JournalEvent[]): Promise<Array<{ issue: number; disposition: Disposition; summary: string }>> {
  const observed: Array<{ issue: number; disposition: Disposition; summary: string }> = [];
  // A tick that lost every race reports nothing in flight: that is not every item landing.
  if (report.busy) return observed;
  const flying = new Map(report.inFlight.map((f) => [f.issue, f.epoch]));
  const left: Array<[string, WatchedFlight]> = [];
  for (const [key, w] of watching) {
    if (flying.get(w.n) === w.epoch) continue;
    if (journalled.some((e) => (e.event === "LAND" || e.event === "RECLAIM") && e.item === String(w.n) && e.epoch === w.epoch)) watching.delete(key);
    else left.push([key, w]);
  }
  if (left.length > 0) {
    const runOfFlight = (runs: readonly WorkflowRunView[], w: WatchedFlight) => runOf(runs, w.n, w.epoch, deps.github.knownRunId(w.n, w.epoch), w.grantedAt);
    // Pages are read on (up to the listing's bound) while a run of those epochs is still missing.
    const runs = await deps.github.listRuns((rs) => left.every(([, w]) => runOfFlight(rs, w) !== undefined));
    await journalLeft(deps, watching, left, (w) => runOfFlight(runs, w), observed);
  }
  for (const f of report.inFlight) {
    if (deps.config.pools[f.pool]?.dispatch.kind !== "workflow") continue;
    const key = keyOf(f.issue, f.epoch);
    if (watching.size >= MAX_WATCHED && !watching.has(key)) break;
    watching.set(key, { n: f.issue, epoch: f.epoch, ...(f.grantedAt === undefined ? {} : { grantedAt: f.grantedAt }) });
  }
  return observed;
}

/** Journals the LAND of each flight that left its epoch elsewhere, from its run's record or, once the run ended, its conclusion. */
async function journalLeft(deps: TickDeps, watching: Map<string, WatchedFlight>, left: ReadonlyArray<[string, WatchedFlight]>, runOfFlight: (w: WatchedFlight) => WorkflowRunView | undefined, observed: Array<{ issue: number; disposition: Disposition; summary: string }>): Promise<void> {
  for (const [key, w] of left) {
    const n = w.n;
    const run = runOfFlight(w);
    if (run === undefined) {
      // No run of that epoch to speak for it (taken back before its run showed): nothing to journal.
      watching.delete(key);
      continue;
    }
    let read: WorkRecordRead;
    try {
      read = await deps.github.workRecord(n, w.epoch, run);
    } catch (err) {
      read = { ignored: [`could not be read (${err instanceof Error ? err.message : String(err)})`] };
    }
    let stop: Stop;
    let cost: RunCost | undefined;
    if ("record" in read) ({ stop, cost } = read.record);
    else if (run.status === "completed") stop = stopFromRun(run.conclusion, run.url);
    else continue;
    tallyWorkRecord(deps.workRecords, read);
    watching.delete(key);
    // The same rule the land job landed it by: its stop at its epoch, under this configuration.
    const landing = landingFor(stop, w.epoch, deps.clock.now(), stepOptionsOf(deps.config));
    journalEmitter(deps.journal, deps.clock)(landEvent(String(n), w.epoch, { stop, ...(cost === undefined ? {} : { cost }) }, landing.disposition));
    observed.push({ issue: n, disposition: landing.disposition, summary: landing.summary });
  }
}
