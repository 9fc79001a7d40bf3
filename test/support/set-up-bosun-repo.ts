/**
 * A repository set up as docs/security.md ("Set it up") says, through the fake's REST API as an
 * admin would: the files `bosun init` writes, the labels, the App installed with app.yml's
 * permissions, environment `bosun` for the default branch only with its two secrets, and a
 * ruleset requiring bosun/gate and bosun/separation from the App.
 */
import { labelNamesOf } from "../../src/core/setup/check-labels.js";
import { DEFAULT_CONFIG } from "../../src/core/config/bosun-config.js";
import { initFiles } from "../../src/core/setup/init-files.js";
import { APP_PERMISSIONS } from "../../src/core/setup/setup-templates.js";
import type { FakeGitHub } from "../fake-github/create-fake-github.js";
import { setEnvironmentSecret, setInstallationPermissions } from "../fake-github/seed-setup.js";
import { createTestOctokit } from "../fake-github/test-octokit.js";

export interface SetUpOptions {
  readonly fullName: string;
  readonly appId: number;
  readonly installationId: number;
  /** A token of the repository's owner (admin). */
  readonly adminToken: string;
  /** The repository and the installation exist already (an app harness's): commit the files on top instead. */
  readonly existing?: boolean;
}

export async function setUpBosunRepo(fake: FakeGitHub, options: SetUpOptions): Promise<void> {
  const files = Object.fromEntries(initFiles({ agent: "claude-code", actionOnly: false, verify: false }).map((f) => [f.path, f.content]));
  if (options.existing === true) fake.commit(options.fullName, fake.repo(options.fullName).defaultBranch, "bosun init", files);
  else {
    fake.addRepo({ fullName: options.fullName, files });
    fake.addInstallation({ id: options.installationId, appId: options.appId, appSlug: "bosun", repos: [options.fullName] });
  }
  setInstallationPermissions(fake.state, options.installationId, { ...APP_PERMISSIONS });
  const [owner = "", repo = ""] = options.fullName.split("/");
  const where = { owner, repo };
  const admin = createTestOctokit(fake.url, options.adminToken);
  for (const name of labelNamesOf(DEFAULT_CONFIG)) await admin.issues.createLabel({ ...where, name });
  await admin.repos.createOrUpdateEnvironment({ ...where, environment_name: "bosun", deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } });
  await admin.repos.createDeploymentBranchPolicy({ ...where, environment_name: "bosun", name: "main", type: "branch" });
  setEnvironmentSecret(fake.state, options.fullName, "bosun", "BOSUN_APP_CLIENT_ID");
  setEnvironmentSecret(fake.state, options.fullName, "bosun", "BOSUN_APP_KEY");
  await admin.repos.createRepoRuleset({
    ...where,
    name: "bosun",
    enforcement: "active",
    target: "branch",
    conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    rules: [
      { type: "deletion" },
      { type: "non_fast_forward" },
      { type: "pull_request", parameters: { required_approving_review_count: 1, dismiss_stale_reviews_on_push: true, require_code_owner_review: false, require_last_push_approval: true, required_review_thread_resolution: false } },
      { type: "required_status_checks", parameters: { strict_required_status_checks_policy: true, required_status_checks: [{ context: "bosun/gate", integration_id: options.appId }, { context: "bosun/separation", integration_id: options.appId }] } },
    ],
  });
}
