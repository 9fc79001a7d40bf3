/** Issue comments: create, list, get, update. */
import { notFound } from "../http-error.js";
import { hasPermission } from "../authenticate.js";
import { HttpError } from "../http-error.js";
import { findIssue } from "../issue-store.js";
import { paginate } from "../paginate.js";
import { intParam, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type CommentRecord, type FakeState } from "../state.js";
import { commentJson, issueJson } from "../to-json-issue.js";

function createComment(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  const now = state.clock.now();
  const comment: CommentRecord = { id: nextId(state), issueNumber: issue.number, body: requiredString(ctx.body, "body"), user: ctx.login, createdAt: now, updatedAt: now };
  ctx.repo.comments.set(comment.id, comment);
  issue.updatedAt = now;
  ctx.emit({
    event: "issue_comment",
    action: "created",
    fields: () => ({ issue: issueJson(state, ctx.repo, issue), comment: commentJson(state, ctx.repo, comment) }),
  });
  return { status: 201, body: commentJson(state, ctx.repo, comment) };
}

function listComments(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  const since = ctx.query.get("since");
  const comments = [...ctx.repo.comments.values()]
    .filter((c) => c.issueNumber === issue.number && (since === null || c.updatedAt >= Date.parse(since)))
    .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
  return paginate(ctx, comments.map((c) => commentJson(state, ctx.repo, c)));
}

function findComment(ctx: RouteContext): CommentRecord {
  const comment = ctx.repo.comments.get(intParam(ctx.params, "comment_id"));
  if (comment === undefined) throw notFound();
  return comment;
}

function getComment(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: commentJson(state, ctx.repo, findComment(ctx)) };
}

function updateComment(state: FakeState, ctx: RouteContext) {
  const comment = findComment(ctx);
  if (comment.user !== ctx.login && !hasPermission(ctx.repo, ctx.login, "triage")) {
    throw new HttpError(403, "Must have admin rights to Repository.");
  }
  comment.body = requiredString(ctx.body, "body");
  comment.updatedAt = state.clock.now();
  const issue = ctx.repo.issues.get(comment.issueNumber);
  if (issue !== undefined) {
    ctx.emit({ event: "issue_comment", action: "edited", fields: () => ({ issue: issueJson(state, ctx.repo, issue), comment: commentJson(state, ctx.repo, comment) }) });
  }
  return { status: 200, body: commentJson(state, ctx.repo, comment) };
}

function deleteComment(_state: FakeState, ctx: RouteContext) {
  const comment = findComment(ctx);
  ctx.repo.comments.delete(comment.id);
  return { status: 204 };
}

export const commentRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/comments", kind: "read", handler: listComments },
  { method: "POST", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/comments", kind: "create", access: "read", handler: createComment },
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues/comments/{comment_id}", kind: "read", handler: getComment },
  // Authors may edit their own comments; others need triage (checked in the handler).
  { method: "PATCH", pattern: "/repos/{owner}/{repo}/issues/comments/{comment_id}", kind: "write", access: "read", handler: updateComment },
  { method: "DELETE", pattern: "/repos/{owner}/{repo}/issues/comments/{comment_id}", kind: "write", access: "triage", handler: deleteComment },
];
