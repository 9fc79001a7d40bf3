import type { Octokit } from "@octokit/rest";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { RUN_CLOCK_SKEW_MS } from "./run-of.js";

/**
 * The run a workflow dispatch started, found by the run name it was given (newest runs, read fresh,
 * three tries): after a 5xx or a dropped connection the run may have started all the same, and
 * dispatching again would put a second worker on its items. Only a run the App started (`bot`,
 * normalized) and created since the dispatch began (`since`, ms, GitHub's clock allowed its skew):
 * anyone with write access can dispatch the workflow with the title Bosun would write.
 */
export async function findDispatchedRun(octokit: Octokit, where: { readonly owner: string; readonly repo: string; readonly bot: string; readonly since: number }, workflow: string, title: string): Promise<{ id: number; url: string } | undefined> {
  const { owner, repo } = where;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { data } = await octokit.rest.actions.listWorkflowRuns({ owner, repo, workflow_id: workflow, event: "workflow_dispatch", per_page: 30, headers: { "cache-control": "no-cache" } });
      const run = data.workflow_runs.find((r) => r.display_title === title && normalizeLogin(r.actor?.login ?? "") === where.bot && Date.parse(r.created_at) >= where.since - RUN_CLOCK_SKEW_MS);
      if (run !== undefined) return { id: run.id, url: run.html_url };
    } catch {
      // A failed read is one more reason to look again, not an answer.
    }
  }
  return undefined;
}
