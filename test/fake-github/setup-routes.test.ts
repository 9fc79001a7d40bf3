/** Branch protection, rulesets, environments and the installation's permissions, as GitHub answers them, and `requiredChecksFor`. */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { requiredChecksFor } from "./required-checks.js";
import { setEnvironmentSecret, setInstallationPermissions } from "./seed-setup.js";
import { createTestOctokit } from "./test-octokit.js";

const repo = { owner: "acme", repo: "app" };
const status = (p: Promise<{ status: number }>) => p.then((r) => r.status, (e: { status: number }) => e.status);
const jwtFor = (appId: number) => ["{}", JSON.stringify({ iss: String(appId) }), "sig"].map((p) => Buffer.from(p).toString("base64url")).join(".");

describe("the fake's setup routes", () => {
  let fake: FakeGitHub;
  beforeEach(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addToken("t-admin", "acme");
    fake.addToken("t-write", "wren", { permissions: { "acme/app": "write" } });
    fake.addToken("t-read", "reed", { permissions: { "acme/app": "read" } });
  });
  afterEach(async () => fake.close());

  test("classic protection: app_id kept, -1 is any source, omitted picks the App that last posted the check, and the branch shows it to readers", async () => {
    fake.addInstallation({ id: 7, appId: 42, appSlug: "bosun", repos: ["acme/app"] });
    fake.addToken("t-bot", "bosun[bot]", { permissions: { "acme/app": "write" } });
    fake.state.tokens.set("t-bot", { kind: "bot", login: "bosun[bot]", installationId: 7 });
    const head = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
    await createTestOctokit(fake.url, "t-bot").checks.create({ ...repo, name: "bosun/separation", head_sha: head });
    const admin = createTestOctokit(fake.url, "t-admin");
    await admin.repos.updateBranchProtection({ ...repo, branch: "main", required_status_checks: { strict: true, contexts: [], checks: [{ context: "bosun/gate", app_id: 42 }, { context: "ci", app_id: -1 }, { context: "bosun/separation" }, { context: "lint" }] }, enforce_admins: false, required_pull_request_reviews: null, restrictions: null });
    expect(requiredChecksFor(fake.state, "acme/app", "main")).toEqual([
      { context: "bosun/gate", appId: 42 },
      { context: "ci", appId: null },
      { context: "bosun/separation", appId: 42 },
      { context: "lint", appId: null },
    ]);
    const { data: branch } = await createTestOctokit(fake.url, "t-read").repos.getBranch({ ...repo, branch: "main" });
    expect(branch.protected).toBe(true);
    expect(branch.protection.required_status_checks?.checks).toEqual([
      { context: "bosun/gate", app_id: 42 },
      { context: "ci", app_id: null },
      { context: "bosun/separation", app_id: 42 },
      { context: "lint", app_id: null },
    ]);
    // A writer can neither read the full protection nor change it; another branch is not protected.
    const writer = createTestOctokit(fake.url, "t-write");
    expect(await status(writer.repos.getBranchProtection({ ...repo, branch: "main" }))).toBe(403);
    expect(await status(writer.repos.deleteBranchProtection({ ...repo, branch: "main" }))).toBe(403);
    expect(requiredChecksFor(fake.state, "acme/app", "other")).toEqual([]);
    expect(await status(admin.repos.updateBranchProtection({ ...repo, branch: "nope", required_status_checks: null, enforce_admins: null, required_pull_request_reviews: null, restrictions: null }))).toBe(404);
    // PUT wants all four top-level keys, as GitHub does.
    expect(await status(admin.request("PUT /repos/{owner}/{repo}/branches/{branch}/protection", { ...repo, branch: "main", required_status_checks: null } as never))).toBe(422);
    await admin.repos.deleteBranchProtection({ ...repo, branch: "main" });
    expect(requiredChecksFor(fake.state, "acme/app", "main")).toEqual([]);
    expect((await admin.repos.getBranch({ ...repo, branch: "main" })).data.protected).toBe(false);
  });

  test("rulesets: only active ones require anything, on the branches their conditions name; evaluate and disabled ones are listed but not applied", async () => {
    const admin = createTestOctokit(fake.url, "t-admin");
    const rule = (context: string, integration_id?: number) => ({ type: "required_status_checks" as const, parameters: { strict_required_status_checks_policy: true, required_status_checks: [{ context, ...(integration_id === undefined ? {} : { integration_id }) }] } });
    const create = (name: string, enforcement: "active" | "evaluate" | "disabled", include: string[], exclude: string[], rules: ReturnType<typeof rule>[]) =>
      admin.repos.createRepoRuleset({ ...repo, name, enforcement, target: "branch", conditions: { ref_name: { include, exclude } }, rules });
    await create("default", "active", ["~DEFAULT_BRANCH"], [], [rule("bosun/gate", 42)]);
    await create("dry run", "evaluate", ["~ALL"], [], [rule("bosun/separation", 42)]);
    await create("off", "disabled", ["~ALL"], [], [rule("off-check")]);
    await create("releases", "active", ["refs/heads/release/*"], ["refs/heads/release/old"], [rule("release-check")]);
    await create("deep", "active", ["refs/heads/team/**"], [], [rule("deep-check")]);
    expect(requiredChecksFor(fake.state, "acme/app", "main")).toEqual([{ context: "bosun/gate", appId: 42 }]);
    expect(requiredChecksFor(fake.state, "acme/app", "release/1")).toEqual([{ context: "release-check", appId: null }]);
    expect(requiredChecksFor(fake.state, "acme/app", "release/old")).toEqual([]);
    expect(requiredChecksFor(fake.state, "acme/app", "release/1/x")).toEqual([]); // `*` stops at `/`
    expect(requiredChecksFor(fake.state, "acme/app", "team/a/b")).toEqual([{ context: "deep-check", appId: null }]);
    const reader = createTestOctokit(fake.url, "t-read");
    const { data: rules } = await reader.repos.getBranchRules({ ...repo, branch: "main" });
    expect(rules.map((r) => [r.type, "parameters" in r ? r.parameters : undefined])).toEqual([["required_status_checks", { strict_required_status_checks_policy: true, required_status_checks: [{ context: "bosun/gate", integration_id: 42 }] }]]);
    const { data: all } = await reader.repos.getRepoRulesets(repo);
    expect(all.map((r) => `${r.name}:${r.enforcement}`)).toEqual(["default:active", "dry run:evaluate", "off:disabled", "releases:active", "deep:active"]);
    // A reader sees a ruleset but not who may bypass it.
    const { data: one } = await reader.repos.getRepoRuleset({ ...repo, ruleset_id: all[0]?.id ?? 0 });
    expect(one).not.toHaveProperty("bypass_actors");
    expect(await status(createTestOctokit(fake.url, "t-write").repos.createRepoRuleset({ ...repo, name: "x", enforcement: "active" }))).toBe(403);
    expect(await status(admin.request("POST /repos/{owner}/{repo}/rulesets", { ...repo, name: "bad", enforcement: "on" } as never))).toBe(422);
    // Turning the dry run on makes its check required.
    await admin.repos.updateRepoRuleset({ ...repo, ruleset_id: all[1]?.id ?? 0, enforcement: "active" });
    expect(requiredChecksFor(fake.state, "acme/app", "main")).toEqual([{ context: "bosun/gate", appId: 42 }, { context: "bosun/separation", appId: 42 }]);
  });

  test("environments: branch policies as GitHub validates them, and secret names for writers and for Apps with the secrets permission only", async () => {
    const admin = createTestOctokit(fake.url, "t-admin");
    const { data: created } = await admin.repos.createOrUpdateEnvironment({ ...repo, environment_name: "bosun" });
    expect(created.deployment_branch_policy).toBeNull(); // open to every branch until limited
    expect(await status(admin.repos.createOrUpdateEnvironment({ ...repo, environment_name: "bosun", deployment_branch_policy: { protected_branches: true, custom_branch_policies: true } }))).toBe(422);
    expect(await status(admin.repos.createDeploymentBranchPolicy({ ...repo, environment_name: "bosun", name: "main" }))).toBe(404); // not custom yet
    await admin.repos.createOrUpdateEnvironment({ ...repo, environment_name: "bosun", deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } });
    await admin.repos.createDeploymentBranchPolicy({ ...repo, environment_name: "bosun", name: "main", type: "branch" });
    await admin.repos.createDeploymentBranchPolicy({ ...repo, environment_name: "bosun", name: "v*", type: "tag" });
    const reader = createTestOctokit(fake.url, "t-read");
    expect((await reader.repos.listDeploymentBranchPolicies({ ...repo, environment_name: "bosun" })).data.branch_policies.map((p) => `${p.type}:${p.name}`)).toEqual(["branch:main", "tag:v*"]);
    expect((await reader.repos.getEnvironment({ ...repo, environment_name: "BOSUN" })).data.deployment_branch_policy).toEqual({ protected_branches: false, custom_branch_policies: true });
    expect(await status(reader.repos.getEnvironment({ ...repo, environment_name: "nope" }))).toBe(404);
    expect(await status(createTestOctokit(fake.url, "t-write").repos.createOrUpdateEnvironment({ ...repo, environment_name: "x" }))).toBe(403);

    setEnvironmentSecret(fake.state, "acme/app", "bosun", "BOSUN_APP_KEY");
    expect((await createTestOctokit(fake.url, "t-write").actions.listEnvironmentSecrets({ ...repo, environment_name: "bosun" })).data.secrets.map((s) => s.name)).toEqual(["BOSUN_APP_KEY"]);
    expect(await status(reader.actions.listEnvironmentSecrets({ ...repo, environment_name: "bosun" }))).toBe(403);
    fake.addInstallation({ id: 7, appId: 42, appSlug: "bosun", repos: ["acme/app"] });
    fake.state.tokens.set("t-bot", { kind: "bot", login: "bosun[bot]", installationId: 7 });
    const bot = createTestOctokit(fake.url, "t-bot");
    expect(await status(bot.actions.listEnvironmentSecrets({ ...repo, environment_name: "bosun" }))).toBe(403);
    setInstallationPermissions(fake.state, 7, { secrets: "read", metadata: "read" });
    expect(await status(bot.actions.listEnvironmentSecrets({ ...repo, environment_name: "bosun" }))).toBe(200);
  });

  test("a repository's installation answers only its App's JWT, with the installation's permissions", async () => {
    fake.addInstallation({ id: 7, appId: 42, appSlug: "bosun", repos: ["acme/app"] });
    setInstallationPermissions(fake.state, 7, { checks: "write", metadata: "read" });
    const { data } = await createTestOctokit(fake.url, jwtFor(42)).apps.getRepoInstallation(repo);
    expect(data).toMatchObject({ id: 7, app_id: 42, permissions: { checks: "write", metadata: "read" } });
    expect(await status(createTestOctokit(fake.url, jwtFor(43)).apps.getRepoInstallation(repo))).toBe(404);
    expect(await status(createTestOctokit(fake.url, "t-admin").apps.getRepoInstallation(repo))).toBe(401);
  });
});
