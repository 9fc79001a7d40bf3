/**
 * Plays the next job of a run, one at a time as `runNextJob()` promises: a matrix job or a call is
 * first checked against its `if:` (once, before its matrix) and expanded into the jobs it is made of,
 * then the first of those is played. After each job, the groups it completes get their aggregated
 * record, and a failed matrix leg with `fail-fast` (GitHub's default) trips its matrix: the legs not
 * started yet are cancelled as they come up (GitHub cancels the in-progress and queued legs; here
 * legs run one after another, so the failed leg's own later jobs still run as its `if:`s say).
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstrategyfail-fast
 */
import { aggregateGroup } from "./aggregate-group.js";
import { toValue } from "./expression-values.js";
import { expandJob, needsExpansion } from "./expand-job.js";
import { evaluateIf } from "./interpolate.js";
import { githubContext } from "./job-environment.js";
import { jobNeeds } from "./job-needs.js";
import type { JobRecord, PlayedRun, PlayerRuntime, QueuedJob } from "./player-types.js";
import { runJob } from "./run-job.js";

const recordOf = (key: string, result: JobRecord["result"], reason: string): JobRecord => ({ id: key, result, outputs: {}, reason, log: result === "failure" ? [`[job] ${reason}`] : [], summaries: [] });

function settle(runtime: PlayerRuntime, run: PlayedRun, entry: QueuedJob, record: JobRecord): void {
  run.jobs.set(entry.key, record);
  if (record.result === "failure") {
    for (const { group, member } of entry.groups) if (group.kind === "matrix" && group.failFast) group.trippedBy ??= member;
  }
  for (const { group } of [...entry.groups].reverse()) {
    if (run.jobs.has(group.key) || !group.members.every((m) => run.jobs.has(m))) break;
    run.jobs.set(group.key, aggregateGroup(runtime, run, group));
  }
}

/** Plays one job of `run` (nothing when none is left). */
export async function playNextJob(runtime: PlayerRuntime, run: PlayedRun): Promise<void> {
  for (;;) {
    const entry = run.pendingJobs.shift();
    if (entry === undefined) return;
    const tripped = entry.groups.find(({ group, member }) => group.trippedBy !== undefined && group.trippedBy !== member);
    if (tripped !== undefined) {
      settle(runtime, run, entry, recordOf(entry.key, "cancelled", `fail-fast: ${tripped.group.trippedBy ?? ""} failed`));
      return;
    }
    if (!needsExpansion(entry)) {
      settle(runtime, run, entry, await runJob(runtime, run, entry));
      return;
    }
    const { needs, results, status } = jobNeeds(run, entry);
    // jobs.<id>.if and jobs.<id>.strategy see github, needs, vars and inputs (no matrix yet).
    const contexts = { github: githubContext(run, entry.spec, runtime.options.fake.url), needs, inputs: entry.frame.inputs, vars: toValue({ ...runtime.options.vars }) };
    try {
      if (!evaluateIf(entry.spec.if, { contexts, status })) {
        settle(runtime, run, entry, recordOf(entry.key, "skipped", entry.spec.if === undefined ? `a needed job did not succeed (${results.join(", ")})` : `if: ${String(entry.spec.if)} is false`));
        return;
      }
      const jobs = expandJob(run, entry, contexts);
      if (jobs.length === 0) {
        settle(runtime, run, entry, recordOf(entry.key, "skipped", "it is made of no jobs"));
        return;
      }
      run.pendingJobs.unshift(...jobs);
    } catch (err) {
      settle(runtime, run, entry, recordOf(entry.key, "failure", err instanceof Error ? err.message : String(err)));
      return;
    }
  }
}
