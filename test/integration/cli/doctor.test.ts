/**
 * `bosun doctor` against the fake GitHub: a repository set up as the docs say passes; each
 * misconfiguration planted through the API (as an admin or a pull request would make it) fails,
 * naming its check; a read the token may not make is could-not-check, never ok.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { setupOf } from "../../fake-github/setup-records.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { runBosun } from "../../support/run-bosun.js";
import { setUpBosunRepo } from "../../support/set-up-bosun-repo.js";

const REPO = "acme/app";
const where = { owner: "acme", repo: "app" };
const APP_ID = 42;
const keyDir = mkdtempSync(join(tmpdir(), "bosun-doctor-"));
const KEY = join(keyDir, "app.pem");
writeFileSync(KEY, generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } }).privateKey);

interface Finding { check: string; status: string; subject?: string; message: string; fix?: string }
interface Report { repo: string; ok: boolean; checks: Finding[]; problems: Finding[]; could_not_check: Finding[] }

describe("bosun doctor", () => {
  let fake: FakeGitHub;
  beforeEach(async () => {
    fake = await createFakeGitHub();
    fake.addToken("t-admin", "acme");
    await setUpBosunRepo(fake, { fullName: REPO, appId: APP_ID, installationId: 501, adminToken: "t-admin" });
    fake.addToken("t-read", "reed", { permissions: { [REPO]: "read" } });
    fake.accounting.reset();
  });
  afterEach(async () => fake.close());

  /** In-process, through the CLI's own entry (argv, env, exit code). */
  async function doctor(args: string[] = ["--app-id", String(APP_ID), "--app-key", KEY], token = "t-admin"): Promise<{ code: number; out: string; err: string; report: Report }> {
    const out: string[] = [];
    const err: string[] = [];
    const sink = (to: string[]) => new Writable({ write: (c: Buffer | string, _e, cb) => (to.push(String(c)), cb()) });
    const code = await main(["doctor", "--repo", REPO, "--json", ...args], { stdout: sink(out), stderr: sink(err), stdin: new PassThrough(), env: { GH_TOKEN: token, GITHUB_API_URL: fake.url }, cwd: keyDir });
    return { code, out: out.join(""), err: err.join(""), report: JSON.parse(out.join("") || "{}") as Report };
  }
  const admin = () => createTestOctokit(fake.url, "t-admin");
  const problemChecks = (r: Report) => [...new Set(r.problems.map((p) => p.check))];

  it("a repository set up as the docs say passes every check, and exits 0 (as a process, with the text report)", async () => {
    const run = await runBosun(["doctor", "--repo", REPO, "--app-id", String(APP_ID), "--app-key", KEY], { cwd: keyDir, env: { GH_TOKEN: "t-admin", GITHUB_API_URL: fake.url } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Every check holds");
    for (const check of ["app-installed", "app-permissions", "config", "labels", "workflows", "environment", "environment-secrets", "required-checks"]) expect(run.stdout).toMatch(new RegExp(`^ok +${check} `, "m"));
    // Doctor only reads.
    expect(fake.accounting.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("a check required with no source App fails, naming required-checks", async () => {
    const [ruleset] = setupOf(fake.repo(REPO)).rulesets.values();
    await admin().repos.updateRepoRuleset({ ...where, ruleset_id: ruleset?.id ?? 0, rules: [{ type: "required_status_checks", parameters: { strict_required_status_checks_policy: true, required_status_checks: [{ context: "bosun/gate" }, { context: "bosun/separation", integration_id: APP_ID }] } }] });
    const { code, report } = await doctor();
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([expect.objectContaining({ check: "required-checks", subject: "bosun/gate", message: expect.stringContaining("requires bosun/gate from any source") })]);
  });

  it("no required check at all (the ruleset deleted) fails, naming required-checks twice", async () => {
    const [ruleset] = setupOf(fake.repo(REPO)).rulesets.values();
    await admin().repos.deleteRepoRuleset({ ...where, ruleset_id: ruleset?.id ?? 0 });
    const { code, report } = await doctor();
    expect(code).toBe(1);
    expect(report.problems.map((p) => `${p.check} ${p.subject ?? ""}`)).toEqual(["required-checks bosun/gate", "required-checks bosun/separation"]);
  });

  it("classic branch protection binding both checks to the App passes; with `contexts` only (any source) it fails", async () => {
    const [ruleset] = setupOf(fake.repo(REPO)).rulesets.values();
    await admin().repos.deleteRepoRuleset({ ...where, ruleset_id: ruleset?.id ?? 0 });
    const protect = (checks: Array<{ context: string; app_id?: number }>) => admin().repos.updateBranchProtection({ ...where, branch: "main", required_status_checks: { strict: true, contexts: [], checks }, enforce_admins: true, required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: null });
    await protect([{ context: "bosun/gate", app_id: APP_ID }, { context: "bosun/separation", app_id: APP_ID }]);
    expect((await doctor()).code).toBe(0);
    await protect([{ context: "bosun/gate", app_id: -1 }, { context: "bosun/separation", app_id: -1 }]);
    const { report } = await doctor();
    expect(problemChecks(report)).toEqual(["required-checks"]);
    expect(report.problems.map((p) => p.message)).toEqual(["main requires bosun/gate from any source: any workflow a pull request edits can post it", "main requires bosun/separation from any source: any workflow a pull request edits can post it"]);
  });

  it("an environment open to every branch fails, naming environment", async () => {
    await admin().repos.createOrUpdateEnvironment({ ...where, environment_name: "bosun", deployment_branch_policy: null });
    const { code, report } = await doctor();
    expect(code).toBe(1);
    expect(report.problems).toEqual([expect.objectContaining({ check: "environment", message: expect.stringContaining("may be deployed from any branch") })]);
  });

  it("an environment that lets an unprotected branch deploy fails; the same branch once protected passes", async () => {
    fake.commit(REPO, "main", "x");
    fake.setRef(REPO, "release", fake.repo(REPO).refs.get("refs/heads/main") ?? "");
    await admin().repos.createDeploymentBranchPolicy({ ...where, environment_name: "bosun", name: "release", type: "branch" });
    expect((await doctor()).report.problems).toEqual([expect.objectContaining({ check: "environment", message: expect.stringContaining("branch 'release', which is not protected") })]);
    await admin().repos.updateBranchProtection({ ...where, branch: "release", required_status_checks: null, enforce_admins: true, required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: null });
    expect((await doctor()).code).toBe(0);
  });

  it("a gate workflow changed to run the pull request's code with the App's key fails, naming workflows and the file", async () => {
    const gate = fake.repo(REPO);
    const text = [...(gate.trees.get(gate.commits.get(gate.refs.get("refs/heads/main") ?? "")?.tree ?? "")?.entries() ?? [])].find(([p]) => p === ".github/workflows/bosun-gate.yml")?.[1] ?? "";
    const edited = text.replace("      - id: gate\n", "      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1\n        with:\n          ref: ${{ github.event.workflow_run.head_sha }}\n      - run: npm ci && npm test\n      - id: gate\n");
    expect(edited).not.toBe(text);
    fake.setFile(REPO, "main", ".github/workflows/bosun-gate.yml", edited);
    const { code, report } = await doctor();
    expect(code).toBe(1);
    expect(problemChecks(report)).toEqual(["workflows"]);
    expect(report.problems.every((p) => p.subject === ".github/workflows/bosun-gate.yml")).toBe(true);
    expect(report.problems.map((p) => p.message).join("\n")).toMatch(/checks out \$\{\{ github\.event\.workflow_run\.head_sha \}\}.*credentials/);
  });

  it("an invalid config fails, naming config and the field", async () => {
    fake.setFile(REPO, "main", ".github/bosun.yml", "pools: { default: { size: 2, dispatch: { kind: email } } }\n");
    const { code, report } = await doctor();
    expect(code).toBe(1);
    expect(problemChecks(report)).toContain("config");
    expect(report.problems.find((p) => p.check === "config")?.message).toMatch(/invalid: pools\.default\.dispatch/);
  });

  it("missing labels, a missing App permission and a missing environment secret each fail, naming their check", async () => {
    fake.repo(REPO).labels.delete("bosun:ready");
    const installation = fake.state.installations.get(501);
    if (installation?.permissions !== undefined) installation.permissions = { ...installation.permissions, checks: "read" };
    delete setupOf(fake.repo(REPO)).environments.get("bosun")?.secrets["BOSUN_APP_KEY"];
    const { report } = await doctor();
    expect(problemChecks(report).sort()).toEqual(["app-permissions", "environment-secrets", "labels"]);
    expect(report.problems.find((p) => p.check === "app-permissions")?.message).toContain("checks: write (has read)");
  });

  it("the App not installed on the repository fails, naming app-installed", async () => {
    const installation = fake.state.installations.get(501);
    if (installation !== undefined) installation.repos = [];
    const { report } = await doctor();
    expect(report.problems).toEqual([expect.objectContaining({ check: "app-installed", message: "the App is not installed on acme/app" })]);
  });

  it("without the App's key the installation is could-not-check (GitHub shows it only to the App), and with a reader's token so are the secrets: exit 1, never ok", async () => {
    const noKey = await doctor(["--app-id", String(APP_ID)]);
    expect(noKey.code).toBe(1);
    expect(noKey.report.problems).toEqual([]);
    expect(noKey.report.could_not_check.map((f) => f.check)).toEqual(["app-installed", "app-permissions"]);
    expect(noKey.report.could_not_check[0]?.message).toMatch(/HTTP 401/);
    expect(noKey.report.could_not_check[0]?.fix).toMatch(/--app-id, --app-key/);
    // The sources are still judged against the App id given.
    expect(noKey.report.checks.filter((f) => f.check === "required-checks").map((f) => f.status)).toEqual(["ok", "ok"]);

    const reader = await doctor(undefined, "t-read");
    expect(reader.code).toBe(1);
    expect(reader.report.could_not_check.map((f) => f.check)).toEqual(["environment-secrets"]);
    expect(reader.report.could_not_check[0]?.message).toMatch(/HTTP 403/);
  });

  it("usage: --repo is required, an App key needs an App id, and a repository the token cannot see is exit 1", async () => {
    const missing = await runBosun(["doctor"], { cwd: keyDir, env: { GITHUB_API_URL: fake.url } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^bosun doctor: --repo OWNER\/NAME is required/);
    const keyOnly = await runBosun(["doctor", "--repo", REPO, "--app-key", KEY], { cwd: keyDir, env: { GITHUB_API_URL: fake.url, BOSUN_APP_ID: "" } });
    expect(keyOnly.code).toBe(2);
    expect(keyOnly.stderr).toContain("the App's key needs its id too");
    const unseen = await doctor(["--app-id", String(APP_ID)], "t-read");
    expect(unseen.code).toBe(1);
    fake.addRepo({ fullName: "acme/hidden", private: true });
    const out: string[] = [];
    const err: string[] = [];
    const sink = (to: string[]) => new Writable({ write: (c: Buffer | string, _e, cb) => (to.push(String(c)), cb()) });
    const code = await main(["doctor", "--repo", "acme/hidden"], { stdout: sink(out), stderr: sink(err), stdin: new PassThrough(), env: { GH_TOKEN: "t-read", GITHUB_API_URL: fake.url }, cwd: keyDir });
    expect(code).toBe(1);
    expect(err.join("")).toBe("bosun doctor: cannot read acme/hidden: HTTP 404 (no such repository, or the token cannot see it)\n");
  });
});
