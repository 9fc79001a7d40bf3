/** GitHub's JSON shapes for pull requests, their files, commits and reviews. */
import { isoTime } from "./clock.js";
import { blobSha } from "./git-objects.js";
import type { CommitRecord, FakeState, PullFileRecord, PullRecord, RepoState, ReviewRecord } from "./state.js";
import { authorAssociation, issueLabels, labelJson } from "./to-json-issue.js";
import { nodeId, repoHtmlUrl, repoJson, repoUrl, userJson } from "./to-json-user-repo.js";

/** Totals as the pull request object reports them (explicit ones win over the sum of files). */
export function pullTotals(pull: PullRecord): { additions: number; deletions: number; changedFiles: number } {
  return {
    additions: pull.additions ?? pull.files.reduce((n, f) => n + f.additions, 0),
    deletions: pull.deletions ?? pull.files.reduce((n, f) => n + f.deletions, 0),
    changedFiles: pull.changedFiles ?? pull.files.length,
  };
}

/** The head side of a pull request from a fork: the fork's owner and full name (its commits live in the base's store). */
function forkSide(state: FakeState, base: Record<string, unknown>, fullName: string, ref: string, sha: string): Record<string, unknown> {
  const [owner = "", name = ""] = fullName.split("/");
  const user = userJson(state, owner);
  return { label: `${owner}:${ref}`, ref, sha, user, repo: { ...base, name, full_name: fullName, owner: user, fork: true, html_url: `${String(base["html_url"]).replace(/[^/]+\/[^/]+$/, fullName)}` } };
}

/** `pull-request` (a superset of `pull-request-simple`, which lists return). */
export function pullJson(state: FakeState, repo: RepoState, pull: PullRecord): Record<string, unknown> {
  const issue = repo.issues.get(pull.number);
  if (issue === undefined) throw new Error(`pull ${pull.number} has no issue record`);
  const url = `${repoUrl(state, repo)}/pulls/${pull.number}`;
  const issueUrl = `${repoUrl(state, repo)}/issues/${pull.number}`;
  const html = `${repoHtmlUrl(state, repo)}/pull/${pull.number}`;
  const totals = pullTotals(pull);
  const repository = repoJson(state, repo);
  const side = (ref: string, sha: string) => ({ label: `${repo.owner}:${ref}`, ref, sha, user: userJson(state, repo.owner), repo: repository });
  const assignees = issue.assignees.map((login) => userJson(state, login));
  const comments = [...repo.comments.values()].filter((c) => c.issueNumber === pull.number).length;
  return {
    url,
    id: pull.id,
    node_id: nodeId("PullRequest", pull.id),
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: issueUrl,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    review_comment_url: `${repoUrl(state, repo)}/pulls/comments{/number}`,
    comments_url: `${issueUrl}/comments`,
    statuses_url: `${repoUrl(state, repo)}/statuses/${pull.headSha}`,
    number: pull.number,
    state: issue.state,
    locked: issue.locked,
    title: issue.title,
    user: userJson(state, issue.user),
    body: issue.body,
    labels: issueLabels(repo, issue).map((l) => labelJson(state, repo, l)),
    milestone: null,
    active_lock_reason: null,
    created_at: isoTime(issue.createdAt),
    updated_at: isoTime(issue.updatedAt),
    closed_at: issue.closedAt === null ? null : isoTime(issue.closedAt),
    merged_at: pull.mergedAt === null ? null : isoTime(pull.mergedAt),
    // Before a merge GitHub answers the test merge commit (`refs/pull/<n>/merge`) here.
    merge_commit_sha: pull.mergeCommitSha ?? (pull.derived === true ? (repo.refs.get(`refs/pull/${pull.number}/merge`) ?? null) : null),
    assignee: assignees[0] ?? null,
    assignees,
    requested_reviewers: [],
    requested_teams: [],
    head: pull.headRepo === undefined ? side(pull.headRef, pull.headSha) : forkSide(state, repository, pull.headRepo, pull.headRef, pull.headSha),
    base: side(pull.baseRef, pull.baseSha),
    _links: {
      self: { href: url },
      html: { href: html },
      issue: { href: issueUrl },
      comments: { href: `${issueUrl}/comments` },
      review_comments: { href: `${url}/comments` },
      review_comment: { href: `${repoUrl(state, repo)}/pulls/comments{/number}` },
      commits: { href: `${url}/commits` },
      statuses: { href: `${repoUrl(state, repo)}/statuses/${pull.headSha}` },
    },
    author_association: authorAssociation(repo, issue.user),
    auto_merge: null,
    draft: pull.draft,
    merged: pull.merged,
    mergeable: (pull.conflicts ?? []).length === 0,
    rebaseable: (pull.conflicts ?? []).length === 0,
    mergeable_state: (pull.conflicts ?? []).length === 0 ? "clean" : "dirty",
    merged_by: pull.mergedBy === undefined ? null : userJson(state, pull.mergedBy),
    comments,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: pull.commits.length,
    additions: totals.additions,
    deletions: totals.deletions,
    changed_files: totals.changedFiles,
  };
}

