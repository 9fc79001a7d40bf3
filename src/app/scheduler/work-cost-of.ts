import type { Landing } from "./land-item.js";
import type { TickDeps } from "./reconcile-tick.js";
import type { WorkflowRunView, WorkRecordRead } from "./scheduler-github.js";

/** What the `bosun/work` records read so far said: how many were believed, and why the others were not. */
export interface WorkRecordTally {
  read: number;
  readonly ignored: Map<string, number>;
}

/** Counts one read's outcome into the tally (reasons kept to one line of bounded length, without markup: the dashboard shows them). */
export function tallyWorkRecord(tally: WorkRecordTally | undefined, read: WorkRecordRead): void {
  if (tally === undefined) return;
  if ("record" in read) tally.read++;
  for (const why of read.ignored) {
    const key = why.replace(/\s+/g, " ").replace(/[`<>|*_[\]]/g, "").slice(0, 200);
    tally.ignored.set(key, (tally.ignored.get(key) ?? 0) + 1);
  }
}

/**
 * Reads the run's `bosun/work` record and returns its landing with the cost the record carries.
 * The landing itself stands as decided (the claim already moved): a record that is missing, not
 * believed or unreadable leaves the LAND without a cost, and the metrics count it in `runs
 * missing`; a read that fails never keeps the run from landing.
 */
export async function withWorkCost(deps: Pick<TickDeps, "github" | "workRecords">, n: number, epoch: number, run: WorkflowRunView, landing: Landing): Promise<Landing> {
  let read: WorkRecordRead;
  try {
    read = await deps.github.workRecord(n, epoch, run);
  } catch (err) {
    read = { ignored: [`could not be read (${err instanceof Error ? err.message : String(err)})`] };
  }
  tallyWorkRecord(deps.workRecords, read);
  if (!("record" in read) || read.record.cost === undefined) return landing;
  return { ...landing, cost: read.record.cost };
}
