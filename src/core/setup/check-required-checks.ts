/**
 * Does the default branch require `bosun/gate` and `bosun/separation` **from the Bosun App**?
 * A check required from any source can be posted by any workflow a pull request edits (its
 * GITHUB_TOKEN may write checks); only a source bound to the App, whose key lives in the `bosun`
 * environment, keeps the verdict Bosun's. Classic protection and active rulesets both count.
 */
import type { RequiredCheckFact, RulesetFact, SetupFacts } from "./setup-facts.js";
import { couldNotCheck, ok, problem, refusal, type SetupFinding } from "./setup-finding.js";

export const REQUIRED_CONTEXTS = ["bosun/gate", "bosun/separation"] as const;
/** GitHub Actions' own App on github.com: a check "from GitHub Actions" is any workflow's GITHUB_TOKEN. */
export const GITHUB_ACTIONS_APP_ID = 15368;

const FIX = "require it with the Bosun App as its source: Settings → Rules → Rulesets (Enforcement Active, target the default branch, Require status checks, pick the App beside the check), or classic branch protection with the App in the source menu (docs/security.md, \"Set it up\", step 4)";

function enforcementNote(context: string, rulesets: readonly RulesetFact[]): string {
  const idle = rulesets.filter((r) => r.enforcement !== "active" && r.requiredChecks.some((c) => c.context === context));
  return idle.length === 0 ? "" : `; ruleset ${idle.map((r) => `'${r.name}' (enforcement: ${r.enforcement})`).join(", ")} names it but does not enforce it`;
}

export function checkRequiredChecks(facts: SetupFacts): SetupFinding[] {
  const protection = facts.protectionChecks;
  const rules = facts.rulesetChecks;
  const appId = facts.installation.ok && facts.installation.value !== null ? facts.installation.value.appId : facts.appId;
  const rulesets = facts.rulesets.ok ? facts.rulesets.value : [];
  const findings: SetupFinding[] = [];
  for (const context of REQUIRED_CONTEXTS) {
    const sources: RequiredCheckFact[] = [...(protection.ok ? protection.value : []), ...(rules.ok ? rules.value : [])].filter((c) => c.context === context);
    if (appId !== undefined && sources.some((s) => s.appId === appId)) {
      findings.push(ok("required-checks", `${facts.defaultBranch} requires ${context} from the Bosun App (id ${appId})`, context));
      continue;
    }
    // Nothing binds it to the App as far as was read: an unread half could still hold the rule.
    const unread = [protection, rules].filter((r) => !r.ok);
    if (unread.length > 0 && sources.length === 0) {
      const failed = !protection.ok ? protection : rules;
      if (!failed.ok) {
        const { message, fix } = refusal(`the rules of ${facts.defaultBranch} (${!protection.ok ? "branch protection" : "rulesets"})`, failed, "use a token that can read the repository (Metadata: read)");
        findings.push(couldNotCheck("required-checks", `${context}: ${message}`, fix, context));
      }
      continue;
    }
    if (sources.length === 0) {
      findings.push(problem("required-checks", `${facts.defaultBranch} does not require ${context}: a pull request merges whatever its verdict${enforcementNote(context, rulesets)}`, FIX, context));
      continue;
    }
    const anySource = sources.filter((s) => s.appId === null);
    const actions = sources.filter((s) => s.appId === GITHUB_ACTIONS_APP_ID);
    const others = sources.filter((s) => s.appId !== null && s.appId !== GITHUB_ACTIONS_APP_ID);
    if (appId === undefined && others.length > 0 && anySource.length === 0 && actions.length === 0) {
      findings.push(couldNotCheck("required-checks", `${facts.defaultBranch} requires ${context} from the App with id ${others.map((s) => s.appId).join(", ")}; whether that is the Bosun App is unknown`, "give doctor the App's id (--app-id), or its key to read the installation", context));
      continue;
    }
    const said = [
      ...(anySource.length > 0 ? ["from any source: any workflow a pull request edits can post it"] : []),
      ...(actions.length > 0 ? ["from GitHub Actions: any workflow's token can post it"] : []),
      ...(others.length > 0 ? [`from the App with id ${others.map((s) => s.appId).join(", ")}, not the Bosun App (id ${appId ?? "?"})`] : []),
    ];
    findings.push(problem("required-checks", `${facts.defaultBranch} requires ${context} ${said.join("; and ")}`, FIX, context));
  }
  return findings;
}
