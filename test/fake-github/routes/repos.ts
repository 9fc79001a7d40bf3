/** The repository itself, collaborator permissions, and the app installation on it. */
import { permissionOf } from "../authenticate.js";
import { HttpError, notFound } from "../http-error.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState, Permission } from "../state.js";
import { installationJson } from "../to-json-app.js";
import { repoJson, userJson } from "../to-json-user-repo.js";

function getRepo(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: repoJson(state, ctx.repo) };
}

/** GitHub folds maintain into write and triage into read in `permission`; `role_name` keeps the detail. */
const LEGACY: Record<Permission, string> = { admin: "admin", maintain: "write", write: "write", triage: "read", read: "read", none: "none" };

function getCollaboratorPermission(state: FakeState, ctx: RouteContext) {
  const login = ctx.params.username ?? "";
  if (!state.users.has(login) && !ctx.repo.permissions.has(login) && login.toLowerCase() !== ctx.repo.owner.toLowerCase()) throw notFound();
  const permission = permissionOf(ctx.repo, login);
  return {
    status: 200,
    body: { permission: LEGACY[permission], role_name: permission, user: { ...userJson(state, login), permissions: flags(permission), role_name: permission } },
  };
}

function flags(p: Permission) {
  const at = (need: Permission[]) => need.includes(p);
  return {
    admin: at(["admin"]),
    maintain: at(["admin", "maintain"]),
    push: at(["admin", "maintain", "write"]),
    triage: at(["admin", "maintain", "write", "triage"]),
    pull: at(["admin", "maintain", "write", "triage", "read"]),
  };
}

/** Answers only the App itself: "You must use a JWT to access this endpoint" (https://docs.github.com/rest/apps/apps#get-a-repository-installation-for-the-authenticated-app). */
function getRepoInstallation(state: FakeState, ctx: RouteContext) {
  if (ctx.identity.kind !== "app") throw new HttpError(401, "A JSON web token could not be decoded");
  const key = `${ctx.repo.owner}/${ctx.repo.name}`.toLowerCase();
  // With an app's JWT: that app's installation on the repository, as GitHub answers it.
  const appId = ctx.identity.kind === "app" ? ctx.identity.appId : undefined;
  const installation = [...state.installations.values()].find((i) => (appId === undefined || i.appId === appId) && i.repos.some((r) => r.toLowerCase() === key));
  if (installation === undefined) throw notFound();
  return { status: 200, body: installationJson(state, installation) };
}

export const repoRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}", kind: "read", handler: getRepo },
  { method: "GET", pattern: "/repos/{owner}/{repo}/collaborators/{username}/permission", kind: "read", handler: getCollaboratorPermission },
  { method: "GET", pattern: "/repos/{owner}/{repo}/installation", kind: "read", access: "none", handler: getRepoInstallation },
];
