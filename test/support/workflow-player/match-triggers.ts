/**
 * Which workflows an event starts, and which commit each one's file is read from, as GitHub decides
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/events-that-trigger-workflows):
 *
 * | event | workflow file and GITHUB_SHA | GITHUB_REF | default types |
 * |---|---|---|---|
 * | pull_request, pull_request_review | the PR's test merge commit | refs/pull/N/merge | opened, synchronize, reopened / all |
 * | pull_request_target | the base branch's tip | the base branch | opened, synchronize, reopened |
 * | issues, issue_comment, workflow_run, schedule | the default branch's tip | the default branch | all |
 * | deployment_status | the deployed commit | the deployment's ref | all |
 * | push | the pushed commit | the pushed ref | — |
 * | workflow_dispatch | the dispatched ref's tip (started by the dispatch API, not here) | that ref | — |
 *
 * An event caused with a job's GITHUB_TOKEN starts nothing ("events triggered by the GITHUB_TOKEN
 * ... will not create a new workflow run"); `workflow_run` matches the triggering workflow's `name`.
 */
import { filesAt } from "../../fake-github/git-objects.js";
import type { RepoState } from "../../fake-github/state.js";
import { parseWorkflow, type WorkflowSpec } from "./parse-workflow.js";

/** The login a job's GITHUB_TOKEN acts as. */
export const ACTIONS_BOT = "github-actions[bot]";

export interface TriggeredRun {
  readonly workflow: WorkflowSpec;
  /** GITHUB_SHA: also the commit the workflow file was read from. */
  readonly sha: string;
  /** GITHUB_REF. */
  readonly ref: string;
  /** The run record's head branch and sha, as GitHub lists the run. */
  readonly headBranch: string;
  readonly headSha: string;
}

const DEFAULT_TYPES: Record<string, readonly string[]> = {
  pull_request: ["opened", "synchronize", "reopened"],
  pull_request_target: ["opened", "synchronize", "reopened"],
};

/** The workflow files in `.github/workflows/` at a commit, parsed (an unparsable file is an error naming it). */
export function workflowsAt(repo: RepoState, sha: string): WorkflowSpec[] {
  const files = filesAt(repo, sha) ?? new Map<string, string>();
  return [...files.entries()].filter(([path]) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(path)).sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, text]) => parseWorkflow(path, text));
}

function branchMatches(patterns: readonly string[] | undefined, branch: string): boolean {
  if (patterns === undefined) return true;
  return patterns.some((p) => new RegExp(`^${p.replace(/[.+^$()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\u0000").replace(/\*/g, "[^/]*").replace(/\u0000/g, ".*")}$`).test(branch));
}

type Payload = Record<string, unknown>;
const obj = (v: unknown): Payload => (typeof v === "object" && v !== null ? (v as Payload) : {});

/** The runs an event starts (none for `workflow_dispatch`: the dispatch API starts those). */
export function matchTriggers(repo: RepoState, event: string, action: string | undefined, payload: Payload): TriggeredRun[] {
  if (obj(payload["sender"])["login"] === ACTIONS_BOT) return [];
  const defaultRef = `refs/heads/${repo.defaultBranch}`;
  const tip = repo.refs.get(defaultRef) ?? "";
  const pr = obj(payload["pull_request"]);
  const prNumber = Number(pr["number"] ?? payload["number"]);
  const head = obj(pr["head"]);
  const base = obj(pr["base"]);
  let where: { sha: string; ref: string; headBranch: string; headSha: string } | undefined;
  switch (event) {
    case "pull_request":
    case "pull_request_review": {
      // A pull request that does not merge cleanly has no merge commit: GitHub runs nothing for it.
      const merge = repo.refs.get(`refs/pull/${prNumber}/merge`);
      if (merge !== undefined) where = { sha: merge, ref: `refs/pull/${prNumber}/merge`, headBranch: String(head["ref"]), headSha: String(head["sha"]) };
      break;
    }
    case "pull_request_target": {
      const baseRef = `refs/heads/${String(base["ref"])}`;
      where = { sha: repo.refs.get(baseRef) ?? tip, ref: baseRef, headBranch: String(head["ref"]), headSha: String(head["sha"]) };
      break;
    }
    case "issues":
    case "issue_comment":
    case "workflow_run":
    case "schedule":
      where = { sha: tip, ref: defaultRef, headBranch: repo.defaultBranch, headSha: tip };
      break;
    case "deployment_status": {
      const deployment = obj(payload["deployment"]);
      const sha = String(deployment["sha"]);
      const ref = String(deployment["ref"] ?? "");
      where = { sha, ref: ref === sha ? "" : ref.startsWith("refs/") ? ref : `refs/heads/${ref}`, headBranch: ref, headSha: sha };
      break;
    }
    case "push": {
      const after = String(payload["after"] ?? "");
      if (/^0+$/.test(after)) return [];
      where = { sha: after, ref: String(payload["ref"]), headBranch: String(payload["ref"]).replace(/^refs\/heads\//, ""), headSha: after };
      break;
    }
    default:
      return [];
  }
  if (where === undefined || !repo.commits.has(where.sha)) return [];
  const found = where;
  return workflowsAt(repo, found.sha).flatMap((workflow) => {
    const trigger = workflow.on[event];
    if (trigger === undefined) return [];
    const types = trigger.types ?? DEFAULT_TYPES[event];
    if (types !== undefined && action !== undefined && !types.includes(action)) return [];
    if (event === "workflow_run" && !(trigger.workflows ?? []).includes(String(obj(payload["workflow"])["name"] ?? obj(payload["workflow_run"])["name"]))) return [];
    if ((event === "pull_request" || event === "pull_request_target") && !branchMatches(trigger.branches, String(base["ref"]))) return [];
    if (event === "push" && !branchMatches(trigger.branches, found.headBranch)) return [];
    return [{ workflow, ...found }];
  });
}
