/**
 * `PATCH /repos/{o}/{r}/pulls/{n}`: edit a pull request's title, body, state (close, reopen) and
 * base. Closing, reopening and a new base are recorded in its issue events (`closed`, `reopened`,
 * `base_ref_changed`, with the actor) as GitHub's issue events list shows them.
 */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { intParam, nullableString, optionalString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type FakeState, type IssueRecord } from "../state.js";
import { pullJson } from "../to-json-pull.js";

function updatePull(state: FakeState, ctx: RouteContext) {
  const pull = ctx.repo.pulls.get(intParam(ctx.params, "pull_number"));
  const issue = pull === undefined ? undefined : ctx.repo.issues.get(pull.number);
  if (pull === undefined || issue === undefined) throw notFound();
  const title = optionalString(ctx.body, "title");
  const body = nullableString(ctx.body, "body");
  const newState = optionalString(ctx.body, "state");
  const base = optionalString(ctx.body, "base");
  if (newState !== undefined && newState !== "open" && newState !== "closed") throw validationFailed("Validation Failed", [{ resource: "PullRequest", field: "state", code: "invalid" }]);
  if (pull.merged && newState === "open") throw validationFailed("Validation Failed", [{ resource: "PullRequest", code: "custom", message: "Cannot reopen a merged pull request" }]);
  const now = state.clock.now();
  const event = (name: IssueRecord["events"][number]["event"]) => issue.events.push({ id: nextId(state), event: name, label: "", actor: ctx.login, createdAt: now });
  if (base !== undefined && base !== pull.baseRef) {
    const baseSha = ctx.repo.refs.get(`refs/heads/${base}`);
    if (baseSha === undefined) throw validationFailed("Validation Failed", [{ resource: "PullRequest", field: "base", code: "invalid" }]);
    const open = [...ctx.repo.pulls.values()].find((p) => p !== pull && p.headRef === pull.headRef && p.headRepo === pull.headRepo && p.baseRef === base && ctx.repo.issues.get(p.number)?.state === "open");
    if (open !== undefined) throw new HttpError(422, "Validation Failed", { errors: [{ resource: "PullRequest", code: "custom", message: `A pull request already exists for base branch '${base}' and head branch '${pull.headRef}'` }] });
    pull.baseRef = base;
    pull.baseSha = baseSha;
    event("base_ref_changed");
  }
  if (title !== undefined) issue.title = title;
  if (body !== undefined) issue.body = body;
  if (newState !== undefined && newState !== issue.state) {
    issue.state = newState;
    issue.closedAt = newState === "closed" ? now : null;
    event(newState === "closed" ? "closed" : "reopened");
    ctx.emit({ event: "pull_request", action: newState === "closed" ? "closed" : "reopened", fields: () => ({ number: pull.number, pull_request: pullJson(state, ctx.repo, pull) }) });
  }
  issue.updatedAt = now;
  return { status: 200, body: pullJson(state, ctx.repo, pull) };
}

export const pullUpdateRoutes: Route[] = [{ method: "PATCH", pattern: "/repos/{owner}/{repo}/pulls/{pull_number}", kind: "write", access: "write", handler: updatePull }];
