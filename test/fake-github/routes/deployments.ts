/** Deployments and deployment statuses. */
import { notFound, validationFailed } from "../http-error.js";
import { resolveCommitish } from "../git-objects.js";
import { paginate } from "../paginate.js";
import { intParam, optionalString, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type DeploymentRecord, type DeploymentStatusRecord, type FakeState } from "../state.js";
import { deploymentJson, deploymentStatusJson } from "../to-json-ci.js";

const STATES = new Set(["error", "failure", "inactive", "in_progress", "queued", "pending", "success"]);

function createDeployment(state: FakeState, ctx: RouteContext) {
  const ref = requiredString(ctx.body, "ref");
  const sha = resolveCommitish(ctx.repo, ref);
  if (sha === undefined) throw validationFailed(`No ref found for: ${ref}`);
  const now = state.clock.now();
  const deployment: DeploymentRecord = {
    id: nextId(state),
    sha,
    ref,
    task: optionalString(ctx.body, "task") ?? "deploy",
    environment: optionalString(ctx.body, "environment") ?? "production",
    description: optionalString(ctx.body, "description") ?? null,
    payload: ctx.body.payload ?? {},
    creator: ctx.login,
    createdAt: now,
    updatedAt: now,
    statuses: [],
  };
  ctx.repo.deployments.set(deployment.id, deployment);
  ctx.emit({ event: "deployment", action: "created", fields: () => ({ deployment: deploymentJson(state, ctx.repo, deployment) }) });
  return { status: 201, body: deploymentJson(state, ctx.repo, deployment) };
}

function findDeployment(ctx: RouteContext): DeploymentRecord {
  const d = ctx.repo.deployments.get(intParam(ctx.params, "deployment_id"));
  if (d === undefined) throw notFound();
  return d;
}

function listDeployments(state: FakeState, ctx: RouteContext) {
  const q = (k: string) => ctx.query.get(k);
  const list = [...ctx.repo.deployments.values()]
    .filter((d) => (q("sha") === null || d.sha === q("sha")) && (q("ref") === null || d.ref === q("ref")) && (q("environment") === null || d.environment === q("environment")) && (q("task") === null || d.task === q("task")))
    .sort((a, b) => b.id - a.id);
  return paginate(ctx, list.map((d) => deploymentJson(state, ctx.repo, d)));
}

function getDeployment(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: deploymentJson(state, ctx.repo, findDeployment(ctx)) };
}

function createDeploymentStatus(state: FakeState, ctx: RouteContext) {
  const deployment = findDeployment(ctx);
  const statusState = requiredString(ctx.body, "state");
  if (!STATES.has(statusState)) throw validationFailed("Validation Failed", [{ resource: "DeploymentStatus", field: "state", code: "invalid" }]);
  const status: DeploymentStatusRecord = {
    id: nextId(state),
    state: statusState,
    description: optionalString(ctx.body, "description") ?? "",
    environment: optionalString(ctx.body, "environment") ?? deployment.environment,
    environmentUrl: optionalString(ctx.body, "environment_url") ?? "",
    logUrl: optionalString(ctx.body, "log_url") ?? optionalString(ctx.body, "target_url") ?? "",
    creator: ctx.login,
    createdAt: state.clock.now(),
  };
  deployment.statuses.push(status);
  deployment.updatedAt = status.createdAt;
  ctx.emit({
    event: "deployment_status",
    action: "created",
    fields: () => ({ deployment: deploymentJson(state, ctx.repo, deployment), deployment_status: deploymentStatusJson(state, ctx.repo, deployment, status) }),
  });
  return { status: 201, body: deploymentStatusJson(state, ctx.repo, deployment, status) };
}

function listDeploymentStatuses(state: FakeState, ctx: RouteContext) {
  const deployment = findDeployment(ctx);
  return paginate(ctx, [...deployment.statuses].reverse().map((s) => deploymentStatusJson(state, ctx.repo, deployment, s)));
}

export const deploymentRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/deployments", kind: "read", handler: listDeployments },
  { method: "POST", pattern: "/repos/{owner}/{repo}/deployments", kind: "create", access: "write", handler: createDeployment },
  { method: "GET", pattern: "/repos/{owner}/{repo}/deployments/{deployment_id}", kind: "read", handler: getDeployment },
  { method: "GET", pattern: "/repos/{owner}/{repo}/deployments/{deployment_id}/statuses", kind: "read", handler: listDeploymentStatuses },
  { method: "POST", pattern: "/repos/{owner}/{repo}/deployments/{deployment_id}/statuses", kind: "create", access: "write", handler: createDeploymentStatus },
];
