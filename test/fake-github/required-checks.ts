/**
 * Required status checks of a branch, and whether a commit satisfies them, as branch protection
 * and rulesets decide before a merge. `requiredChecksFor` is the one place they are read; today
 * they come from `fake.requireChecks` (seeded), later from protection and ruleset routes too.
 *
 * GitHub's rules modelled here (https://docs.github.com/en/repositories/configuring-branches-and-merges-in-your-repository/managing-protected-branches/about-protected-branches#require-status-checks-before-merging,
 * https://docs.github.com/en/rest/branches/branch-protection — `checks[].app_id`):
 * - a check is satisfied by the latest check run of that name on the commit, or the latest commit
 *   status of that context, whose conclusion is success, neutral or skipped (a skipped job reports
 *   success; neutral and skipped both pass a required check), or state success for a status;
 * - a check bound to an app (`app_id`) counts only a check run created by that app, or a commit
 *   status posted with that app's installation token; a report from anyone else is ignored;
 * - anything else (missing, pending, failed) blocks the merge.
 */
import { repoKey, type FakeState, type RepoState, type RequiredCheck } from "./state.js";

/** The checks a branch of a repository requires (none when nothing was seeded). */
export function requiredChecksFor(state: FakeState, fullName: string, branch: string): RequiredCheck[] {
  const [owner = "", name = ""] = fullName.split("/");
  return [...(state.requiredChecks.get(`${repoKey(owner, name)}:${branch}`) ?? [])];
}

/** Seeds the checks a branch requires (replacing earlier ones). */
export function setRequiredChecks(state: FakeState, fullName: string, branch: string, checks: readonly RequiredCheck[]): void {
  const [owner = "", name = ""] = fullName.split("/");
  state.requiredChecks.set(`${repoKey(owner, name)}:${branch}`, checks.map((c) => ({ context: c.context, appId: c.appId })));
}

const PASSING = new Set(["success", "neutral", "skipped"]);

/** Why a required check is not satisfied on `sha` ("expected": nothing or pending; "failing"), or undefined when it is. */
export function unsatisfied(repo: RepoState, sha: string, check: RequiredCheck): "expected" | "failing" | undefined {
  const fromApp = (appId: number | null | undefined) => check.appId === null || appId === check.appId;
  const run = [...repo.checkRuns.values()].filter((r) => r.headSha === sha && r.name === check.context && fromApp(r.appId)).sort((a, b) => b.id - a.id)[0];
  const status = repo.statuses.filter((s) => s.sha === sha && s.context === check.context && fromApp(s.appId)).at(-1);
  if ((run?.status === "completed" && PASSING.has(run.conclusion ?? "")) || status?.state === "success") return undefined;
  const failed = (run?.status === "completed" && !PASSING.has(run.conclusion ?? "")) || status?.state === "failure" || status?.state === "error";
  return failed ? "failing" : "expected";
}
