/** The GitHub App path Probot takes: a JWT for the app, then an installation token. */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { intParam } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { paginate } from "../paginate.js";
import { repoKey, type FakeState, type InstallationRecord, type ScopeLevel } from "../state.js";
import { repoJson } from "../to-json-user-repo.js";
import { appJson, installationJson, installationTokenJson, permissionsOf } from "../to-json-app.js";

function requireApp(ctx: RouteContext): number {
  if (ctx.identity.kind !== "app") {
    throw new HttpError(401, "A JSON web token could not be decoded");
  }
  return ctx.identity.appId;
}

function findInstallation(state: FakeState, ctx: RouteContext): InstallationRecord {
  const appId = requireApp(ctx);
  const installation = state.installations.get(intParam(ctx.params, "installation_id"));
  if (installation === undefined || installation.appId !== appId) throw notFound();
  return installation;
}

/**
 * A token with the installation's permissions, or with the subset `permissions` asks for (422 when
 * it asks for more than the installation has, as GitHub answers); the token is then held to them.
 */
function createAccessToken(state: FakeState, ctx: RouteContext) {
  const installation = findInstallation(state, ctx);
  const granted = permissionsOf(installation);
  const asked = ctx.body["permissions"];
  let scopes: Record<string, ScopeLevel> | undefined;
  if (asked !== undefined) {
    if (typeof asked !== "object" || asked === null || Array.isArray(asked)) throw validationFailed("Invalid request.\n\nFor 'permissions', it is not an object.");
    scopes = {};
    for (const [scope, level] of Object.entries(asked as Record<string, unknown>)) {
      const has = granted[scope];
      if ((level !== "read" && level !== "write") || has === undefined || (level === "write" && has !== "write")) throw validationFailed("The permissions requested are not granted to this installation.");
      scopes[scope] = level;
    }
  }
  const token = `ghs_fake${String(state.nextId++).padStart(12, "0")}`;
  state.tokens.set(token, { kind: "bot", login: installation.botLogin, installationId: installation.id, ...(scopes === undefined ? {} : { scopes }) });
  return { status: 201, body: installationTokenJson(state, installation, token, scopes === undefined ? granted : { ...scopes, metadata: "read" }) };
}

function getApp(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: appJson(state, requireApp(ctx)) };
}

function listInstallations(state: FakeState, ctx: RouteContext) {
  const appId = requireApp(ctx);
  return { status: 200, body: [...state.installations.values()].filter((i) => i.appId === appId).map((i) => installationJson(state, i)) };
}

/** `GET /installation/repositories`: the repositories of the installation whose token this is (paginated, with an ETag like every GET). */
function listInstallationRepos(state: FakeState, ctx: RouteContext) {
  const id = ctx.identity.kind === "bot" ? ctx.identity.installationId : undefined;
  const installation = id === undefined ? undefined : state.installations.get(id);
  if (installation === undefined) throw new HttpError(403, "You must authenticate with an installation access token in order to list repositories for an installation.");
  const repos = installation.repos.flatMap((fullName) => {
    const [owner = "", name = ""] = fullName.split("/");
    const repo = state.repos.get(repoKey(owner, name));
    return repo === undefined ? [] : [repo];
  });
  return paginate(ctx, repos, { map: (r) => repoJson(state, r), wrap: (page, total) => ({ total_count: total, repository_selection: "selected", repositories: page }) });
}

function getInstallation(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: installationJson(state, findInstallation(state, ctx)) };
}

export const appRoutes: Route[] = [
  { method: "GET", pattern: "/app", kind: "read", access: "none", handler: getApp },
  { method: "GET", pattern: "/app/installations", kind: "read", access: "none", handler: listInstallations },
  { method: "GET", pattern: "/app/installations/{installation_id}", kind: "read", access: "none", handler: getInstallation },
  { method: "GET", pattern: "/installation/repositories", kind: "read", access: "none", handler: listInstallationRepos },
  { method: "POST", pattern: "/app/installations/{installation_id}/access_tokens", kind: "write", access: "none", handler: createAccessToken },
];