/** `diff-entry`, one row of `pulls/{n}/files`; `patch` is absent when the record has none. */
export function diffEntryJson(state: FakeState, repo: RepoState, pull: PullRecord, file: PullFileRecord): Record<string, unknown> {
  const path = file.filename.split("/").map(encodeURIComponent).join("/");
  const json: Record<string, unknown> = {
    sha: blobSha(`${pull.headSha}:${file.filename}`),
    filename: file.filename,
    status: file.status,
    additions: file.additions,
    deletions: file.deletions,
    changes: file.additions + file.deletions,
    blob_url: `${repoHtmlUrl(state, repo)}/blob/${pull.headSha}/${path}`,
    raw_url: `${repoHtmlUrl(state, repo)}/raw/${pull.headSha}/${path}`,
    contents_url: `${repoUrl(state, repo)}/contents/${path}?ref=${pull.headSha}`,
  };
  if (file.patch !== undefined) json.patch = file.patch;
  if (file.previousFilename !== undefined) json.previous_filename = file.previousFilename;
  return json;
}

/** `commit`, as `pulls/{n}/commits` and `commits/{ref}` return it. */
export function commitJson(state: FakeState, repo: RepoState, commit: CommitRecord): Record<string, unknown> {
  const url = `${repoUrl(state, repo)}/commits/${commit.sha}`;
  return {
    url,
    sha: commit.sha,
    node_id: Buffer.from(`Commit:${commit.sha}`).toString("base64").replace(/=+$/, ""),
    html_url: `${repoHtmlUrl(state, repo)}/commit/${commit.sha}`,
    comments_url: `${url}/comments`,
    commit: {
      url: `${repoUrl(state, repo)}/git/commits/${commit.sha}`,
      author: commit.author,
      committer: commit.committer,
      message: commit.message,
      comment_count: 0,
      tree: { sha: commit.tree, url: `${repoUrl(state, repo)}/git/trees/${commit.tree}` },
      verification: { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null },
    },
    author: null,
    committer: null,
    parents: commit.parents.map((sha) => ({ sha, url: `${repoUrl(state, repo)}/commits/${sha}`, html_url: `${repoHtmlUrl(state, repo)}/commit/${sha}` })),
  };
}

export function reviewJson(state: FakeState, repo: RepoState, review: ReviewRecord): Record<string, unknown> {
  const pullUrl = `${repoUrl(state, repo)}/pulls/${review.pullNumber}`;
  const html = `${repoHtmlUrl(state, repo)}/pull/${review.pullNumber}#pullrequestreview-${review.id}`;
  return {
    id: review.id,
    node_id: nodeId("PullRequestReview", review.id),
    user: userJson(state, review.user),
    body: review.body,
    state: review.state,
    html_url: html,
    pull_request_url: pullUrl,
    _links: { html: { href: html }, pull_request: { href: pullUrl } },
    submitted_at: isoTime(review.submittedAt),
    commit_id: review.commitId,
    author_association: authorAssociation(repo, review.user),
  };
}
