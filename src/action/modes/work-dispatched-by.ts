import type { Octokit } from "@octokit/rest";
import type { ActionIo } from "../action-io.js";

/** Who GitHub says started this run, and by which event (read from the run itself, not from inputs). */
export async function dispatchedBy(octokit: Octokit, io: ActionIo): Promise<{ actor: string; event: string; problem?: string }> {
  if (!(io.event.runId > 0)) return { actor: "", event: "", problem: "GITHUB_RUN_ID is not set: the run cannot be identified" };
  try {
    const { data } = await octokit.rest.actions.getWorkflowRun({ ...io.event.repo, run_id: io.event.runId });
    if (data.event !== "workflow_dispatch") return { actor: data.actor?.login ?? "", event: data.event, problem: `it was started by ${data.event}, not workflow_dispatch` };
    // Bosun dispatches a run's first attempt only; a re-run is someone's (even one of Bosun's own login would be no dispatch).
    if ((data.run_attempt ?? 1) > 1) return { actor: data.triggering_actor?.login ?? "", event: data.event, problem: `this is attempt ${data.run_attempt} of the run, re-run by ${data.triggering_actor?.login ?? "someone"}` };
    return { actor: data.triggering_actor?.login ?? data.actor?.login ?? "", event: data.event };
  } catch (err) {
    return { actor: "", event: "", problem: `the run ${io.event.runId} could not be read (${err instanceof Error ? err.message : String(err)}): it needs actions: read` };
  }
}
