/**
 * Deployment environments, their deployment branch policies and their secrets' names, as the REST
 * API documents them (https://docs.github.com/rest/deployments/environments,
 * https://docs.github.com/rest/deployments/branch-policies, https://docs.github.com/rest/actions/secrets#list-environment-secrets).
 * Anyone who can read the repository reads environments and policies; admins create and change
 * them; secret names are for collaborators with write access, and for an App only with the
 * installation's `secrets` permission. Values are never served (the API has none to give).
 */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { paginate } from "../paginate.js";
import type { Route, RouteContext } from "../route.js";
import { setupOf, type DeploymentPolicyRecord, type EnvironmentRecord } from "../setup-records.js";
import { isoTime } from "../clock.js";
import { nextId, type FakeState, type RepoState } from "../state.js";
import { nodeId, repoHtmlUrl, repoUrl } from "../to-json-user-repo.js";

function environmentJson(state: FakeState, repo: RepoState, env: EnvironmentRecord): Record<string, unknown> {
  const rules: unknown[] = [];
  if (env.waitTimer > 0) rules.push({ id: env.id + 1_000_000, node_id: nodeId("Gate", env.id + 1_000_000), type: "wait_timer", wait_timer: env.waitTimer });
  if (env.branchPolicy !== null) rules.push({ id: env.id + 2_000_000, node_id: nodeId("Gate", env.id + 2_000_000), type: "branch_policy" });
  return {
    id: env.id,
    node_id: nodeId("Environment", env.id),
    name: env.name,
    url: `${repoUrl(state, repo)}/environments/${encodeURIComponent(env.name)}`,
    html_url: `${repoHtmlUrl(state, repo)}/deployments/activity_log?environments_filter=${encodeURIComponent(env.name)}`,
    created_at: isoTime(env.createdAt),
    updated_at: isoTime(env.updatedAt),
    protection_rules: rules,
    deployment_branch_policy: env.branchPolicy === null ? null : { protected_branches: env.branchPolicy.protectedBranches, custom_branch_policies: env.branchPolicy.customBranchPolicies },
  };
}

const policyJson = (p: DeploymentPolicyRecord) => ({ id: p.id, node_id: nodeId("GateBranchPolicy", p.id), name: p.name, type: p.type });

function findEnvironment(ctx: RouteContext): EnvironmentRecord {
  const env = setupOf(ctx.repo).environments.get((ctx.params.environment_name ?? "").toLowerCase());
  if (env === undefined) throw notFound();
  return env;
}

function listEnvironments(state: FakeState, ctx: RouteContext) {
  const all = [...setupOf(ctx.repo).environments.values()].sort((a, b) => a.id - b.id);
  return paginate(ctx, all, { map: (e) => environmentJson(state, ctx.repo, e), wrap: (page, total) => ({ total_count: total, environments: page }) });
}

function getEnvironment(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: environmentJson(state, ctx.repo, findEnvironment(ctx)) };
}

/** Creates or updates; `deployment_branch_policy` null opens it to every branch, and exactly one of its two flags must be true. */
function putEnvironment(state: FakeState, ctx: RouteContext) {
  const name = ctx.params.environment_name ?? "";
  const key = name.toLowerCase();
  const setup = setupOf(ctx.repo);
  const now = state.clock.now();
  const env: EnvironmentRecord = setup.environments.get(key) ?? { id: nextId(state), name, createdAt: now, updatedAt: now, waitTimer: 0, branchPolicy: null, policies: [], secrets: {} };
  const body = ctx.body;
  if ("deployment_branch_policy" in body) {
    const policy = body.deployment_branch_policy;
    if (policy === null) env.branchPolicy = null;
    else {
      const p = typeof policy === "object" && !Array.isArray(policy) ? (policy as Record<string, unknown>) : {};
      if (typeof p.protected_branches !== "boolean" || typeof p.custom_branch_policies !== "boolean" || p.protected_branches === p.custom_branch_policies) {
        throw validationFailed("Invalid request.\n\nExactly one of protected_branches and custom_branch_policies must be true.");
      }
      env.branchPolicy = { protectedBranches: p.protected_branches, customBranchPolicies: p.custom_branch_policies };
    }
  }
  if ("wait_timer" in body) {
    const timer = body.wait_timer;
    if (!Number.isInteger(timer) || (timer as number) < 0 || (timer as number) > 43_200) throw validationFailed("Invalid request.\n\nFor 'wait_timer', it must be a whole number of minutes from 0 to 43200.");
    env.waitTimer = timer as number;
  }
  env.updatedAt = now;
  setup.environments.set(key, env);
  return { status: 200, body: environmentJson(state, ctx.repo, env) };
}

function listPolicies(_state: FakeState, ctx: RouteContext) {
  const env = findEnvironment(ctx);
  return paginate(ctx, env.policies, { map: policyJson, wrap: (page, total) => ({ total_count: total, branch_policies: page }) });
}

function createPolicy(state: FakeState, ctx: RouteContext) {
  const env = findEnvironment(ctx);
  // Name patterns only exist for an environment limited to custom branch policies.
  if (env.branchPolicy?.customBranchPolicies !== true) throw notFound();
  const name = ctx.body.name;
  const type = ctx.body.type ?? "branch";
  if (typeof name !== "string" || name === "") throw validationFailed("Invalid request.\n\n\"name\" wasn't supplied.");
  if (type !== "branch" && type !== "tag") throw validationFailed(`Invalid request.\n\nFor 'type', ${JSON.stringify(type)} is not one of branch, tag.`);
  const existing = env.policies.find((p) => p.name === name && p.type === type);
  if (existing !== undefined) return { status: 200, body: policyJson(existing) };
  const policy: DeploymentPolicyRecord = { id: nextId(state), name, type };
  env.policies.push(policy);
  return { status: 200, body: policyJson(policy) };
}

function listSecrets(state: FakeState, ctx: RouteContext) {
  // An App reads secret names only with the installation's `secrets` permission.
  if (ctx.identity.kind === "bot" && ctx.identity.installationId !== undefined) {
    const level = state.installations.get(ctx.identity.installationId)?.permissions?.["secrets"];
    if (level !== "read" && level !== "write") throw new HttpError(403, "Resource not accessible by integration");
  }
  const env = findEnvironment(ctx);
  const secrets = Object.entries(env.secrets)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, s]) => ({ name, created_at: isoTime(s.createdAt), updated_at: isoTime(s.updatedAt) }));
  return paginate(ctx, secrets, { wrap: (page, total) => ({ total_count: total, secrets: page }) });
}

export const environmentRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/environments", kind: "read", handler: listEnvironments },
  { method: "GET", pattern: "/repos/{owner}/{repo}/environments/{environment_name}", kind: "read", handler: getEnvironment },
  { method: "PUT", pattern: "/repos/{owner}/{repo}/environments/{environment_name}", kind: "write", access: "admin", handler: putEnvironment },
  { method: "GET", pattern: "/repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies", kind: "read", handler: listPolicies },
  { method: "POST", pattern: "/repos/{owner}/{repo}/environments/{environment_name}/deployment-branch-policies", kind: "write", access: "admin", handler: createPolicy },
  { method: "GET", pattern: "/repos/{owner}/{repo}/environments/{environment_name}/secrets", kind: "read", access: "write", handler: listSecrets },
];
