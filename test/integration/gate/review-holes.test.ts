/**
 * Attacks an adversarial review found on the trusted gate and separation, each run against the
 * real modes over HTTP on the fake GitHub, judged from what the fake recorded (its check runs and
 * statuses) and the mode's report. Each one passed before its fix.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderClaimMessage } from "../../../src/core/claims/claim-record.js";
import { createOctokitGateGitHub } from "../../../src/adapters/github/octokit-gate-github.js";
import { createGateMode } from "../../../src/action/modes/gate.js";
import { runSeparationAction } from "../../../src/action/separation/run-separation-action.js";
import separationMode from "../../../src/action/modes/separation.js";
import type { Brief } from "../../../src/core/brief/brief.js";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import type { GateReport } from "../../../src/core/gate/gate-report.js";
import type { SeparationVerdict } from "../../../src/core/separation/separation-verdict.js";
import type { ManualClock } from "../../fake-github/clock.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullFileRecord, PullRecord } from "../../fake-github/state.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { brief } from "../../unit/gate/gate-fixtures.js";
import { memoryActionIo } from "./memory-action-io.js";
import type { TempRepo } from "./temp-repo.js";
import { checkoutOf, grant, writeClaim } from "./trust-fixtures.js";

const REPO = "acme/app";
const WHERE = { owner: "acme", repo: "app" };
const TOKEN = "ghs_gatetrusttoken00000000000000000000";
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
let fake: FakeGitHub;
let bot: Octokit;
let mallory: Octokit;
let alice: Octokit;
const checkouts: TempRepo[] = [];

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-bosun", "bosun[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-mallory", "mallory", { permissions: { [REPO]: "write" } });
  fake.addToken("t-alice", "alice", { permissions: { [REPO]: "write" } });
  fake.setPermission(REPO, "maia", "maintain");
  bot = createTestOctokit(fake.url, "t-bosun");
  mallory = createTestOctokit(fake.url, "t-mallory");
  alice = createTestOctokit(fake.url, "t-alice");
});
afterEach(async () => {
  await fake.close();
  for (const c of checkouts.splice(0)) c.remove();
});

const text = (path: string): PullFileRecord => ({ filename: path, status: "modified", additions: 1, deletions: 0, patch: "@@ -1 +1,1 @@\n+x\n" });
/** Only src/http/** (the default paths of the fixture brief). */
const strict = (): Brief => brief({ id: "strict", acceptance: { command: "true" } });
/** Anything goes. */
const loose = (): Brief => brief({ id: "loose", constraints: { paths: ["**"] }, size_cap: 100_000, acceptance: { command: "true" } });
async function approvedIssue(b: Brief) {
  const issue = fake.addIssue(REPO, { title: `work on ${b.id}`, user: "carol" });
  await bot.issues.createComment({ ...WHERE, issue_number: issue.number, body: renderSnapshotComment(b) });
  return issue;
}
function pullWithCheckout(fields: Parameters<FakeGitHub["addPull"]>[1]): PullRecord {
  const pull = fake.addPull(REPO, { user: "mallory", ...fields });
  checkouts.push(checkoutOf(fake, REPO, pull));
  return pull;
}
async function gate(eventName: string, payload: Record<string, unknown>, inputs: Record<string, string> = {}) {
  const io = memoryActionIo({ eventName, payload, inputs: { "github-token": TOKEN, "working-directory": checkouts.at(-1)?.dir ?? ".", ...inputs }, env: { GITHUB_API_URL: fake.url, PATH: process.env["PATH"] } });
  await createGateMode().run(io.io);
  return JSON.parse(io.outputs["report"] ?? "null") as GateReport;
}
const pr = (pull: PullRecord) => ({ pull_request: { number: pull.number, head: { sha: pull.headSha, ref: pull.headRef } } });
const dispatch = (pull: PullRecord, sender: string, inputs: Record<string, string> = {}) => ({ inputs: { "pull-request": String(pull.number), "head-sha": pull.headSha, ...inputs }, sender: { login: sender } });
/** bosun/gate check runs the fake recorded on a SHA, by conclusion. */
const gateRunsOn = (sha: string) => [...fake.repo(REPO).checkRuns.values()].filter((c) => c.name === "bosun/gate" && c.headSha === sha).map((c) => c.conclusion);
async function separation(pull: PullRecord, inputs: Record<string, string> = {}) {
  const io = memoryActionIo({ eventName: "pull_request_target", payload: { pull_request: { number: pull.number } }, inputs: { "github-token": TOKEN, ...inputs }, env: { GITHUB_API_URL: fake.url } });
  await separationMode.run(io.io);
  return JSON.parse(io.outputs["report"] ?? "null") as SeparationVerdict;
}

