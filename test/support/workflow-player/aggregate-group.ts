/**
 * The record of a matrix job or a call once its last member has been played, as `needs.<id>` and the
 * run's conclusion see it: failure if any member failed, else cancelled if any was cancelled, else
 * success if any succeeded, else skipped. A call's outputs are its `on.workflow_call.outputs` (with
 * the `jobs` context of the called jobs); a matrix job's are its legs' outputs, a later leg's
 * non-empty value winning ("the output set by the last successful completing reusable workflow of
 * the matrix which actually sets a value").
 */
import type { Value } from "./expression-values.js";
import { interpolate } from "./interpolate.js";
import { githubContext } from "./job-environment.js";
import type { JobGroup, JobRecord, JobResult, PlayedRun, PlayerRuntime } from "./player-types.js";

function result(results: readonly JobResult[]): JobResult {
  if (results.some((r) => r === "failure")) return "failure";
  if (results.some((r) => r === "cancelled")) return "cancelled";
  return results.some((r) => r === "success") ? "success" : "skipped";
}

export function aggregateGroup(runtime: PlayerRuntime, run: PlayedRun, group: JobGroup): JobRecord {
  const members = group.members.map((key) => [key, run.jobs.get(key)] as const);
  const record: JobRecord = {
    id: group.key,
    result: result(members.map(([, r]) => r?.result ?? "skipped")),
    outputs: {},
    reason: members.map(([key, r]) => `${key}: ${r?.result ?? "not played"}`).join(", "),
    log: [],
    summaries: [],
  };
  const frame = group.frame;
  if (group.kind === "matrix" || frame === undefined) {
    for (const [, r] of members) for (const [name, value] of Object.entries(r?.outputs ?? {})) if (value !== "" && r?.result === "success") record.outputs[name] = value;
    return record;
  }
  const jobs: Record<string, Value> = Object.fromEntries(frame.workflow.jobs.map((j) => {
    const r = run.jobs.get(`${frame.prefix}${j.id}`);
    return [j.id, { result: r?.result ?? "skipped", outputs: r?.outputs ?? {} }];
  }));
  const github = githubContext(run, { id: group.key }, runtime.options.fake.url);
  try {
    for (const [name, expression] of Object.entries(frame.workflow.on["workflow_call"]?.outputs ?? {})) {
      record.outputs[name] = interpolate(expression, { contexts: { github, jobs, inputs: frame.inputs, vars: { ...runtime.options.vars } } });
    }
  } catch (err) {
    record.result = "failure";
    record.reason = `on.workflow_call.outputs: ${err instanceof Error ? err.message : String(err)}`;
  }
  return record;
}
