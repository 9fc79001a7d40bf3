/**
 * Attacks on the gate by an agent WITH WRITE ACCESS that has read the docs: it pushes and creates
 * branches and opens, closes and retargets pull requests into any base (separation's are in
 * write-access-separation.test.ts). Each runs the real mode with the real Octokit over HTTP against the fake GitHub and is
 * judged from what the fake recorded (check runs). Each passed before its fix; the
 * legitimate path beside it still passes.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createGateMode } from "../../../src/action/modes/gate.js";
import type { Brief } from "../../../src/core/brief/brief.js";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import type { GateReport } from "../../../src/core/gate/gate-report.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullFileRecord, PullRecord } from "../../fake-github/state.js";
import { startPullRequestRun } from "../../fake-github/pull-request-runs.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { brief } from "../../unit/gate/gate-fixtures.js";
import { memoryActionIo } from "./memory-action-io.js";
import type { TempRepo } from "./temp-repo.js";
import { checkoutOf, grant, writeClaim } from "./trust-fixtures.js";

const REPO = "acme/app";
const WHERE = { owner: "acme", repo: "app" };
const TOKEN = "ghs_writeaccessattacks000000000000000";
let fake: FakeGitHub;
let bot: Octokit;
let mallory: Octokit;
let alice: Octokit;
const checkouts: TempRepo[] = [];
let scratch: string;

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-bosun", "bosun[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-mallory", "mallory", { permissions: { [REPO]: "write" } });
  fake.addToken("t-alice", "alice", { permissions: { [REPO]: "write" } });
  bot = createTestOctokit(fake.url, "t-bosun");
  mallory = createTestOctokit(fake.url, "t-mallory");
  alice = createTestOctokit(fake.url, "t-alice");
  fake.setPermission(REPO, "maia", "maintain");
  scratch = mkdtempSync(join(tmpdir(), "bosun-write-access-"));
});
afterEach(async () => {
  await fake.close();
  for (const c of checkouts.splice(0)) c.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** A push through the git data API as `who`: one commit with `files` on top of `branch` (created from `from` when missing). */
async function push(who: Octokit, branch: string, files: Record<string, string>, from = "main"): Promise<string> {
  const tip = async (name: string) => (await who.git.getRef({ ...WHERE, ref: `heads/${name}` }).catch(() => undefined))?.data.object.sha;
  let parent = await tip(branch);
  if (parent === undefined) {
    parent = (await tip(from)) ?? "";
    await who.git.createRef({ ...WHERE, ref: `refs/heads/${branch}`, sha: parent });
  }
  const { data: base } = await who.git.getCommit({ ...WHERE, commit_sha: parent });
  const { data: tree } = await who.git.createTree({ ...WHERE, base_tree: base.tree.sha, tree: Object.entries(files).map(([path, content]) => ({ path, mode: "100644" as const, type: "blob" as const, content })) });
  const { data: commit } = await who.git.createCommit({ ...WHERE, message: `push to ${branch}`, tree: tree.sha, parents: [parent] });
  await who.git.updateRef({ ...WHERE, ref: `heads/${branch}`, sha: commit.sha });
  return commit.sha;
}

/** A text file row as the PR's files API lists it. */
const text = (path: string, additions = 1, status: PullFileRecord["status"] = "modified"): PullFileRecord => ({ filename: path, status, additions, deletions: 0, patch: "@@ -1 +1,1 @@\n+x\n" });

/** An item Bosun approved and dispatched: the bot's snapshot and its signed claim record. */
async function dispatchedItem(b: Brief) {
  const issue = fake.addIssue(REPO, { title: `work on ${b.id}`, user: "carol" });
  await bot.issues.createComment({ ...WHERE, issue_number: issue.number, body: renderSnapshotComment(b) });
  await writeClaim(bot, WHERE, issue.number, grant(String(issue.number), { briefHash: briefHash(b) }));
  return issue;
}

/** The agent's PR into main on the item's branch, with a real checkout at its head. */
function agentPull(item: number, files: PullFileRecord[], fields: Parameters<FakeGitHub["addPull"]>[1] = {}): PullRecord {
  const pull = fake.addPull(REPO, { user: "mallory", head: `bosun/${item}-fix`, files, ...fields });
  checkouts.push(checkoutOf(fake, REPO, pull));
  return pull;
}

