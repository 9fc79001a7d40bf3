/**
 * The environment `bosun` holds the App's key: it must exist, only the default branch (or branches
 * only maintainers can push to) may deploy to it, and it must hold the two secrets the workflows read.
 * A job on any other branch — a pull request's own workflow run — would otherwise read the key.
 */
import type { SetupFacts } from "./setup-facts.js";
import { couldNotCheck, ok, problem, refusal, type SetupFinding } from "./setup-finding.js";

export const SETUP_ENVIRONMENT = "bosun";
/** The secrets the shipped workflows read from the environment (`actions/create-github-app-token`). */
export const ENVIRONMENT_SECRETS = ["BOSUN_APP_CLIENT_ID", "BOSUN_APP_KEY"] as const;

const FIX_POLICY = `Settings → Environments → ${SETUP_ENVIRONMENT} → Deployment branches and tags: Selected branches and tags, with the default branch only`;
const ENV_NEEDS = "use a token that can read the repository's environments (Actions: read for an App; the repo scope for a classic token on a private repository)";

export function checkEnvironment(facts: SetupFacts): SetupFinding {
  const read = facts.environment;
  if (!read.ok) {
    const { message, fix } = refusal(`environment '${SETUP_ENVIRONMENT}'`, read, ENV_NEEDS);
    return couldNotCheck("environment", message, fix);
  }
  const env = read.value;
  if (env === null) return problem("environment", `there is no environment '${SETUP_ENVIRONMENT}': the workflows' App key has nowhere safe to live`, `Settings → Environments → New environment '${SETUP_ENVIRONMENT}'; then ${FIX_POLICY}`);
  if (env.branchPolicy === null) return problem("environment", `environment '${SETUP_ENVIRONMENT}' may be deployed from any branch: a workflow on a pull request's branch can read the App's key`, FIX_POLICY);
  if (env.branchPolicy.protectedBranches) return ok("environment", `environment '${SETUP_ENVIRONMENT}' deploys only from protected branches (keep branch protection to branches only maintainers push to)`);
  const policies = env.policies;
  if (policies === undefined || !policies.ok) {
    const { message, fix } = refusal(`the deployment branch policies of '${SETUP_ENVIRONMENT}'`, policies ?? { status: null, detail: "not read" }, ENV_NEEDS);
    return couldNotCheck("environment", message, fix);
  }
  const wrong: string[] = [];
  for (const p of policies.value) {
    if (p.type === "tag") wrong.push(`tag pattern '${p.name}' (whoever can push a tag can deploy)`);
    else if (p.name === facts.defaultBranch) continue;
    else if (/[*?[\]]/.test(p.name)) wrong.push(`branch pattern '${p.name}' (any branch named so can deploy)`);
    else if (p.protected === undefined || !p.protected.ok) wrong.push(`branch '${p.name}' (whether it is protected could not be read)`);
    else if (!p.protected.value) wrong.push(`branch '${p.name}', which is not protected`);
  }
  if (!policies.value.some((p) => p.type === "branch" && p.name === facts.defaultBranch)) {
    return problem("environment", `environment '${SETUP_ENVIRONMENT}' does not let the default branch '${facts.defaultBranch}' deploy: the gate and separation cannot read their key${wrong.length > 0 ? `; it lets ${wrong.join(", ")}` : ""}`, FIX_POLICY);
  }
  if (wrong.length > 0) return problem("environment", `environment '${SETUP_ENVIRONMENT}' also lets ${wrong.join(", ")} deploy: a workflow there can read the App's key`, FIX_POLICY);
  return ok("environment", `environment '${SETUP_ENVIRONMENT}' deploys only from ${policies.value.map((p) => p.name).join(", ")}`);
}

export function checkEnvironmentSecrets(facts: SetupFacts): SetupFinding {
  if (facts.environment.ok && facts.environment.value === null) {
    return problem("environment-secrets", `no environment '${SETUP_ENVIRONMENT}', so neither ${ENVIRONMENT_SECRETS.join(" nor ")} is in one`, `create the environment, then add ${ENVIRONMENT_SECRETS.join(" and ")} as its secrets`);
  }
  const read = facts.environmentSecrets;
  if (!read.ok) {
    const { message, fix } = refusal(`the secret names of environment '${SETUP_ENVIRONMENT}'`, read, "use a collaborator's token with the repo scope (classic) or Secrets: read (fine-grained, or an App's)");
    return couldNotCheck("environment-secrets", message, fix);
  }
  const missing = ENVIRONMENT_SECRETS.filter((s) => !read.value.includes(s));
  if (missing.length === 0) return ok("environment-secrets", `environment '${SETUP_ENVIRONMENT}' holds ${ENVIRONMENT_SECRETS.join(" and ")}`);
  return problem(
    "environment-secrets",
    `environment '${SETUP_ENVIRONMENT}' lacks ${missing.join(" and ")}: the gate and separation cannot mint the App's token`,
    `Settings → Environments → ${SETUP_ENVIRONMENT} → Environment secrets: add ${missing.join(" and ")} (the App's client ID and private key); keep them out of repository secrets`,
  );
}
