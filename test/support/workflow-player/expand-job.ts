/**
 * A matrix job or a job that calls a reusable workflow, turned into the jobs it is made of when it
 * comes up: one job per matrix leg (`build (linux, 18)`), or the called workflow's jobs per call
 * (`item (12, 3) / check`; a call without a matrix: `item / check`), each call planned on its own so
 * `needs` and outputs stay within it. The job's `if:` was evaluated before (GitHub evaluates it
 * before the matrix, without the `matrix` context).
 */
import { callWorkflow } from "./call-workflow.js";
import { toValue, truthy, type Value } from "./expression-values.js";
import { expandMatrix, type MatrixLeg } from "./expand-matrix.js";
import { interpolateValue } from "./interpolate.js";
import { planJobs } from "./plan-jobs.js";
import type { JobGroup, PlayedRun, QueuedJob } from "./player-types.js";

export const needsExpansion = (entry: QueuedJob): boolean => !entry.conditionChecked && (entry.spec.strategy !== undefined || entry.spec.uses !== undefined);

/** The call of one leg (or of the job without a matrix): the called workflow's jobs, planned as a group under `key`. */
function call(run: PlayedRun, entry: QueuedJob, key: string, groups: QueuedJob["groups"], contexts: Record<string, Value>): QueuedJob[] {
  const frame = callWorkflow(run, entry.frame, entry.spec, `${key} / `, { contexts: { ...contexts, secrets: toValue(entry.frame.secrets) } });
  const group: JobGroup = { key, kind: "call", members: [], failFast: false, frame };
  const jobs = planJobs(frame, groups, group);
  group.members.push(...jobs.map((j) => j.key));
  return jobs;
}

/** The jobs `entry` is made of, first to run first; throws GitHub's error (naming the job) when it cannot be expanded. */
export function expandJob(run: PlayedRun, entry: QueuedJob, contexts: Record<string, Value>): QueuedJob[] {
  const { spec } = entry;
  const strategy = spec.strategy;
  if (strategy === undefined) return call(run, entry, entry.key, entry.groups, { ...contexts, matrix: null, strategy: null });
  let legs: MatrixLeg[];
  let failFast: boolean;
  try {
    legs = expandMatrix(strategy.matrix, { contexts });
    failFast = typeof strategy.failFast === "string" ? truthy(interpolateValue(strategy.failFast, { contexts })) : strategy.failFast;
  } catch (err) {
    throw new Error(`Error when evaluating 'strategy' for job '${spec.id}'. ${entry.frame.workflow.path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const group: JobGroup = { key: entry.key, kind: "matrix", members: [], failFast };
  const jobs: QueuedJob[] = [];
  for (const [index, leg] of legs.entries()) {
    let key = `${entry.key} (${leg.label === "" ? String(index + 1) : leg.label})`;
    if (group.members.includes(key)) key = `${key} [${index + 1}]`;
    group.members.push(key);
    const strategyContext: Value = { "fail-fast": failFast, "job-index": index, "job-total": legs.length, "max-parallel": legs.length };
    const groups = [...entry.groups, { group, member: key }];
    if (spec.uses !== undefined) jobs.push(...call(run, entry, key, groups, { ...contexts, matrix: leg.matrix, strategy: strategyContext }));
    else jobs.push({ spec, key, frame: entry.frame, matrix: leg.matrix, strategy: strategyContext, conditionChecked: true, groups });
  }
  return jobs;
}
