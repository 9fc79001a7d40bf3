/**
 * `PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge`, as GitHub merges: refused while a required
 * status check is not satisfied on the head (405), when the head moved since the `sha` the caller
 * saw (409), or when the pull request is closed, merged or conflicts (405). A merge writes a merge
 * commit (or a squash commit) on the base, moves the base (`push`), marks the pull request merged
 * and closed (`pull_request.closed` with `merged: true`), and, into the default branch, closes the
 * issues its body names with a closing keyword (`issues.closed`, state reason completed):
 * https://docs.github.com/en/rest/pulls/pulls#merge-a-pull-request,
 * https://docs.github.com/en/issues/tracking-your-work-with-issues/using-issues/linking-a-pull-request-to-an-issue#linking-a-pull-request-to-an-issue-using-a-keyword
 */
import { emitRefChange } from "../emit-ref-change.js";
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { putCommit, putTree } from "../git-objects.js";
import { mergeTrees } from "../merge-trees.js";
import { optionalString } from "../read-body.js";
import { requiredChecksFor, unsatisfied } from "../required-checks.js";
import type { Route, RouteContext } from "../route.js";
import { intParam } from "../read-body.js";
import type { FakeState, IssueRecord } from "../state.js";
import { syncPull } from "../sync-pull.js";
import { issueJson } from "../to-json-issue.js";
import { pullJson } from "../to-json-pull.js";

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+#(\d+)\b/gi;

/** Issue numbers a pull request body links with a closing keyword (same repository only). */
export function closingIssues(body: string | null): number[] {
  return [...new Set([...(body ?? "").matchAll(CLOSING)].map((m) => Number(m[1])))];
}

function mergePull(state: FakeState, ctx: RouteContext) {
  const pull = ctx.repo.pulls.get(intParam(ctx.params, "pull_number"));
  const issue = pull === undefined ? undefined : ctx.repo.issues.get(pull.number);
  if (pull === undefined || issue === undefined) throw notFound();
  syncPull(state, ctx.repo, pull);
  if (pull.merged || issue.state !== "open") throw new HttpError(405, "Pull Request is not mergeable");
  const sha = optionalString(ctx.body, "sha");
  if (sha !== undefined && sha !== pull.headSha) throw new HttpError(409, "Head branch was modified. Review and try the merge again.");
  const method = optionalString(ctx.body, "merge_method") ?? "merge";
  if (method !== "merge" && method !== "squash") throw validationFailed(`Invalid request.\n\nmerge_method ${method} is not supported by the fake (merge, squash).`);
  const fullName = `${ctx.repo.owner}/${ctx.repo.name}`;
  for (const check of requiredChecksFor(state, fullName, pull.baseRef)) {
    const why = unsatisfied(ctx.repo, pull.headSha, check);
    // GitHub's words for a protected branch: "Required status check "<context>" is expected." (or failing).
    if (why !== undefined) throw new HttpError(405, `Required status check "${check.context}" is ${why}.`);
  }
  const baseRef = `refs/heads/${pull.baseRef}`;
  const baseSha = ctx.repo.refs.get(baseRef);
  if (baseSha === undefined) throw new HttpError(405, "Pull Request is not mergeable");
  const merged = mergeTrees(ctx.repo, baseSha, pull.headSha);
  if (!merged.ok) throw new HttpError(405, "Pull Request is not mergeable");
  const title = optionalString(ctx.body, "commit_title") ?? (method === "squash" ? `${issue.title} (#${pull.number})` : `Merge pull request #${pull.number} from ${ctx.repo.owner}/${pull.headRef}`);
  const message = optionalString(ctx.body, "commit_message") ?? (method === "squash" ? "" : issue.title);
  const who = { name: ctx.login, email: `${ctx.login}@users.noreply.github.com` };
  const commit = putCommit(state, ctx.repo, {
    tree: putTree(ctx.repo, merged.tree.files, merged.tree.executables),
    parents: method === "squash" ? [baseSha] : [baseSha, pull.headSha],
    message: message === "" ? title : `${title}\n\n${message}`,
    author: who,
    committer: { name: "GitHub", email: "noreply@github.com" },
  });
  ctx.repo.refs.set(baseRef, commit.sha);
  const now = state.clock.now();
  pull.merged = true;
  pull.mergedAt = now;
  pull.mergeCommitSha = commit.sha;
  pull.mergedBy = ctx.login;
  issue.state = "closed";
  issue.closedAt = now;
  issue.updatedAt = now;
  emitRefChange(state, ctx, ctx.repo, { ref: baseRef, before: baseSha, after: commit.sha, forced: false });
  ctx.emit({ event: "pull_request", action: "closed", fields: () => ({ number: pull.number, pull_request: pullJson(state, ctx.repo, pull) }) });
  if (pull.baseRef === ctx.repo.defaultBranch) {
    for (const number of closingIssues(issue.body)) {
      const linked: IssueRecord | undefined = ctx.repo.issues.get(number);
      if (linked === undefined || linked.isPull || linked.state !== "open") continue;
      linked.state = "closed";
      linked.stateReason = "completed";
      linked.closedAt = now;
      linked.updatedAt = now;
      ctx.emit({ event: "issues", action: "closed", fields: () => ({ issue: issueJson(state, ctx.repo, linked) }) });
    }
  }
  return { status: 200, body: { sha: commit.sha, merged: true, message: "Pull Request successfully merged" } };
}

export const mergeRoutes: Route[] = [{ method: "PUT", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}/merge", kind: "write", access: "write", handler: mergePull }];