describe("the gate's item is Bosun's record, whoever starts the run", () => {
  it("an agent with write access dispatches the gate itself with item=<a looser issue>: could-not-check, no success posted", async () => {
    await approvedIssue(strict());
    const seven = await approvedIssue(loose());
    await writeClaim(bot, WHERE, seven.number, grant(String(seven.number), { briefHash: briefHash(loose()) }));
    const pull = pullWithCheckout({ head: "feature-x", files: [text("src/db/pool.ts")] });
    const report = await gate("workflow_dispatch", dispatch(pull, "mallory", { item: String(seven.number) }));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("only an admin or maintainer");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure"]);
  });

  it("a maintainer who authored the PR may not dispatch its gate either", async () => {
    const seven = await approvedIssue(loose());
    await writeClaim(bot, WHERE, seven.number, grant(String(seven.number), { briefHash: briefHash(loose()) }));
    const pull = pullWithCheckout({ user: "maia", head: "feature-x", files: [text("src/db/pool.ts")] });
    const report = await gate("workflow_dispatch", dispatch(pull, "maia", { item: String(seven.number) }));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("opened or committed");
  });

  it("a maintainer's dispatch naming an acceptance run of another workflow, event or commit: could-not-check", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/http/a.ts")] });
    const dir = checkouts.at(-1)?.dir ?? ".";
    const result = join(dir, "..", `result-${pull.number}.json`);
    writeFileSync(result, JSON.stringify({ bosun_acceptance: 1, sha: pull.headSha, command: "true", exit_code: 0, timed_out: false, seconds: 1, tail: "" }));
    const r = fake.repo(REPO);
    const other = fake.addWorkflow(REPO, { path: ".github/workflows/anything.yml", name: "anything" });
    const acceptance = fake.addWorkflow(REPO, { path: ".github/workflows/bosun-acceptance.yml", name: "bosun acceptance" });
    const run = (id: number, workflowId: number, event: string, headSha: string) => r.workflowRuns.set(id, { id, workflowId, event, headBranch: pull.headRef, headSha, status: "completed", conclusion: "success", inputs: {}, actor: "mallory", runNumber: id, createdAt: 0, updatedAt: 0 });
    run(501, other, "pull_request", pull.headSha);
    run(502, acceptance, "workflow_dispatch", pull.headSha);
    run(503, acceptance, "pull_request", "e".repeat(40));
    run(504, acceptance, "pull_request", pull.headSha);
    const verdicts: Record<string, string> = {};
    for (const id of ["501", "502", "503", "504"]) verdicts[id] = (await gate("workflow_dispatch", dispatch(pull, "maia", { item: String(five.number), "acceptance-run": id }), { "acceptance-result": result })).verdict;
    expect(verdicts).toEqual({ "501": "could-not-check", "502": "could-not-check", "503": "could-not-check", "504": "pass" });
  });

  it("a workflow the PR added under another path, named 'bosun acceptance', triggers the gate: could-not-check", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/http/a.ts")] });
    const run = (path: string, event: string) => gate("workflow_run", { workflow_run: { head_sha: pull.headSha, head_branch: pull.headRef, head_repository: { full_name: REPO }, path, event, pull_requests: [{ number: pull.number, head: { sha: pull.headSha } }] } });
    expect((await run(".github/workflows/evil.yml", "pull_request")).verdict).toBe("could-not-check");
    expect((await run(".github/workflows/bosun-acceptance.yml", "push")).verdict).toBe("could-not-check");
    expect((await run("", "pull_request")).verdict).toBe("could-not-check");
    expect((await run(".github/workflows/bosun-acceptance.yml", "pull_request")).verdict).toBe("pass");
  });

  it("the agent names its own branch bosun/<looser issue>-x with no claim record: could-not-check", async () => {
    const seven = await approvedIssue(loose());
    const pull = pullWithCheckout({ head: `bosun/${seven.number}-x`, files: [text("src/db/pool.ts")] });
    const report = await gate("pull_request_target", pr(pull));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("no claim record");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure"]);
  });

  it("the agent force-moves the claim ref back to an older Bosun-signed claim with a looser hash: not a pass", async () => {
    const five = await approvedIssue(loose());
    const old = await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(loose()) }));
    // A maintainer tightens the brief and re-approves; Bosun dispatches again at epoch 2 with the strict hash.
    await bot.issues.createComment({ ...WHERE, issue_number: five.number, body: renderSnapshotComment(strict()) });
    const { data: c2 } = await bot.git.createCommit({ ...WHERE, message: renderClaimMessage(grant(String(five.number), { epoch: 2, briefHash: briefHash(strict()) })), tree: EMPTY_TREE, parents: [old] });
    await bot.git.updateRef({ ...WHERE, ref: `bosun/claims/${five.number}`, sha: c2.sha });
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    expect((await gate("pull_request_target", pr(pull))).verdict).toBe("fail");
    await mallory.git.updateRef({ ...WHERE, ref: `bosun/claims/${five.number}`, sha: old, force: true });
    const replayed = await gate("pull_request_target", pr(pull));
    expect(replayed.verdict).toBe("could-not-check");
    expect(replayed.checks[0]?.evidence).toContain("not the latest approved snapshot");
    expect(gateRunsOn(pull.headSha)).toEqual(["failure", "failure"]);
  });

  it("a claim commit signed with a writer's own key (GitHub verifies the committer) naming the bot as author is not Bosun's record", async () => {
    const five = await approvedIssue(loose());
    const r = fake.repo(REPO);
    const sha = "c1a1".padEnd(40, "0");
    const when = "2026-01-01T00:00:00Z";
    r.commits.set(sha, { sha, tree: EMPTY_TREE, parents: [], message: renderClaimMessage(grant(String(five.number), { briefHash: briefHash(loose()) })), author: { name: "bosun[bot]", email: "bosun[bot]@users.noreply.github.com", date: when }, committer: { name: "mallory", email: "mallory@users.noreply.github.com", date: when }, signedFor: "mallory" });
    r.refs.set(`refs/bosun/claims/${five.number}`, sha);
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    const report = await gate("pull_request_target", pr(pull));
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("not written by bosun[bot]");
  });
});

