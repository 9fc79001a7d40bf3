import type { Octokit } from "@octokit/rest";
import type { ConditionalGet } from "../../adapters/github/conditional-get.js";
import type { SchedulerReads, WorkflowRunView } from "./scheduler-github.js";

/**
 * The workflow run reads of the Octokit scheduler adapter. `runIds` (`item:epoch` → run id) is
 * filled by this process's own dispatches, which GitHub answered with their run.
 */
export function octokitRunReads(octokit: Octokit, options: { readonly owner: string; readonly repo: string }, conditional: ConditionalGet, runIds: ReadonlyMap<string, number>): Pick<SchedulerReads, "listRuns" | "knownRunId"> {
  const { owner, repo } = options;
  return {
    async listRuns(enough) {
      // A long run can be pushed off the first page by the short ones after it: read on while a
      // run in flight is still missing (each page a conditional request).
      const out: WorkflowRunView[] = [];
      for (let page = 1; page <= 10; page++) {
        const data = await conditional(`runs:${page}`, (headers) => octokit.rest.actions.listWorkflowRunsForRepo({ owner, repo, event: "workflow_dispatch", per_page: 100, page, headers }));
        for (const r of data.workflow_runs) out.push({ id: r.id, status: r.status ?? "", conclusion: r.conclusion ?? null, displayTitle: r.display_title, url: r.html_url, createdAt: Date.parse(r.created_at), headSha: r.head_sha });
        if (data.workflow_runs.length < 100 || enough === undefined || enough(out)) break;
      }
      return out;
    },

    knownRunId(issue, epoch) {
      return runIds.get(`${issue}:${epoch}`);
    },
  };
}
