/**
 * What `bosun doctor` (and the dashboard's Setup section) read from a repository, as plain data.
 * Every read is a `Read`: its value, or why GitHub did not answer it — never a guess.
 */

/** One read: its value, or the HTTP status GitHub refused it with (null: no answer at all). */
export type Read<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: number | null; readonly detail: string };

export const readOk = <T>(value: T): Read<T> => ({ ok: true, value });
export const readFailed = <T>(status: number | null, detail: string): Read<T> => ({ ok: false, status, detail });

/** The App's installation on the repository, as `GET /repos/{owner}/{repo}/installation` answers it (a JWT read). */
export interface InstallationFact {
  readonly appId: number;
  readonly appSlug: string;
  /** Repository permissions the installation holds: name → `read` | `write` | `admin`. */
  readonly permissions: Readonly<Record<string, string>>;
  readonly suspended: boolean;
}

/** One check a rule requires, and the App it must come from (null: any source). */
export interface RequiredCheckFact {
  readonly context: string;
  readonly appId: number | null;
}

/** A ruleset of the repository (or inherited), as `GET /repos/{owner}/{repo}/rulesets/{id}` answers it. */
export interface RulesetFact {
  readonly id: number;
  readonly name: string;
  readonly enforcement: string;
  readonly target: string;
  /** `conditions.ref_name`: patterns, `~DEFAULT_BRANCH`, `~ALL`. */
  readonly include: readonly string[];
  readonly exclude: readonly string[];
  readonly requiredChecks: readonly RequiredCheckFact[];
}

export interface DeploymentPolicyFact {
  readonly name: string;
  readonly type: "branch" | "tag";
  /** For an exact branch name other than the default branch: whether GitHub calls it protected. */
  readonly protected?: Read<boolean>;
}

/** The environment `bosun`: who may deploy to it (its jobs read the App's key). */
export interface EnvironmentFact {
  /** `deployment_branch_policy`; null: every branch may deploy. */
  readonly branchPolicy: null | { readonly protectedBranches: boolean; readonly customBranchPolicies: boolean };
  /** Read only when custom branch policies are on. */
  readonly policies?: Read<readonly DeploymentPolicyFact[]>;
}

export interface SetupFacts {
  /** `owner/name`. */
  readonly repo: string;
  readonly defaultBranch: string;
  /** null: not installed on the repository (GitHub answered 404 to the App itself). */
  readonly installation: Read<InstallationFact | null>;
  /** The Bosun App's id when it is known without the installation (`--app-id`). */
  readonly appId?: number;
  /** `.github/bosun.yml` at the default branch; null: no such file. */
  readonly config: Read<string | null>;
  readonly labels: Read<readonly string[]>;
  /** `.github/workflows/*` at the default branch that doctor compares: file name → text (absent files left out). */
  readonly workflows: Read<Readonly<Record<string, string>>>;
  /** null: no environment of that name. */
  readonly environment: Read<EnvironmentFact | null>;
  /** Names of the environment's secrets (never values: the API has none to give). */
  readonly environmentSecrets: Read<readonly string[]>;
  /** Classic branch protection's required checks on the default branch (`GET .../branches/{branch}`). */
  readonly protectionChecks: Read<readonly RequiredCheckFact[]>;
  /** The checks active rulesets require on the default branch (`GET .../rules/branches/{branch}`). */
  readonly rulesetChecks: Read<readonly RequiredCheckFact[]>;
  /** Every ruleset, with its rules: to explain a check a ruleset requires but does not enforce. */
  readonly rulesets: Read<readonly RulesetFact[]>;
}