async function gate(eventName: string, payload: Record<string, unknown>, inputs: Record<string, string> = {}) {
  const io = memoryActionIo({ eventName, payload, inputs: { "github-token": TOKEN, "working-directory": checkouts.at(-1)?.dir ?? ".", ...inputs }, env: { GITHUB_API_URL: fake.url, PATH: process.env["PATH"] } });
  await createGateMode().run(io.io);
  return JSON.parse(io.outputs["report"] ?? "null") as GateReport;
}
const pr = (pull: PullRecord) => ({ pull_request: { number: pull.number, head: { sha: pull.headSha, ref: pull.headRef } } });
const check = (report: GateReport, name: string) => report.checks.find((c) => c.check === name);
/** bosun/gate check runs the fake recorded on a SHA, by conclusion. */
const gateRunsOn = (sha: string) => [...fake.repo(REPO).checkRuns.values()].filter((c) => c.name === "bosun/gate" && c.headSha === sha).map((c) => c.conclusion);


describe("lock files count against size_cap unless they sit beside their manifest, outside the brief's code paths", () => {
  const capped = (paths: string[]) => brief({ id: "capped", constraints: { paths }, size_cap: 20, acceptance: { command: "true" } });

  it("3,000 lines of code in src/lib/yarn.lock plus a one-line loader do not pass a cap of 20", async () => {
    const b = capped(["src/**"]);
    const item = await dispatchedItem(b);
    const pull = agentPull(item.number, [text("src/lib/yarn.lock", 3000, "added"), text("src/http/loader.ts", 1)]);
    const report = await gate("pull_request_target", pr(pull));
    expect(check(report, "size")?.result).toBe("failed");
    expect(check(report, "size")?.evidence).toContain("3001 changed lines");
    expect(report.verdict).toBe("fail");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure"]);
  });

  it("a lock file beside a manifest the PR adds itself still counts: a new package's lock is its author's to write", async () => {
    const b = capped(["src/http/**", "**/package.json", "**/package-lock.json"]);
    const item = await dispatchedItem(b);
    const pull = agentPull(item.number, [text("src/lib/package.json", 3, "added"), text("src/lib/package-lock.json", 3000, "added"), text("src/http/loader.ts", 1)]);
    const report = await gate("pull_request_target", pr(pull));
    expect(check(report, "size")?.result).toBe("failed");
  });

  it("a regenerated package-lock.json beside the package.json of the base, named by the brief, stays out of the count", async () => {
    fake.setFile(REPO, "main", "package.json", "{\"name\": \"app\"}\n");
    const b = capped(["src/http/**", "package.json", "package-lock.json"]);
    const item = await dispatchedItem(b);
    const pull = agentPull(item.number, [text("package.json", 1), text("package-lock.json", 4000), text("src/http/retry.ts", 10)]);
    const report = await gate("pull_request_target", pr(pull));
    expect(check(report, "size")?.result).toBe("passed");
    expect(check(report, "size")?.evidence).toContain("11 changed lines");
    expect(report.verdict).toBe("pass");
  });
});

