/**
 * Seeding what the REST API cannot set in plain text: an environment secret (GitHub only takes
 * values sealed with the repository's public key) and an installation's exact permissions. The
 * rest of a setup — protection, rulesets, environments, branch policies — goes through the API as
 * an admin would do it.
 */
import { setupOf } from "./setup-records.js";
import { repoKey, type FakeState } from "./state.js";

/** Puts a secret (by name; the fake keeps no value) into a repository's environment, creating the environment when missing. */
export function setEnvironmentSecret(state: FakeState, fullName: string, environment: string, name: string): void {
  const [owner = "", repoName = ""] = fullName.split("/");
  const repo = state.repos.get(repoKey(owner, repoName));
  if (repo === undefined) throw new Error(`fake-github: no repository ${fullName}`);
  const setup = setupOf(repo);
  const now = state.clock.now();
  let env = setup.environments.get(environment.toLowerCase());
  if (env === undefined) {
    env = { id: state.nextId++, name: environment, createdAt: now, updatedAt: now, waitTimer: 0, branchPolicy: null, policies: [], secrets: {} };
    setup.environments.set(environment.toLowerCase(), env);
  }
  env.secrets[name] = { createdAt: env.secrets[name]?.createdAt ?? now, updatedAt: now };
}

/** Gives an installation exactly these permissions (`{checks: "write", metadata: "read"}`), as `GET /repos/{owner}/{repo}/installation` will answer. */
export function setInstallationPermissions(state: FakeState, installationId: number, permissions: Record<string, string>): void {
  const installation = state.installations.get(installationId);
  if (installation === undefined) throw new Error(`fake-github: no installation ${installationId}`);
  installation.permissions = { ...permissions };
}
