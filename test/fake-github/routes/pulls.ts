/** Pull requests: get, list, files (3,000 at most), commits (250 at most), reviews. */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { findIssue, insertIssue } from "../issue-store.js";
import { paginate } from "../paginate.js";
import { intParam, optionalBoolean, optionalString, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type FakeState, type PullRecord, type ReviewRecord } from "../state.js";
import { syncPull } from "../sync-pull.js";
import { commitJson, diffEntryJson, pullJson, reviewJson } from "../to-json-pull.js";

/** GitHub returns at most this many files for a pull request, and this many commits. */
export const MAX_PULL_FILES = 3000;
export const MAX_PULL_COMMITS = 250;

function findPull(ctx: RouteContext): PullRecord {
  const pull = ctx.repo.pulls.get(intParam(ctx.params, "pull_number"));
  if (pull === undefined) throw notFound();
  return pull;
}

function getPull(state: FakeState, ctx: RouteContext) {
  const pull = findPull(ctx);
  // GitHub computes mergeability when the pull request is read: a base moved by a seed is seen here.
  syncPull(state, ctx.repo, pull);
  return { status: 200, body: pullJson(state, ctx.repo, pull) };
}

function listPulls(state: FakeState, ctx: RouteContext) {
  const wantState = ctx.query.get("state") ?? "open";
  const head = ctx.query.get("head");
  const base = ctx.query.get("base");
  const direction = ctx.query.get("direction") ?? "desc";
  const pulls = [...ctx.repo.pulls.values()]
    .filter((p) => {
      const issue = ctx.repo.issues.get(p.number);
      return issue !== undefined && (wantState === "all" || issue.state === wantState);
    })
    // `head` is `user:branch`: the owner of the head's repository (a fork's owner for a fork's PR).
    .filter((p) => head === null || matchesHead(ctx, p, head))
    .filter((p) => base === null || base === p.baseRef)
    .sort((a, b) => (direction === "asc" ? a.number - b.number : b.number - a.number));
  return paginate(ctx, pulls, { map: (p) => pullJson(state, ctx.repo, p) });
}

function matchesHead(ctx: RouteContext, pull: PullRecord, head: string): boolean {
  const [owner, branch] = head.includes(":") ? [head.slice(0, head.indexOf(":")), head.slice(head.indexOf(":") + 1)] : [undefined, head];
  const headOwner = pull.headRepo === undefined ? ctx.repo.owner : (pull.headRepo.split("/")[0] ?? "");
  return branch === pull.headRef && (owner === undefined || owner.toLowerCase() === headOwner.toLowerCase());
}

function listFiles(state: FakeState, ctx: RouteContext) {
  const pull = findPull(ctx);
  return paginate(ctx, pull.files, { max: MAX_PULL_FILES, map: (f) => diffEntryJson(state, ctx.repo, pull, f) });
}

function listCommits(state: FakeState, ctx: RouteContext) {
  const pull = findPull(ctx);
  const commits = pull.commits.flatMap((sha) => {
    const c = ctx.repo.commits.get(sha);
    return c === undefined ? [] : [commitJson(state, ctx.repo, c)];
  });
  return paginate(ctx, commits, { max: MAX_PULL_COMMITS });
}

function listReviews(state: FakeState, ctx: RouteContext) {
  const pull = findPull(ctx);
  const reviews = [...ctx.repo.reviews.values()].filter((r) => r.pullNumber === pull.number && r.state !== "PENDING").sort((a, b) => a.id - b.id);
  return paginate(ctx, reviews.map((r) => reviewJson(state, ctx.repo, r)));
}

const EVENTS: Record<string, ReviewRecord["state"]> = { APPROVE: "APPROVED", REQUEST_CHANGES: "CHANGES_REQUESTED", COMMENT: "COMMENTED" };

