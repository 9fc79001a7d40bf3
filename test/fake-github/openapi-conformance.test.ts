/** Every route's responses match GitHub's OpenAPI description (the committed trimmed copy). */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { restRoutes } from "./all-routes.js";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { routeKey } from "./route.js";
import { createResponseValidator } from "./openapi/create-response-validator.js";
import { createTestOctokit } from "./test-octokit.js";

describe("responses conform to GitHub's OpenAPI description", () => {
  let fake: FakeGitHub;
  const validator = createResponseValidator();
  const repo = { owner: "acme", repo: "app" };
  beforeAll(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app", files: { ".github/bosun.yml": "a: 1\n", "briefs/x.yml": "id: x\n" } });
    fake.addInstallation({ id: 9, appId: 3, appSlug: "bosun", repos: ["acme/app"] });
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
    fake.addToken("t-bot", "bosun[bot]");
    fake.addToken("t-reviewer", "rex", { permissions: { "acme/app": "write" } });
    fake.addToken("t-admin", "acme");
  });
  afterAll(async () => {
    await fake.close();
  });

  test("the trimmed spec describes every REST route the fake serves", () => {
    // `restRoutes` leaves out `POST /graphql`: GraphQL is not a REST path, so GitHub's OpenAPI
    // description has no operation for it (its shapes come from the GraphQL schema instead).
    expect(restRoutes.map(routeKey).filter((k) => !validator.knows(k))).toEqual([]);
  });

  test("a tour of every route through Octokit produces no schema violation", async () => {
    const o = createTestOctokit(fake.url, "t");
    const bot = createTestOctokit(fake.url, "t-bot");
    const reviewer = createTestOctokit(fake.url, "t-reviewer");
    for (const client of [o, bot, reviewer]) validator.attach(client);
    const main = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
    await o.repos.get(repo);
    await o.repos.getCollaboratorPermissionLevel({ ...repo, username: "mona" });
    // A repository's installation answers only the App itself (a JWT; the fake reads its `iss`).
    const jwt = ["{}", JSON.stringify({ iss: "3" }), "sig"].map((p) => Buffer.from(p).toString("base64url")).join(".");
    const app = createTestOctokit(fake.url, jwt);
    validator.attach(app);
    await app.apps.getRepoInstallation(repo);
    // Anyone else is refused as GitHub refuses a non-JWT on its app endpoints (its description lists no 401 here).
    await expect(createTestOctokit(fake.url, "t").apps.getRepoInstallation(repo)).rejects.toMatchObject({ status: 401, message: expect.stringContaining("JSON web token") });
    const { data: issue } = await o.issues.create({ ...repo, title: "t", body: "b", labels: ["bosun:ready"], assignees: ["mona"] });
    await o.issues.get({ ...repo, issue_number: issue.number });
    await o.issues.listForRepo({ ...repo, labels: "bosun:ready" });
    await o.issues.update({ ...repo, issue_number: issue.number, state: "closed", state_reason: "completed" });
    await o.issues.addAssignees({ ...repo, issue_number: issue.number, assignees: ["rex"] });
    await o.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["P1"] });
    await o.issues.setLabels({ ...repo, issue_number: issue.number, labels: ["P1", "bosun:queued"] });
    await o.issues.removeLabel({ ...repo, issue_number: issue.number, name: "P1" });
    // Who added and removed which label: created with bosun:ready, P1 added, set, removed.
    const { data: events } = await o.issues.listEvents({ ...repo, issue_number: issue.number });
    expect(events.map((e) => `${e.event} ${"label" in e ? e.label?.name : ""} by ${e.actor?.login}`)).toEqual(["labeled bosun:ready by mona", "labeled P1 by mona", "labeled bosun:queued by mona", "unlabeled bosun:ready by mona", "unlabeled P1 by mona"]);
    await o.issues.listLabelsOnIssue({ ...repo, issue_number: issue.number });
    await o.issues.listEvents({ ...repo, issue_number: issue.number });
    // The repository's list: newest first, each with its issue.
    const { data: repoEvents } = await o.issues.listEventsForRepo(repo);
    expect(repoEvents.slice(0, 2).map((e) => `${e.event} ${e.label?.name ?? ""} #${e.issue?.number ?? "?"}`)).toEqual([`unlabeled P1 #${issue.number}`, `unlabeled bosun:ready #${issue.number}`]);
    await o.issues.createLabel({ ...repo, name: "pool/default", color: "123456", description: "pool" });
    await o.issues.getLabel({ ...repo, name: "pool/default" });
    await o.issues.listLabelsForRepo(repo);
    const { data: comment } = await o.issues.createComment({ ...repo, issue_number: issue.number, body: "c" });
    await o.issues.listComments({ ...repo, issue_number: issue.number });
    await o.issues.getComment({ ...repo, comment_id: comment.id });
    await o.issues.updateComment({ ...repo, comment_id: comment.id, body: "c2" });
    await o.issues.deleteComment({ ...repo, comment_id: comment.id });
    const { data: commit } = await o.git.createCommit({ ...repo, message: "claim", tree: (await o.git.getCommit({ ...repo, commit_sha: main })).data.tree.sha, parents: [main] });
    const { data: tree } = await o.git.createTree({ ...repo, base_tree: commit.tree.sha, tree: [{ path: "src/new.ts", mode: "100644", type: "blob", content: "x\n" }] });
    await o.git.createTree({ ...repo, base_tree: tree.sha, tree: [{ path: "src/new.ts", mode: "100644", type: "blob", sha: null }] });
    await o.git.createRef({ ...repo, ref: "refs/bosun/claims/1", sha: main });
    await o.git.updateRef({ ...repo, ref: "bosun/claims/1", sha: commit.sha, force: false });
    await o.git.getRef({ ...repo, ref: "bosun/claims/1" });
    await o.git.listMatchingRefs({ ...repo, ref: "bosun/claims" });
    await o.git.deleteRef({ ...repo, ref: "bosun/claims/1" });
    await o.repos.getCommit({ ...repo, ref: main });
    await o.repos.getContent({ ...repo, path: ".github/bosun.yml", ref: "main" });
    await o.repos.getContent({ ...repo, path: "briefs", ref: main });
    const pull = fake.addPull("acme/app", { user: "mona", files: [{ filename: "a.ts", status: "modified", additions: 1, deletions: 1, patch: "@@" }] });
    await o.git.createRef({ ...repo, ref: "refs/heads/topic", sha: commit.sha });
    const { data: opened } = await o.pulls.create({ ...repo, head: "topic", base: "main", title: "p" });
    await o.pulls.update({ ...repo, pull_number: opened.number, state: "closed", title: "p2" });
    await o.repos.listActivities({ ...repo, ref: "refs/heads/topic", per_page: 1 });
    await o.issues.listEvents({ ...repo, issue_number: opened.number });
    await o.pulls.get({ ...repo, pull_number: pull.number });
    await o.pulls.list({ ...repo, state: "all" });
    await o.pulls.listFiles({ ...repo, pull_number: pull.number });
    await o.pulls.listCommits({ ...repo, pull_number: pull.number });
    await reviewer.pulls.createReview({ ...repo, pull_number: pull.number, event: "APPROVE" });
    await o.pulls.listReviews({ ...repo, pull_number: pull.number });
    const { data: run } = await bot.checks.create({ ...repo, name: "gate", head_sha: pull.headSha, output: { title: "t", summary: "s", annotations: [{ path: "a.ts", start_line: 1, end_line: 1, annotation_level: "failure", message: "m" }] } });
    await bot.checks.update({ ...repo, check_run_id: run.id, conclusion: "success" });
    await o.checks.get({ ...repo, check_run_id: run.id });
    await o.checks.listForRef({ ...repo, ref: pull.headSha });
    await o.repos.createCommitStatus({ ...repo, sha: pull.headSha, state: "success", context: "bosun/separation", target_url: "https://example.com/x", description: "ok" });
    await o.repos.listCommitStatusesForRef({ ...repo, ref: pull.headSha });
    await o.repos.getCombinedStatusForRef({ ...repo, ref: pull.headSha });
    const { data: deployment } = await o.repos.createDeployment({ ...repo, ref: "main", environment: "production", auto_merge: false, required_contexts: [] });
    const deploymentId = (deployment as { id: number }).id;
    await o.repos.createDeploymentStatus({ ...repo, deployment_id: deploymentId, state: "success", environment_url: "https://example.com", log_url: "https://example.com/log" });
    await o.repos.listDeploymentStatuses({ ...repo, deployment_id: deploymentId });
    await o.repos.getDeployment({ ...repo, deployment_id: deploymentId });
    await o.repos.listDeployments(repo);
    const workflowId = fake.addWorkflow("acme/app", { path: ".github/workflows/worker.yml", name: "worker" });
    await o.actions.listRepoWorkflows(repo);
    await o.actions.getWorkflow({ ...repo, workflow_id: "worker.yml" });
    await o.actions.createWorkflowDispatch({ ...repo, workflow_id: workflowId, ref: "main", inputs: { item: "42" } });
    const dispatched = await o.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { ...repo, workflow_id: workflowId, ref: "main", return_run_details: true });
    const runId = (dispatched.data as unknown as { workflow_run_id: number }).workflow_run_id;
    const second = await o.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { ...repo, workflow_id: workflowId, ref: "main", return_run_details: true });
    const secondId = (second.data as unknown as { workflow_run_id: number }).workflow_run_id;
    expect((await o.actions.cancelWorkflowRun({ ...repo, run_id: secondId })).status).toBe(202);
    expect(fake.repo("acme/app").workflowRuns.get(secondId)).toMatchObject({ status: "completed", conclusion: "cancelled" });
    // A completed run cannot be cancelled: 409, GitHub's conflict shape.
    await expect(o.actions.cancelWorkflowRun({ ...repo, run_id: secondId })).rejects.toMatchObject({ status: 409 });
    fake.completeWorkflowRun("acme/app", runId, "success");
    await o.actions.getWorkflowRun({ ...repo, run_id: runId });
    await o.actions.listWorkflowRunsForRepo(repo);
    await o.actions.listWorkflowRuns({ ...repo, workflow_id: workflowId });
    // A re-run keeps the run (id, actor) and adds an attempt by whoever asked; the attempt before it stays readable.
    const rerunner = reviewer;
    await expect(rerunner.actions.reRunWorkflow({ ...repo, run_id: runId })).resolves.toMatchObject({ status: 201 });
    const rerun = (await o.actions.getWorkflowRun({ ...repo, run_id: runId })).data;
    expect([rerun.run_attempt, rerun.status, rerun.conclusion, rerun.actor?.login, rerun.triggering_actor?.login]).toEqual([2, "queued", null, "mona", "rex"]);
    const first = (await o.actions.getWorkflowRunAttempt({ ...repo, run_id: runId, attempt_number: 1 })).data;
    expect([first.run_attempt, first.status, first.conclusion, first.triggering_actor?.login]).toEqual([1, "completed", "success", "mona"]);
    await expect(o.actions.getWorkflowRunAttempt({ ...repo, run_id: runId, attempt_number: 3 })).rejects.toMatchObject({ status: 404 });
    fake.completeWorkflowRun("acme/app", runId, "failure");
    await o.actions.reRunWorkflowFailedJobs({ ...repo, run_id: runId });
    // Branch protection, rulesets and environments, as an admin sets them up and anyone reads them.
    const admin = createTestOctokit(fake.url, "t-admin");
    validator.attach(admin);
    await admin.repos.updateBranchProtection({ ...repo, branch: "main", required_status_checks: { strict: true, contexts: [], checks: [{ context: "bosun/gate", app_id: 3 }, { context: "ci" }] }, enforce_admins: true, required_pull_request_reviews: { required_approving_review_count: 1 }, restrictions: null });
    await admin.repos.getBranchProtection({ ...repo, branch: "main" });
    await o.repos.getBranch({ ...repo, branch: "main" });
    await admin.repos.deleteBranchProtection({ ...repo, branch: "main" });
    await expect(admin.repos.getBranchProtection({ ...repo, branch: "main" })).rejects.toMatchObject({ status: 404 });
    const { data: ruleset } = await admin.repos.createRepoRuleset({ ...repo, name: "bosun", enforcement: "active", target: "branch", conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } }, rules: [{ type: "required_status_checks", parameters: { strict_required_status_checks_policy: true, required_status_checks: [{ context: "bosun/gate", integration_id: 3 }] } }, { type: "deletion" }] });
    await o.repos.getRepoRulesets(repo);
    await o.repos.getRepoRuleset({ ...repo, ruleset_id: ruleset.id });
    await o.repos.getBranchRules({ ...repo, branch: "main" });
    await admin.repos.updateRepoRuleset({ ...repo, ruleset_id: ruleset.id, enforcement: "evaluate" });
    await admin.repos.deleteRepoRuleset({ ...repo, ruleset_id: ruleset.id });
    await admin.repos.createOrUpdateEnvironment({ ...repo, environment_name: "bosun", deployment_branch_policy: { protected_branches: false, custom_branch_policies: true } });
    await admin.repos.createDeploymentBranchPolicy({ ...repo, environment_name: "bosun", name: "main", type: "branch" });
    await o.repos.listDeploymentBranchPolicies({ ...repo, environment_name: "bosun" });
    await o.repos.getEnvironment({ ...repo, environment_name: "bosun" });
    await o.repos.getAllEnvironments(repo);
    await o.actions.listEnvironmentSecrets({ ...repo, environment_name: "bosun" });
    // Errors carry GitHub's shapes too.
    await o.issues.get({ ...repo, issue_number: 9999 }).catch(() => undefined);
    await o.git.createRef({ ...repo, ref: "refs/heads/main", sha: main }).catch(() => undefined);
    expect(validator.violations).toEqual([]);
    expect(validator.checked).toBeGreaterThan(55);
  });
});
