/** The scopes of a job's GITHUB_TOKEN from `permissions:` as written. */
import type { PermissionsSpec } from "./parse-workflow.js";

/** Every scope a GITHUB_TOKEN can hold. */
export const TOKEN_SCOPES = ["actions", "checks", "contents", "deployments", "issues", "packages", "pages", "pull_requests", "statuses", "security_events", "id_token", "attestations", "discussions", "models", "repository_projects"] as const;

/**
 * The token's scopes: the job's `permissions`, else the workflow's, else GitHub's restricted default
 * (contents and packages read). Any map leaves every scope it does not name at none.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#permissions
 */
export function tokenScopes(spec: PermissionsSpec | undefined): Record<string, "read" | "write"> {
  if (spec === undefined) return { contents: "read", packages: "read" };
  if (spec === "read-all" || spec === "write-all") return Object.fromEntries(TOKEN_SCOPES.map((s) => [s, spec === "read-all" ? "read" : "write"]));
  return Object.fromEntries(Object.entries(spec).filter(([, level]) => level !== "none")) as Record<string, "read" | "write">;
}
