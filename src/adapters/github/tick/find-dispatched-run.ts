import type { Octokit } from "@octokit/rest";

/**
 * The run a workflow dispatch started, found by the run name it was given (newest runs, read fresh,
 * three tries): after a 5xx or a dropped connection the run may have started all the same, and
 * dispatching again would put a second worker on its items.
 */
export async function findDispatchedRun(octokit: Octokit, where: { readonly owner: string; readonly repo: string }, workflow: string, title: string): Promise<{ id: number; url: string } | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { data } = await octokit.rest.actions.listWorkflowRuns({ ...where, workflow_id: workflow, event: "workflow_dispatch", per_page: 30, headers: { "cache-control": "no-cache" } });
      const run = data.workflow_runs.find((r) => r.display_title === title);
      if (run !== undefined) return { id: run.id, url: run.html_url };
    } catch {
      // A failed read is one more reason to look again, not an answer.
    }
  }
  return undefined;
}
