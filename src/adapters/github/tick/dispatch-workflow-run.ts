import type { Octokit } from "@octokit/rest";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { statusOf } from "../status-of.js";
import { DispatchOutcomeUnknown } from "./dispatch-outcome-unknown.js";
import { findDispatchedRun } from "./find-dispatched-run.js";

export interface WorkflowRunTarget {
  readonly owner: string;
  readonly repo: string;
  readonly defaultBranch: string;
  readonly botLogin: string;
  readonly now: () => number;
}

/**
 * One `workflow_dispatch` (one item's or a batch's), answered with its run. A 4xx started nothing
 * and is rethrown. A 5xx or a dropped connection may come after GitHub started the run, and
 * dispatching again would put a second worker on its items: the run is looked for by the name it
 * was given (`title`), and not found yet is no answer either (runs reach listings seconds later) —
 * `DispatchOutcomeUnknown` naming `issue`, so the claims are kept and matched by name later. The
 * run started is recorded in `runIds` under every `keys` (`item:epoch`), so this process lands it
 * by id; other replicas match it by its name.
 */
export async function dispatchWorkflowRun(octokit: Octokit, target: WorkflowRunTarget, dispatch: { readonly workflow: string; readonly ref?: string | undefined }, call: { readonly inputs: Record<string, string>; readonly title: string; readonly issue: number; readonly keys: readonly string[] }, runIds: Map<string, number>): Promise<{ runId?: number; url?: string }> {
  const { owner, repo } = target;
  const remember = (id: number): void => {
    for (const key of call.keys) runIds.set(key, id);
  };
  const sentAt = target.now();
  let answer;
  try {
    answer = await octokit.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { owner, repo, workflow_id: dispatch.workflow, ref: dispatch.ref ?? target.defaultBranch, inputs: call.inputs, return_run_details: true });
  } catch (err) {
    const code = statusOf(err);
    if (code !== undefined && code < 500) throw err;
    const started = await findDispatchedRun(octokit, { owner, repo, bot: normalizeLogin(target.botLogin), since: sentAt }, dispatch.workflow, call.title);
    if (started === undefined) throw new DispatchOutcomeUnknown(call.issue, err);
    remember(started.id);
    return { runId: started.id, url: started.url };
  }
  const details = answer.status === 200 ? (answer.data as unknown as { workflow_run_id?: number; html_url?: string }) : {};
  if (details.workflow_run_id !== undefined) remember(details.workflow_run_id);
  return { ...(details.workflow_run_id === undefined ? {} : { runId: details.workflow_run_id }), ...(details.html_url === undefined ? {} : { url: details.html_url }) };
}
