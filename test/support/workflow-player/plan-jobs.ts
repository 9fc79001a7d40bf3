/** The jobs of one workflow (the run's, or a called one) queued in `needs` order, file order among equals. */
import type { JobSpec } from "./parse-workflow.js";
import type { JobFrame, JobGroup, QueuedJob } from "./player-types.js";

function topological(jobs: readonly JobSpec[]): JobSpec[] {
  const out: JobSpec[] = [];
  const placed = new Set<string>();
  while (out.length < jobs.length) {
    const next = jobs.find((j) => !placed.has(j.id) && j.needs.every((n) => placed.has(n)));
    if (next === undefined) throw new Error(`jobs ${jobs.filter((j) => !placed.has(j.id)).map((j) => j.id).join(", ")} need each other in a cycle`);
    out.push(next);
    placed.add(next.id);
  }
  return out;
}

/** The frame's jobs, each inside `groups` and, when given, a member of `call` (the call that made the frame). */
export function planJobs(frame: JobFrame, groups: QueuedJob["groups"], call?: JobGroup): QueuedJob[] {
  return topological(frame.workflow.jobs).map((spec) => {
    const key = `${frame.prefix}${spec.id}`;
    return { spec, key, frame, matrix: null, strategy: null, conditionChecked: false, groups: call === undefined ? groups : [...groups, { group: call, member: key }] };
  });
}
