/** Every check of `bosun doctor` over the facts read from one repository, in the order they are reported. */
import { checkApp } from "./check-app.js";
import { checkConfig } from "./check-config.js";
import { checkEnvironment, checkEnvironmentSecrets } from "./check-environment.js";
import { checkLabels } from "./check-labels.js";
import { checkRequiredChecks } from "./check-required-checks.js";
import { checkWorkflows } from "./check-workflows.js";
import type { SetupFacts } from "./setup-facts.js";
import type { SetupFinding } from "./setup-finding.js";
import { APP_PERMISSIONS } from "./setup-templates.js";

export function doctorChecks(facts: SetupFacts, wantedPermissions: Readonly<Record<string, string>> = APP_PERMISSIONS): SetupFinding[] {
  return [...checkApp(facts, wantedPermissions), checkConfig(facts), checkLabels(facts), ...checkWorkflows(facts), checkEnvironment(facts), checkEnvironmentSecrets(facts), ...checkRequiredChecks(facts)];
}

/** True when every check passed: a could-not-check is not a pass. */
export function allHold(findings: readonly SetupFinding[]): boolean {
  return findings.every((f) => f.status === "ok");
}