describe("only pull requests into a protected base are judged", () => {
  it("a pass earned against an attacker-made base does not sit on a head SHA a PR into main can carry", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const r = fake.repo(REPO);
    r.refs.set("refs/heads/evil-base", r.refs.get("refs/heads/main") ?? "");
    const two = pullWithCheckout({ head: `bosun/${five.number}-fix`, base: "evil-base", files: [text("src/http/a.ts")] });
    const report = await gate("workflow_run", { workflow_run: { head_sha: two.headSha, path: ".github/workflows/bosun-acceptance.yml", event: "pull_request", pull_requests: [{ number: two.number, head: { sha: two.headSha } }] } });
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("evil-base");
    expect(gateRunsOn(two.headSha)).toEqual(["failure"]);
    // Separation refuses the same base.
    const v = await separation(two);
    expect(v.state).toBe("error");
    expect(fake.repo(REPO).statuses.filter((s) => s.sha === two.headSha && s.context === "bosun/separation").map((s) => s.state)).toEqual(["error"]);
  });

  it("a base listed in protected-branches is judged", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const r = fake.repo(REPO);
    r.refs.set("refs/heads/release", r.refs.get("refs/heads/main") ?? "");
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, base: "release", files: [text("src/http/a.ts")] });
    expect((await gate("pull_request_target", pr(pull), { "protected-branches": "main, release" })).verdict).toBe("pass");
  });
});

describe("separation counts only what its author wrote and left alone", () => {
  it("a writer edits a maintainer's old comment into '/approve <head>': not an approval", async () => {
    const pull = fake.addPull(REPO, { user: "claude[bot]", head: "bosun/9-x", files: [text("src/http/a.ts")] });
    const { data } = await alice.issues.createComment({ ...WHERE, issue_number: pull.number, body: "I'll look at this tomorrow" });
    expect((await separation(pull)).state).toBe("pending");
    (fake.clock as ManualClock).advance(60_000);
    await mallory.issues.updateComment({ ...WHERE, comment_id: data.id, body: `/approve ${pull.headSha}` });
    const v = await separation(pull);
    expect(v.state).toBe("pending");
    expect(v.counted).toEqual([]);
    expect(v.notCounted.find((n) => n.login === "alice")?.why).toContain("edited");
  });

  it("a user-account agent on an ordinary branch: not success with zero approvals; a listed human author is", async () => {
    const pull = fake.addPull(REPO, { user: "mallory", head: "feature-x", files: [text("src/db/pool.ts")] });
    expect((await separation(pull)).state).toBe("pending");
    expect((await separation(pull, { "human-authors": "mallory" })).state).toBe("success");
  });

  it("an approval withdrawn while the run reads the rest is not posted as success (reviews are read again right before posting)", async () => {
    const pull = fake.addPull(REPO, { user: "claude[bot]", head: "bosun/9-x", files: [text("src/http/a.ts")] });
    const { data } = await alice.issues.createComment({ ...WHERE, issue_number: pull.number, body: `/approve ${pull.headSha}` });
    const adapter = createOctokitGateGitHub({ token: TOKEN, ...WHERE, baseUrl: fake.url });
    let reads = 0;
    const github = {
      ...adapter,
      async comments(n: number) {
        const rows = await adapter.comments(n);
        // Right after the first read, alice takes it back.
        if (reads++ === 0) {
          (fake.clock as ManualClock).advance(60_000);
          await alice.issues.updateComment({ ...WHERE, comment_id: data.id, body: "wait, not yet" });
        }
        return rows;
      },
    };
    const io = memoryActionIo({ eventName: "pull_request_target", payload: { pull_request: { number: pull.number } }, inputs: { "github-token": TOKEN }, env: { GITHUB_API_URL: fake.url } });
    const v = await runSeparationAction(io.io, { github, secrets: [TOKEN] });
    expect(v?.state).toBe("pending");
    expect(fake.repo(REPO).statuses.filter((st) => st.sha === pull.headSha && st.context === "bosun/separation").map((st) => st.state)).toEqual(["pending"]);
  });
});
