/** GitHub's JSON shapes for apps and installations. */
import { isoTime } from "./clock.js";
import type { FakeState, InstallationRecord } from "./state.js";
import { nodeId, userJson } from "./to-json-user-repo.js";

/** The installation's permissions object, from its one coarse permission. */
export function permissionsOf(installation: InstallationRecord): Record<string, string> {
  if (installation.permissions !== undefined) return { ...installation.permissions };
  const level = installation.permission === "admin" || installation.permission === "maintain" || installation.permission === "write" ? "write" : "read";
  return { issues: level, pull_requests: level, contents: level, checks: level, statuses: level, deployments: level, actions: level, metadata: "read" };
}

export function installationJson(state: FakeState, installation: InstallationRecord): Record<string, unknown> {
  const owner = installation.repos[0]?.split("/")[0] ?? "fake";
  const account = userJson(state, owner);
  const at = isoTime(installation.createdAt ?? state.clock.now());
  return {
    id: installation.id,
    account,
    repository_selection: "selected",
    access_tokens_url: `${state.baseUrl}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${state.baseUrl}/installation/repositories`,
    html_url: `${state.baseUrl}/settings/installations/${installation.id}`,
    app_id: installation.appId,
    app_slug: installation.appSlug,
    target_id: account.id,
    target_type: "User",
    permissions: permissionsOf(installation),
    events: ["issues", "issue_comment", "pull_request", "pull_request_review", "workflow_run", "deployment_status", "check_run"],
    created_at: at,
    updated_at: at,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}

/** `installation-token`. */
export function installationTokenJson(state: FakeState, installation: InstallationRecord, token: string, permissions: Record<string, string> = permissionsOf(installation)): Record<string, unknown> {
  return {
    token,
    expires_at: isoTime(state.clock.now() + 3_600_000),
    permissions,
    repository_selection: "selected",
  };
}

/** `integration`: the app behind installations (the first installation names it). */
export function appJson(state: FakeState, appId: number): Record<string, unknown> {
  const installation = [...state.installations.values()].find((i) => i.appId === appId);
  const slug = installation?.appSlug ?? `app-${appId}`;
  const owner = installation?.repos[0]?.split("/")[0] ?? "fake";
  const at = isoTime(state.clock.now());
  return {
    id: appId,
    slug,
    node_id: nodeId("Integration", appId),
    client_id: `Iv1.${appId}`,
    owner: userJson(state, owner),
    name: slug,
    description: null,
    external_url: `${state.baseUrl}/apps/${slug}`,
    html_url: `${state.baseUrl}/apps/${slug}`,
    created_at: at,
    updated_at: at,
    permissions: installation === undefined ? {} : permissionsOf(installation),
    events: [],
    installations_count: [...state.installations.values()].filter((i) => i.appId === appId).length,
  };
}
