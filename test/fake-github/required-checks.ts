/**
 * Required status checks of a branch, and whether a commit satisfies them, as branch protection
 * and rulesets decide before a merge. `requiredChecksFor` is the one place they are read: the
 * union of the branch's classic protection, every **active** ruleset targeting it (`evaluate` and
 * `disabled` rulesets enforce nothing), and checks seeded with `fake.requireChecks`.
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
import { setupOf } from "./setup-records.js";
import { rulesetTargets } from "./ruleset-targets.js";
import { repoKey, type FakeState, type RepoState, type RequiredCheck } from "./state.js";

/** The checks a branch of a repository requires: protection, active rulesets and seeded ones, each (context, source) once. */
export function requiredChecksFor(state: FakeState, fullName: string, branch: string): RequiredCheck[] {
  const [owner = "", name = ""] = fullName.split("/");
  const repo = state.repos.get(repoKey(owner, name));
  const found: RequiredCheck[] = [...(state.requiredChecks.get(`${repoKey(owner, name)}:${branch}`) ?? [])];
  if (repo !== undefined) {
    const setup = setupOf(repo);
    found.push(...(setup.protection.get(branch)?.requiredStatusChecks?.checks ?? []));
    for (const ruleset of setup.rulesets.values()) {
      if (ruleset.enforcement !== "active" || !rulesetTargets(ruleset, repo, branch)) continue;
      for (const rule of ruleset.rules) {
        if (rule.type !== "required_status_checks") continue;
        const checks = rule.parameters?.["required_status_checks"];
        for (const c of Array.isArray(checks) ? (checks as Array<{ context?: unknown; integration_id?: unknown }>) : []) {
          found.push({ context: String(c.context), appId: typeof c.integration_id === "number" ? c.integration_id : null });
        }
      }
    }
  }
  // One entry per (context, source): two rules asking the same thing ask it once.
  return found.filter((c, i) => found.findIndex((d) => d.context === c.context && d.appId === c.appId) === i).map((c) => ({ context: c.context, appId: c.appId }));
}

/** Seeds the checks a branch requires (replacing earlier seeded ones). */
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
