/** GitHub's JSON shapes for labels, issues and comments. */
import { isoTime } from "./clock.js";
import type { CommentRecord, FakeState, IssueRecord, LabelRecord, RepoState } from "./state.js";
import { nodeId, repoHtmlUrl, repoUrl, userJson } from "./to-json-user-repo.js";

export function labelJson(state: FakeState, repo: RepoState, label: LabelRecord): Record<string, unknown> {
  return {
    id: label.id,
    node_id: nodeId("Label", label.id),
    url: `${repoUrl(state, repo)}/labels/${encodeURIComponent(label.name)}`,
    name: label.name,
    color: label.color,
    description: label.description,
    default: label.default,
  };
}

/** Label records of an issue, in the order they were added. */
export function issueLabels(repo: RepoState, issue: IssueRecord): LabelRecord[] {
  return issue.labels.flatMap((name) => {
    const label = repo.labels.get(name.toLowerCase());
    return label === undefined ? [] : [label];
  });
}

/** `author_association` of a login on a repository, from its permission. */
export function authorAssociation(repo: RepoState, login: string): string {
  if (login === repo.owner) return "OWNER";
  const permission = repo.permissions.get(login);
  return permission !== undefined && permission !== "none" && permission !== "read" ? "COLLABORATOR" : "NONE";
}

export function issueJson(state: FakeState, repo: RepoState, issue: IssueRecord): Record<string, unknown> {
  const url = `${repoUrl(state, repo)}/issues/${issue.number}`;
  const html = `${repoHtmlUrl(state, repo)}/${issue.isPull ? "pull" : "issues"}/${issue.number}`;
  const assignees = issue.assignees.map((login) => userJson(state, login));
  const comments = [...repo.comments.values()].filter((c) => c.issueNumber === issue.number).length;
  const json: Record<string, unknown> = {
    id: issue.id,
    node_id: nodeId(issue.isPull ? "PullRequest" : "Issue", issue.id),
    url,
    repository_url: repoUrl(state, repo),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: html,
    number: issue.number,
    state: issue.state,
    state_reason: issue.stateReason,
    title: issue.title,
    body: issue.body,
    user: userJson(state, issue.user),
    labels: issueLabels(repo, issue).map((label) => labelJson(state, repo, label)),
    assignee: assignees[0] ?? null,
    assignees,
    milestone: null,
    locked: issue.locked,
    active_lock_reason: null,
    comments,
    closed_at: issue.closedAt === null ? null : isoTime(issue.closedAt),
    created_at: isoTime(issue.createdAt),
    updated_at: isoTime(issue.updatedAt),
    author_association: authorAssociation(repo, issue.user),
  };
  if (issue.isPull) {
    const pullUrl = `${repoUrl(state, repo)}/pulls/${issue.number}`;
    json.pull_request = { url: pullUrl, html_url: html, diff_url: `${html}.diff`, patch_url: `${html}.patch`, merged_at: null };
  }
  return json;
}

export function commentJson(state: FakeState, repo: RepoState, comment: CommentRecord): Record<string, unknown> {
  return {
    id: comment.id,
    node_id: nodeId("IssueComment", comment.id),
    url: `${repoUrl(state, repo)}/issues/comments/${comment.id}`,
    html_url: `${repoHtmlUrl(state, repo)}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
    issue_url: `${repoUrl(state, repo)}/issues/${comment.issueNumber}`,
    body: comment.body,
    user: userJson(state, comment.user),
    created_at: isoTime(comment.createdAt),
    updated_at: isoTime(comment.updatedAt),
    author_association: authorAssociation(repo, comment.user),
  };
}

