import type { Octokit } from "@octokit/rest";
import { statusOf } from "../status-of.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { runTitle } from "../../../core/scheduler/stop-from-run.js";
import { dispatchFailure } from "./dispatch-outcome-unknown.js";
import { findDispatchedRun } from "./find-dispatched-run.js";
import type { TickWrites } from "./tick-github.js";

/** Copilot's coding agent as an assignee: `Copilot` (as the web shows it) or its login `copilot-swe-agent`. */
const COPILOT = /^(copilot|copilot-swe-agent)(\[bot\])?$/i;
const COPILOT_LOGIN = "copilot-swe-agent";

/** The one error for an `assign` to Copilot that cannot happen, naming the token it needs. */
function copilotTokenNeeded(issue: number, why: string): string {
  return `assigning #${issue} to Copilot needs a user-to-server token (a personal access token, or a GitHub App user token, of a user with a Copilot seat and write access): an installation token is refused. ${why}: set BOSUN_COPILOT_TOKEN for the app, or the copilot-token input for the Action (docs/dispatch.md)`;
}

export interface OctokitDispatchOptions {
  readonly owner: string;
  readonly repo: string;
  /** The App's bot login: after an unknown outcome, only a run it started is the dispatch's. */
  readonly botLogin: string;
  /** The clock (ms) the dispatch's start is read from: a run found after it must be created since. */
  readonly now: () => number;
  /** Where workflow dispatches run unless a pool names a ref. */
  readonly defaultBranch: string;
  /** A user-to-server client for `assign` to Copilot, which refuses installation tokens. */
  readonly copilot?: Octokit | undefined;
}

/**
 * Every dispatch kind over Octokit: a workflow run, an assignee, a label, or a comment. A workflow
 * run it started is recorded in `runIds` (`item:epoch` → run id), so this process lands it by id.
 */
export function octokitDispatch(octokit: Octokit, options: OctokitDispatchOptions, runIds: Map<string, number>): TickWrites["dispatch"] {
  const { owner, repo } = options;

  return async function dispatch(issue, dispatch, inputs) {
    switch (dispatch.kind) {
      case "workflow": {
        const sentAt = options.now();
        let answer;
        try {
          answer = await octokit.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
            owner,
            repo,
            workflow_id: dispatch.workflow,
            ref: dispatch.ref ?? options.defaultBranch,
            inputs: { item: inputs.item, epoch: String(inputs.epoch), brief_hash: inputs.briefHash },
            return_run_details: true,
          });
        } catch (err) {
          // A 5xx (or a dropped connection) may come after GitHub started the run: dispatching
          // again would put a second worker on the item. Its run name names this item and
          // epoch exactly, so look for it before calling the dispatch failed.
          // Not found yet is no answer either (runs reach listings seconds later): the claim is
          // then kept, and the tick matches the run by its name when it shows.
          const code = statusOf(err);
          if (code !== undefined && code < 500) throw err;
          const started = await findDispatchedRun(octokit, { owner, repo, bot: normalizeLogin(options.botLogin), since: sentAt }, dispatch.workflow, runTitle(inputs.item, inputs.epoch));
          if (started === undefined) dispatchFailure(issue, err);
          runIds.set(`${inputs.item}:${inputs.epoch}`, started.id);
          return { runId: started.id, url: started.url };
        }
        const { data, status: code } = answer;
        const details = code === 200 ? (data as unknown as { workflow_run_id?: number; html_url?: string }) : {};
        // Kept so this process lands the run by its id; other replicas match it by its run name.
        if (details.workflow_run_id !== undefined) runIds.set(`${inputs.item}:${inputs.epoch}`, details.workflow_run_id);
        return { ...(details.workflow_run_id === undefined ? {} : { runId: details.workflow_run_id }), ...(details.html_url === undefined ? {} : { url: details.html_url }) };
      }
      case "assign": {
        if (!COPILOT.test(dispatch.assignee)) {
          await octokit.rest.issues.addAssignees({ owner, repo, issue_number: issue, assignees: [dispatch.assignee] }).catch((err: unknown) => dispatchFailure(issue, err));
          return {};
        }
        // Copilot takes an issue only from a user-to-server token; an installation token's
        // assignment is dropped without an error. So: the configured user token, and the answer
        // checked, or a failure that names the token — never a dispatch nobody received.
        if (options.copilot === undefined) throw new Error(copilotTokenNeeded(issue, "no user token is configured"));
        const { data } = await options.copilot.rest.issues.addAssignees({ owner, repo, issue_number: issue, assignees: [COPILOT_LOGIN] }).catch((err: unknown) => dispatchFailure(issue, err));
        if (!(data.assignees ?? []).some((a) => COPILOT.test(a?.login ?? ""))) throw new Error(copilotTokenNeeded(issue, "GitHub did not assign Copilot with the configured token"));
        return {};
      }
      case "label":
        await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [dispatch.label] }).catch((err: unknown) => dispatchFailure(issue, err));
        return {};
      case "comment": {
        const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: inputs.instruction }).catch((err: unknown) => dispatchFailure(issue, err));
        return { url: data.html_url };
      }
    }
  };
}