describe("the acceptance run is tied to the judged pull request", () => {
  const ACCEPTANCE = ".github/workflows/bosun-acceptance.yml";
  /** The evil copy of the acceptance workflow: runs the command, discards its exit code. */
  const EVIL = "on: pull_request\njobs: {acceptance: {runs-on: ubuntu-latest, steps: [{run: 'npm test || true; echo {\"exit_code\": 0} > acceptance-result.json'}]}}\n";

  /** An approved, dispatched item and the agent's PR for it into main, opened through the API. */
  async function agentsPullIntoMain() {
    const item = await dispatchedItem(brief({ id: "strict", acceptance: { command: "npm test" } }));
    const branch = `bosun/${item.number}-fix`;
    await push(mallory, branch, { "src/http/a.ts": "export const a = 1;\n" });
    const { data } = await mallory.pulls.create({ ...WHERE, head: branch, base: "main", title: "fix", body: `Closes #${item.number}` });
    const pull = fake.repo(REPO).pulls.get(data.number) as PullRecord;
    pull.files = [text("src/http/a.ts")];
    return { item, branch, pull };
  }
  /** The result file the acceptance job uploads, as the gate's workflow downloads it. */
  function result(sha: string, exitCode: number): string {
    const file = join(scratch, `result-${sha.slice(0, 8)}-${exitCode}.json`);
    writeFileSync(file, JSON.stringify({ bosun_acceptance: 1, sha, command: "npm test", exit_code: exitCode, timed_out: false, seconds: 1, tail: "" }));
    return file;
  }
  /** The gate on the workflow_run event of a finished run, built from GitHub's own record of the run. */
  async function gateAfter(runId: number, resultFile: string) {
    const run = fake.repo(REPO).workflowRuns.get(runId);
    if (run !== undefined) Object.assign(run, { status: "completed", conclusion: "success" });
    const { data } = await alice.actions.getWorkflowRun({ ...WHERE, run_id: runId });
    return gate("workflow_run", { workflow_run: data }, { "acceptance-result": resultFile });
  }

  it("a second PR of the same head into a branch with a doctored acceptance workflow, closed while its run is in progress: could-not-check", async () => {
    const { pull } = await agentsPullIntoMain();
    // The real run (into main) fails.
    const real = startPullRequestRun(fake, REPO, pull, ACCEPTANCE);
    expect((await gateAfter(real.id, result(pull.headSha, 1))).verdict).toBe("fail");
    // The agent's base branch, whose acceptance workflow discards the exit code.
    await push(mallory, "evil", { [ACCEPTANCE]: EVIL });
    const { data: second } = await mallory.pulls.create({ ...WHERE, head: pull.headRef, base: "evil", title: "same head" });
    const run = startPullRequestRun(fake, REPO, fake.repo(REPO).pulls.get(second.number) as PullRecord, ACCEPTANCE);
    await mallory.pulls.update({ ...WHERE, pull_number: second.number, state: "closed" });
    // GitHub's record of the run now lists only the open PR into main.
    expect((await alice.actions.getWorkflowRun({ ...WHERE, run_id: run.id })).data.pull_requests?.map((p) => p.number)).toEqual([pull.number]);
    const report = await gateAfter(run.id, result(pull.headSha, 0));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain(`#${second.number}`);
    expect(report.checks[0]?.evidence).toContain("'evil'");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure", "failure"]);
    // A maintainer's dispatch naming that run is refused the same way.
    const dispatched = await gate("workflow_dispatch", { inputs: { "pull-request": String(pull.number), "head-sha": pull.headSha, "acceptance-run": String(run.id) }, sender: { login: "maia" } }, { "acceptance-result": result(pull.headSha, 0) });
    expect(dispatched.verdict).toBe("could-not-check");
  });

  it("the same head pushed to another branch, its PR into that base closed before the run ends: could-not-check", async () => {
    const { pull } = await agentsPullIntoMain();
    await push(mallory, "evil", { [ACCEPTANCE]: EVIL });
    await mallory.git.createRef({ ...WHERE, ref: "refs/heads/evil-head", sha: pull.headSha });
    const { data: second } = await mallory.pulls.create({ ...WHERE, head: "evil-head", base: "evil", title: "same head, other branch" });
    const run = startPullRequestRun(fake, REPO, fake.repo(REPO).pulls.get(second.number) as PullRecord, ACCEPTANCE);
    await mallory.pulls.update({ ...WHERE, pull_number: second.number, state: "closed" });
    const report = await gateAfter(run.id, result(pull.headSha, 0));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("evil-head");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure"]);
  });

  it("a PR opened into the doctored base and retargeted to main while its run is in progress: could-not-check", async () => {
    const { pull, item } = await agentsPullIntoMain();
    await mallory.pulls.update({ ...WHERE, pull_number: pull.number, state: "closed" });
    await push(mallory, "evil", { [ACCEPTANCE]: EVIL });
    const { data: second } = await mallory.pulls.create({ ...WHERE, head: pull.headRef, base: "evil", title: "retargeted", body: `Closes #${item.number}` });
    const retargeted = fake.repo(REPO).pulls.get(second.number) as PullRecord;
    retargeted.files = [text("src/http/a.ts")];
    const run = startPullRequestRun(fake, REPO, retargeted, ACCEPTANCE);
    await mallory.pulls.update({ ...WHERE, pull_number: second.number, base: "main" });
    const report = await gateAfter(run.id, result(pull.headSha, 0));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("was changed");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure"]);
  });

  it("the PR's own run into main passes, also after an earlier PR of the branch into main was closed", async () => {
    const { pull, item } = await agentsPullIntoMain();
    await mallory.pulls.update({ ...WHERE, pull_number: pull.number, state: "closed" });
    const { data: again } = await mallory.pulls.create({ ...WHERE, head: pull.headRef, base: "main", title: "fix, again", body: `Closes #${item.number}` });
    const reopened = fake.repo(REPO).pulls.get(again.number) as PullRecord;
    reopened.files = [text("src/http/a.ts")];
    const run = startPullRequestRun(fake, REPO, reopened, ACCEPTANCE);
    const report = await gateAfter(run.id, result(reopened.headSha, 0));
    expect(report.verdict).toBe("pass");
    expect(gateRunsOn(reopened.headSha)).toEqual(["success"]);
  });
});
