/**
 * What a repository's admin sets up around the code: classic branch protection, rulesets and
 * deployment environments (with secret names). Kept on `RepoState.setup`, created on first use, so
 * stale-read snapshots (structured clones of the repository) carry it too.
 */
import type { RepoState } from "./state.js";

/** A check a rule requires, and the App that must post it (null: any source). */
export interface RequiredCheck {
  context: string;
  appId: number | null;
}

/** Classic branch protection of one branch (`PUT /repos/{owner}/{repo}/branches/{branch}/protection`). */
export interface ProtectionRecord {
  requiredStatusChecks: { strict: boolean; checks: RequiredCheck[] } | null;
  enforceAdmins: boolean;
  requiredPullRequestReviews: { requiredApprovingReviewCount: number; dismissStaleReviews: boolean; requireCodeOwnerReviews: boolean; requireLastPushApproval: boolean } | null;
  requiredLinearHistory: boolean;
  allowForcePushes: boolean;
  allowDeletions: boolean;
}

export interface RulesetRuleRecord {
  type: string;
  parameters?: Record<string, unknown>;
}

/** A repository ruleset (`POST /repos/{owner}/{repo}/rulesets`). */
export interface RulesetRecord {
  id: number;
  name: string;
  target: "branch" | "tag" | "push";
  enforcement: "active" | "evaluate" | "disabled";
  /** `conditions.ref_name`: full ref patterns (`refs/heads/main`, `refs/heads/release/*`), `~DEFAULT_BRANCH`, `~ALL`. */
  include: string[];
  exclude: string[];
  rules: RulesetRuleRecord[];
  bypassActors: unknown[];
  createdAt: number;
  updatedAt: number;
}

export interface DeploymentPolicyRecord {
  id: number;
  name: string;
  type: "branch" | "tag";
}

/** A deployment environment: who may deploy to it, and the names of its secrets (values are never served). */
export interface EnvironmentRecord {
  id: number;
  name: string;
  createdAt: number;
  updatedAt: number;
  waitTimer: number;
  /** `deployment_branch_policy`; null: any branch may deploy. */
  branchPolicy: { protectedBranches: boolean; customBranchPolicies: boolean } | null;
  policies: DeploymentPolicyRecord[];
  /** Secret name → when it was set. */
  secrets: Record<string, { createdAt: number; updatedAt: number }>;
}

export interface RepoSetupRecords {
  /** Branch name → its classic protection. */
  protection: Map<string, ProtectionRecord>;
  rulesets: Map<number, RulesetRecord>;
  /** Lower-cased name → environment (GitHub's environment names are case-insensitive). */
  environments: Map<string, EnvironmentRecord>;
}

/** The repository's setup records, created empty on first use. */
export function setupOf(repo: RepoState): RepoSetupRecords {
  repo.setup ??= { protection: new Map(), rulesets: new Map(), environments: new Map() };
  return repo.setup;
}
