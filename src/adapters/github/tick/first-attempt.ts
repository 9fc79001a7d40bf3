import type { Octokit } from "@octokit/rest";
import { statusOf } from "../status-of.js";
import { timeOf } from "../time-of.js";
import type { RunView } from "./tick-github.js";

type ListedRun = Awaited<ReturnType<Octokit["rest"]["actions"]["listWorkflowRunsForRepo"]>>["data"]["workflow_runs"][number];

/** Attempt 1 of a re-run run, as GitHub keeps it: final (only a completed run can be re-run), so read once. */
export type FirstAttempts = Map<number, { status: string; conclusion: string | null; by: string; at: number | undefined } | "gone">;

/**
 * A listed run as the tick judges it: its first attempt. Anyone with write access can re-run a
 * run (GitHub, "Re-running workflows and jobs"); the re-run keeps the run's id, title, inputs and
 * `actor` (the App), and the listing then shows only the new attempt — its `triggering_actor`,
 * status and conclusion. Bosun dispatched attempt 1 and nothing later, so a later attempt's end
 * (someone else's success, or a queued attempt hiding a failure) never speaks for the item: its
 * first attempt is read back (`GET .../runs/{id}/attempts/1`). Undefined when that attempt is gone.
 */
export async function firstAttemptOf(octokit: Octokit, repo: { owner: string; repo: string }, r: ListedRun, cache: FirstAttempts): Promise<RunView | undefined> {
  const view = { id: r.id, displayTitle: r.display_title, url: r.html_url, createdAt: Date.parse(r.created_at), headSha: r.head_sha };
  if ((r.run_attempt ?? 1) <= 1) return { ...view, ...updatedAt(timeOf(r.updated_at)), status: r.status ?? "", conclusion: r.conclusion ?? null, actor: r.triggering_actor?.login ?? r.actor?.login ?? "" };
  let first = cache.get(r.id);
  if (first === undefined) {
    try {
      const { data } = await octokit.rest.actions.getWorkflowRunAttempt({ ...repo, run_id: r.id, attempt_number: 1 });
      first = { status: data.status ?? "", conclusion: data.conclusion ?? null, by: data.triggering_actor?.login ?? data.actor?.login ?? "", at: timeOf(data.updated_at) };
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
      first = "gone";
    }
    cache.set(r.id, first);
  }
  if (first === "gone") return undefined;
  return { ...view, ...updatedAt(first.at), url: `${r.html_url}/attempts/1`, status: first.status, conclusion: first.conclusion, actor: first.by, rerunBy: r.triggering_actor?.login ?? "" };
}

const updatedAt = (at: number | undefined): { updatedAt?: number } => (at === undefined ? {} : { updatedAt: at });
