import type { BosunConfig } from "../config/bosun-config.js";
import { DEFAULT_AGENTS, isBotIdentity, normalizeLogin } from "../separation/identity.js";

/** GitHub's repository roles, weakest first (`role_name` of the collaborator permission API). */
export const ROLES = ["none", "read", "triage", "write", "maintain", "admin"] as const;
export type Role = (typeof ROLES)[number];

/**
 * Whether `login` may approve an item for an agent, or land it by hand (docs/lifecycle.md): at
 * least the configured role (default maintain: an agent that pushes branches has write), not an
 * agent or bot, and not the issue's author unless the configuration allows it. Undefined when
 * they may; else why not.
 * @example whyNotApprover("mona", "write", "tia", config) // "mona has the write role; approving needs maintain or more"
 */
export function whyNotApprover(login: string, role: Role, issueAuthor: string | undefined, config: Pick<BosunConfig, "approval" | "agents">): string | undefined {
  const need = config.approval.role;
  if (ROLES.indexOf(role) < ROLES.indexOf(need)) return `${login} has the ${role} role; approving needs ${need} or more`;
  const agents = new Set([...DEFAULT_AGENTS, ...config.agents].map(normalizeLogin));
  if (isBotIdentity(login) || agents.has(normalizeLogin(login))) return `${login} is an agent: agents never approve work`;
  if (!config.approval.author_may_approve && issueAuthor !== undefined && normalizeLogin(issueAuthor) === normalizeLogin(login)) return `${login} wrote the issue: its author does not approve it (approval.author_may_approve)`;
  return undefined;
}

/** A role name as GitHub answers it, or `none` for anything unknown (a custom role is never more than write). */
export function roleOf(name: string | undefined, legacy: string | undefined): Role {
  if ((ROLES as readonly string[]).includes(name ?? "")) return name as Role;
  // A custom role reads as its base in `permission` (write at most for non-admins).
  return legacy === "admin" ? "admin" : legacy === "write" ? "write" : legacy === "read" ? "read" : "none";
}
