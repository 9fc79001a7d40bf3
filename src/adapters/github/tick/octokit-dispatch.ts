import type { Octokit } from "@octokit/rest";
import { runTitle } from "../../../core/scheduler/stop-from-run.js";
import { dispatchFailure } from "./dispatch-outcome-unknown.js";
import { dispatchWorkflowRun } from "./dispatch-workflow-run.js";
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
      case "workflow":
        return dispatchWorkflowRun(octokit, options, dispatch, { inputs: { item: inputs.item, epoch: String(inputs.epoch), brief_hash: inputs.briefHash }, title: runTitle(inputs.item, inputs.epoch), issue, keys: [`${inputs.item}:${inputs.epoch}`] }, runIds);
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
