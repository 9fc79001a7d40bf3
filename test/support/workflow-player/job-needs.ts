/** The `needs` context of a queued job: its needs' records, looked up in its own frame (a call's jobs need only each other). */
import type { StatusFacts } from "./evaluate-expression.js";
import type { Value } from "./expression-values.js";
import type { JobResult, PlayedRun, QueuedJob } from "./player-types.js";

export interface JobNeeds {
  readonly needs: Record<string, Value>;
  readonly results: JobResult[];
  /** What `success()`/`failure()` answer in the job's `if:`. */
  readonly status: StatusFacts;
}

export function jobNeeds(run: PlayedRun, entry: QueuedJob): JobNeeds {
  const records = entry.spec.needs.map((n) => [n, run.jobs.get(`${entry.frame.prefix}${n}`)] as const);
  const results = records.map(([, r]) => r?.result ?? "skipped");
  return {
    needs: Object.fromEntries(records.map(([n, r]) => [n, { result: r?.result ?? "skipped", outputs: r?.outputs ?? {} }])),
    results,
    status: { success: results.every((r) => r === "success"), failure: results.some((r) => r === "failure"), cancelled: false },
  };
}
