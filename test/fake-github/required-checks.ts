/**
 * The status checks a merge into `branch` must satisfy: the union of the branch's classic
 * protection and every **active** ruleset targeting it (`evaluate` and `disabled` rulesets enforce
 * nothing). `appId` null means any source may post the check. The merge route enforces these.
 */
import { setupOf } from "./setup-records.js";
import { rulesetTargets } from "./ruleset-targets.js";
import { repoKey, type FakeState } from "./state.js";

export function requiredChecksFor(state: FakeState, fullName: string, branch: string): Array<{ context: string; appId: number | null }> {
  const [owner = "", name = ""] = fullName.split("/");
  const repo = state.repos.get(repoKey(owner, name));
  if (repo === undefined) return [];
  const setup = setupOf(repo);
  const found: Array<{ context: string; appId: number | null }> = [...(setup.protection.get(branch)?.requiredStatusChecks?.checks ?? [])];
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
  // One entry per (context, source): two rules asking the same thing ask it once.
  return found.filter((c, i) => found.findIndex((d) => d.context === c.context && d.appId === c.appId) === i).map((c) => ({ context: c.context, appId: c.appId }));
}
