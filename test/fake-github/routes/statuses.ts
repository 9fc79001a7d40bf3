/** Commit statuses: create, list for a ref, combined status. */
import { validationFailed } from "../http-error.js";
import { resolveCommitish } from "../git-objects.js";
import { paginate } from "../paginate.js";
import { optionalString, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type FakeState, type StatusRecord } from "../state.js";
import { combinedStatusJson, statusJson } from "../to-json-ci.js";

const STATES = new Set(["error", "failure", "pending", "success"]);

function createStatus(state: FakeState, ctx: RouteContext) {
  const sha = ctx.params.sha ?? "";
  if (!ctx.repo.commits.has(sha)) throw validationFailed(`No commit found for SHA: ${sha}`);
  const statusState = requiredString(ctx.body, "state");
  if (!STATES.has(statusState)) throw validationFailed("Validation Failed", [{ resource: "Status", field: "state", code: "custom", message: "state is not included in the list" }]);
  const now = state.clock.now();
  const status: StatusRecord = {
    id: nextId(state),
    sha,
    state: statusState as StatusRecord["state"],
    context: optionalString(ctx.body, "context") ?? "default",
    description: optionalString(ctx.body, "description") ?? null,
    targetUrl: optionalString(ctx.body, "target_url") ?? null,
    creator: ctx.login,
    appId: ctx.identity.kind === "bot" && ctx.identity.installationId !== undefined ? (state.installations.get(ctx.identity.installationId)?.appId ?? null) : null,
    createdAt: now,
    updatedAt: now,
  };
  const sameContext = ctx.repo.statuses.filter((s) => s.sha === sha && s.context === status.context).length;
  if (sameContext >= 1000) throw validationFailed("Validation Failed", [{ resource: "Status", code: "custom", message: "This SHA and context has reached the maximum number of statuses." }]);
  ctx.repo.statuses.push(status);
  ctx.emit({ event: "status", fields: () => ({ sha, state: status.state, context: status.context, description: status.description, target_url: status.targetUrl, id: status.id }) });
  return { status: 201, body: statusJson(state, ctx.repo, status) };
}

function statusesFor(ctx: RouteContext): { sha: string; list: StatusRecord[] } {
  const sha = resolveCommitish(ctx.repo, ctx.params.ref ?? "") ?? "";
  return { sha, list: ctx.repo.statuses.filter((s) => s.sha === sha) };
}

function listStatuses(state: FakeState, ctx: RouteContext) {
  const { list } = statusesFor(ctx);
  return paginate(ctx, [...list].reverse().map((s) => statusJson(state, ctx.repo, s)));
}

function combinedStatus(state: FakeState, ctx: RouteContext) {
  const { sha, list } = statusesFor(ctx);
  if (sha === "") throw validationFailed(`No commit found for SHA: ${ctx.params.ref ?? ""}`);
  return { status: 200, body: combinedStatusJson(state, ctx.repo, sha, list) };
}

export const statusRoutes: Route[] = [
  { method: "POST", pattern: "/repos/{owner}/{repo}/statuses/{sha}", kind: "create", access: "write", handler: createStatus },
  { method: "GET", pattern: "/repos/{owner}/{repo}/commits/{ref}/statuses", kind: "read", handler: listStatuses },
  { method: "GET", pattern: "/repos/{owner}/{repo}/commits/{ref}/status", kind: "read", handler: combinedStatus },
];
