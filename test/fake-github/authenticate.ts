/** Tokens to identities, and permissions to yes/no. */
import { HttpError } from "./http-error.js";
import type { FakeState, Identity, Permission, RepoState, ScopeLevel } from "./state.js";

const RANK: Record<Permission, number> = { none: 0, read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** True when `have` grants at least `need`. */
export function permissionAtLeast(have: Permission, need: Permission): boolean {
  return RANK[have] >= RANK[need];
}

/** Permission of a login on a repository: the owner is admin; unknown logins read public repos only. */
export function permissionOf(repo: RepoState, login: string): Permission {
  if (login.toLowerCase() === repo.owner.toLowerCase()) return "admin";
  return repo.permissions.get(login) ?? (repo.private ? "none" : "read");
}

export function hasPermission(repo: RepoState, login: string, need: Permission): boolean {
  return permissionAtLeast(permissionOf(repo, login), need);
}

/**
 * The identity behind an `Authorization` header: `token X` or `Bearer X`. A three-part JWT is an app
 * (Probot signs one with its private key; the fake accepts any signature).
 */
export function authenticate(state: FakeState, header: string | undefined): Identity {
  if (header === undefined || header === "") return { kind: "anonymous" };
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(header.trim());
  if (match === null) throw new HttpError(401, "Bad credentials");
  const token = match[1] as string;
  const known = state.tokens.get(token);
  if (known !== undefined) return known;
  const jwt = decodeJwt(state, token);
  if (jwt !== undefined) return jwt;
  throw new HttpError(401, "Bad credentials");
}

function decodeJwt(state: FakeState, token: string): Identity | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1] as string, "base64url").toString("utf8")) as { iss?: unknown };
    // `iss` is the app's id, or its client id (`Iv1.<id>` here, as `GET /app` answers it).
    const appId = Number(String(payload.iss).replace(/^Iv1\./, ""));
    if (!Number.isInteger(appId)) return undefined;
    const slug = [...state.installations.values()].find((i) => i.appId === appId)?.appSlug ?? `app-${appId}`;
    return { kind: "app", appId, slug };
  } catch {
    return undefined;
  }
}

/** The login an identity writes as (`octocat`, `bosun[bot]`). */
export function loginOf(identity: Identity): string {
  switch (identity.kind) {
    case "user":
    case "bot":
      return identity.login;
    case "app":
      return `${identity.slug}[bot]`;
    case "anonymous":
      return "";
  }
}

/**
 * The permission scope a REST route needs from an installation token (GitHub's per-endpoint
 * "fine-grained permissions"), or undefined for metadata any token may read.
 * https://docs.github.com/en/rest/authentication/permissions-required-for-github-apps
 */
export function routeScope(pattern: string): string | undefined {
  if (/\/check-runs/.test(pattern)) return "checks";
  if (/\/statuses\/|\/commits\/\{ref\}\/status/.test(pattern)) return "statuses";
  if (/\/deployments/.test(pattern)) return "deployments";
  if (/\/actions\//.test(pattern)) return "actions";
  if (/\/pulls\/\{pull_number\}\/merge$/.test(pattern)) return "contents";
  if (/\/pulls|\/commits\/\{commit_sha\}\/pulls/.test(pattern)) return "pull_requests";
  if (/\/issues|\/labels/.test(pattern)) return "issues";
  if (/\/git\/|\/contents\/|\/compare\/|\/commits\//.test(pattern)) return "contents";
  return undefined;
}

/** True when a token's scopes (if it has any) grant `level` on `scope`; metadata (undefined) is always readable. */
export function scopeAllows(identity: Identity, scope: string | undefined, level: ScopeLevel): boolean {
  if (identity.kind !== "bot" || identity.scopes === undefined) return true;
  if (scope === undefined) return level === "read";
  const granted = identity.scopes[scope];
  return granted === "write" || (granted === "read" && level === "read");
}