function createReview(state: FakeState, ctx: RouteContext) {
  const pull = findPull(ctx);
  const issue = findIssue(ctx, "pull_number");
  const event = optionalString(ctx.body, "event");
  const body = optionalString(ctx.body, "body") ?? "";
  const reviewState = event === undefined ? "PENDING" : EVENTS[event];
  if (reviewState === undefined) throw validationFailed("Unprocessable Entity", [`Invalid event: ${event ?? ""}`]);
  if (issue.user === ctx.login && reviewState !== "COMMENTED" && reviewState !== "PENDING") {
    throw validationFailed("Unprocessable Entity", [`Can not ${reviewState === "APPROVED" ? "approve" : "request changes on"} your own pull request`]);
  }
  if ((reviewState === "CHANGES_REQUESTED" || reviewState === "COMMENTED") && body === "") {
    throw validationFailed("Unprocessable Entity", [`Review Can not ${reviewState === "COMMENTED" ? "comment" : "request changes"} without a body`]);
  }
  const review: ReviewRecord = {
    id: nextId(state),
    pullNumber: pull.number,
    user: ctx.login,
    body,
    state: reviewState,
    commitId: optionalString(ctx.body, "commit_id") ?? pull.headSha,
    submittedAt: state.clock.now(),
  };
  ctx.repo.reviews.set(review.id, review);
  if (reviewState !== "PENDING") {
    ctx.emit({ event: "pull_request_review", action: "submitted", fields: () => ({ review: reviewJson(state, ctx.repo, review), pull_request: pullJson(state, ctx.repo, pull) }) });
  }
  return { status: 200, body: reviewJson(state, ctx.repo, review) };
}

function createPull(state: FakeState, ctx: RouteContext) {
  const head = requiredString(ctx.body, "head").split(":").pop() ?? "";
  const base = requiredString(ctx.body, "base");
  const headSha = ctx.repo.refs.get(`refs/heads/${head}`);
  const baseSha = ctx.repo.refs.get(`refs/heads/${base}`);
  if (headSha === undefined || baseSha === undefined) {
    throw validationFailed("Validation Failed", [{ resource: "PullRequest", field: headSha === undefined ? "head" : "base", code: "invalid" }]);
  }
  const open = [...ctx.repo.pulls.values()].find((p) => p.headRef === head && p.baseRef === base && ctx.repo.issues.get(p.number)?.state === "open");
  if (open !== undefined) throw new HttpError(422, "Validation Failed", { errors: [{ resource: "PullRequest", code: "custom", message: `A pull request already exists for ${ctx.repo.owner}:${head}.` }] });
  const issue = insertIssue(state, ctx.repo, { title: requiredString(ctx.body, "title"), body: optionalString(ctx.body, "body") ?? null, user: ctx.login, isPull: true });
  const pull: PullRecord = {
    number: issue.number,
    id: nextId(state),
    headRef: head,
    headSha,
    baseRef: base,
    baseSha,
    draft: optionalBoolean(ctx.body, "draft") ?? false,
    merged: false,
    mergedAt: null,
    files: [],
    commits: [],
    derived: true,
  };
  ctx.repo.pulls.set(pull.number, pull);
  syncPull(state, ctx.repo, pull);
  ctx.emit({ event: "pull_request", action: "opened", fields: () => ({ number: pull.number, pull_request: pullJson(state, ctx.repo, pull) }) });
  return { status: 201, body: pullJson(state, ctx.repo, pull) };
}

export const pullRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/pulls", kind: "read", handler: listPulls },
  { method: "POST", pattern: "/repos/{owner}/{repo}/pulls", kind: "create", access: "write", handler: createPull },
  { method: "GET", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}", kind: "read", handler: getPull },
  { method: "GET", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}/files", kind: "read", handler: listFiles },
  { method: "GET", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}/commits", kind: "read", handler: listCommits },
  { method: "GET", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", kind: "read", handler: listReviews },
  { method: "POST", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}/reviews", kind: "create", access: "read", handler: createReview },
];
