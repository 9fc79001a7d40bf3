/**
 * Attacks on the gate by the pull request it judges: a head that moves under the run, a working
 * tree that is not the judged commit, a PR that links a looser brief, a rewritten snapshot. Each
 * outcome is read from what the fake GitHub recorded (its check runs), not from Bosun's report alone.
 */
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOctokitGateGitHub } from "../../../src/adapters/github/octokit-gate-github.js";
import { runAcceptance } from "../../../src/adapters/local/run-acceptance.js";
import { runGateAction } from "../../../src/action/gate/run-gate-action.js";
import { createGateMode } from "../../../src/action/modes/gate.js";
import type { Brief } from "../../../src/core/brief/brief.js";
import { renderClaimMessage } from "../../../src/core/claims/claim-record.js";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import type { GateReport } from "../../../src/core/gate/gate-report.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { ManualClock } from "../../fake-github/clock.js";
import type { PullFileRecord, PullRecord } from "../../fake-github/state.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { brief } from "../../unit/gate/gate-fixtures.js";
import { memoryActionIo } from "./memory-action-io.js";
import type { TempRepo } from "./temp-repo.js";
import { checkoutOf, grant, pushTo, writeBatchClaim, writeClaim } from "./trust-fixtures.js";

const REPO = "acme/app";
const WHERE = { owner: "acme", repo: "app" };
const TOKEN = "ghs_gatetrusttoken00000000000000000000";
const BOT_TOKEN = "ghs_bosunbottoken000000000000000000000";
const WRITER_TOKEN = "ghp_writertoken0000000000000000000000";
let fake: FakeGitHub;
let bot: Octokit;
let writer: Octokit;
const checkouts: TempRepo[] = [];

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken(BOT_TOKEN, "bosun[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken(WRITER_TOKEN, "mallory", { permissions: { [REPO]: "write" } });
  // A maintainer: the one who may dispatch the gate by hand.
  fake.setPermission(REPO, "maia", "maintain");
  bot = createTestOctokit(fake.url, BOT_TOKEN);
  writer = createTestOctokit(fake.url, WRITER_TOKEN);
});
afterEach(async () => {
  await fake.close();
  for (const c of checkouts.splice(0)) c.remove();
});

const text = (path: string, additions = 1): PullFileRecord => ({ filename: path, status: "modified", additions, deletions: 0, patch: `@@ -1 +1,${additions} @@\n${"+x\n".repeat(additions)}` });
/** #5's brief: only src/http/**. */
const strict = (): Brief => brief({ id: "strict", acceptance: { command: "true" } });
/** #7's brief: anything goes. */
const loose = (): Brief => brief({ id: "loose", constraints: { paths: ["**"] }, size_cap: 100_000, acceptance: { command: "true" } });

/** An approved issue: the bot's snapshot comment on it, written over HTTP as the intake does. */
async function approvedIssue(b: Brief): Promise<{ number: number; snapshotId: number }> {
  const issue = fake.addIssue(REPO, { title: `work on ${b.id}`, user: "carol" });
  const { data } = await bot.issues.createComment({ ...WHERE, issue_number: issue.number, body: renderSnapshotComment(b) });
  return { number: issue.number, snapshotId: data.id };
}

/** A PR with a real checkout at its head; the event names that head. */
function pullWithCheckout(fields: Parameters<FakeGitHub["addPull"]>[1]): PullRecord {
  const pull = fake.addPull(REPO, { user: "copilot-swe-agent[bot]", ...fields });
  checkouts.push(checkoutOf(fake, REPO, pull));
  return pull;
}

function gateIo(pull: PullRecord, headSha = pull.headSha, inputs: Record<string, string> = {}, runner: Record<string, string> = {}) {
  const workdir = checkouts.at(-1)?.dir ?? ".";
  return memoryActionIo({
    eventName: "pull_request_target",
    payload: { pull_request: { number: pull.number, head: { sha: headSha, ref: pull.headRef } } },
    inputs: { "github-token": TOKEN, "working-directory": workdir, ...inputs },
    env: { GITHUB_API_URL: fake.url, PATH: process.env["PATH"], ...runner },
  });
}

/** `runner`: what the runner sets beside the event (a re-run's GITHUB_RUN_ATTEMPT, GITHUB_TRIGGERING_ACTOR). */
async function runGate(pull: PullRecord, headSha = pull.headSha, inputs: Record<string, string> = {}, runner: Record<string, string> = {}) {
  const io = gateIo(pull, headSha, inputs, runner);
  await createGateMode().run(io.io);
  return { ...io, report: JSON.parse(io.outputs["report"] ?? "null") as GateReport };
}

/** Check runs named bosun/gate the fake recorded on a SHA. */
const runsOn = (sha: string) => [...fake.repo(REPO).checkRuns.values()].filter((r) => r.name === "bosun/gate" && r.headSha === sha);

describe("one commit: the gate judges the event's head and posts on it only", () => {
  it("posts nothing on B when the event was for A and the PR has since moved to B", async () => {
    const item = await approvedIssue(strict());
    await writeClaim(bot, WHERE, item.number, grant(String(item.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, files: [text("src/http/a.ts")] });
    const a = pull.headSha;
    const b = pushTo(fake, REPO, pull);
    const { report } = await runGate(pull, a);
    expect(runsOn(b)).toEqual([]);
    expect(report.verdict).toBe("could-not-check");
    expect(JSON.stringify(report)).toContain("moved");
    expect(runsOn(a).map((r) => r.conclusion)).toEqual(["failure"]);
  });

  it("posts no pass on the new head when the head moves while the acceptance command runs", async () => {
    const item = await approvedIssue(strict());
    await writeClaim(bot, WHERE, item.number, grant(String(item.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, files: [text("src/http/a.ts")] });
    const a = pull.headSha;
    let b = "";
    const io = gateIo(pull);
    const github = createOctokitGateGitHub({ token: TOKEN, ...WHERE, baseUrl: fake.url });
    const report = await runGateAction(io.io, {
      github,
      fetch,
      secrets: [TOKEN],
      // GitHub moves on while the command runs: a push lands mid-run.
      runAcceptance: async (options) => {
        const run = await runAcceptance(options);
        b = pushTo(fake, REPO, pull);
        return run;
      },
    });
    expect(b).not.toBe("");
    expect(runsOn(b)).toEqual([]);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("while the gate ran");
    expect(runsOn(a).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a head that moves mid-run is could-not-check even when a check failed (nothing final is said about a superseded run)", async () => {
    const item = await approvedIssue(strict());
    await writeClaim(bot, WHERE, item.number, grant(String(item.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, files: [text("src/db/pool.ts")] });
    const io = gateIo(pull);
    const github = createOctokitGateGitHub({ token: TOKEN, ...WHERE, baseUrl: fake.url });
    const report = await runGateAction(io.io, { github, fetch, secrets: [TOKEN], runAcceptance: async (o) => { const run = await runAcceptance(o); pushTo(fake, REPO, pull); return run; } });
    expect(report.checks.find((c) => c.check === "paths")?.result).toBe("failed");
    expect(report.verdict).toBe("could-not-check");
    expect(io.outputs["verdict"]).toBe("could-not-check");
  });

  it("cannot check when the working tree is not the event's commit (the acceptance ran on something else)", async () => {
    const item = await approvedIssue(strict());
    await writeClaim(bot, WHERE, item.number, grant(String(item.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, files: [text("src/http/a.ts")] });
    const a = pull.headSha;
    // The checkout moves on (a later fetch, a PR script that commits): HEAD is no longer A.
    checkouts.at(-1)?.write("other.txt", "x").commit("not the judged commit");
    const { report } = await runGate(pull, a);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks.find((c) => c.check === "acceptance")?.evidence ?? "").toContain(a.slice(0, 12));
    expect(runsOn(a).map((r) => r.conclusion)).toEqual(["failure"]);
  });

  it.each([
    ["for another commit", (_sha: string) => ({ sha: "f".repeat(40), run: { kind: "exited" as const, command: "true", exitCode: 0, ms: 1, tail: "" } }), "could-not-check"],
    ["for another command than the brief's", (sha: string) => ({ sha, run: { kind: "exited" as const, command: "echo ok", exitCode: 0, ms: 1, tail: "" } }), "could-not-check"],
    ["that ran (a refused one says why)", (_sha: string) => ({ sha: "", run: { kind: "not-run" as const, command: "true", reason: "REFUSED-BECAUSE-X" } }), "could-not-check"],
    ["for the judged commit and the brief's command", (sha: string) => ({ sha, run: { kind: "exited" as const, command: "true", exitCode: 0, ms: 1, tail: "" } }), "pass"],
  ])("takes a handed-over acceptance result only %s", async (_name, handed, verdict) => {
    const item = await approvedIssue(strict());
    await writeClaim(bot, WHERE, item.number, grant(String(item.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, files: [text("src/http/a.ts")] });
    const io = gateIo(pull);
    const github = createOctokitGateGitHub({ token: TOKEN, ...WHERE, baseUrl: fake.url });
    let ran = false;
    const report = await runGateAction(io.io, { github, fetch, secrets: [TOKEN], handedAcceptance: async () => handed(pull.headSha), runAcceptance: async (o) => ((ran = true), runAcceptance(o)) });
    expect(ran).toBe(false);
    expect(report.verdict).toBe(verdict);
    if (_name.startsWith("that ran")) expect(report.checks[0]?.evidence).toContain("REFUSED-BECAUSE-X");
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual([verdict === "pass" ? "success" : "failure"]);
  });

  it("posts could-not-check on the judged commit when GitHub fails mid-run (no silent missing check)", async () => {
    const item = await approvedIssue(strict());
    await writeClaim(bot, WHERE, item.number, grant(String(item.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, files: [text("src/http/a.ts")] });
    fake.faults.add({ kind: "error", status: 502, route: "GET /repos/{owner}/{repo}/pulls/{pull_number}/files" });
    const { report, outputs, failures } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(outputs["verdict"]).toBe("could-not-check");
    expect(failures.length).toBe(1);
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["failure"]);
    expect(runsOn(pull.headSha)[0]?.output.title).toMatch(/could.not.check/i);
    expect(runsOn(pull.headSha)[0]?.output.summary).toContain("Server Error");
  });

  it("passes a clean PR judged at the event's head, with the check run on that head", async () => {
    const item = await approvedIssue(strict());
    await writeBatchClaim(bot, WHERE, [
      { issue: item.number, record: grant(String(item.number), { briefHash: briefHash(strict()) }) },
      { issue: 99, record: grant("99", { briefHash: briefHash(loose()) }) },
    ]);
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, body: `Closes #${item.number}`, files: [text("src/http/a.ts")] });
    const { report, failures } = await runGate(pull);
    expect(failures).toEqual([]);
    expect(report.verdict).toBe("pass");
    expect(report.brief?.source).toContain(`refs/bosun/claims/${item.number}`);
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["success"]);
  });
});

describe("a re-run of the gate: the same commit judged again only when a maintainer asks", () => {
  it("a re-run by a writer (the agent) posts nothing, the first verdict standing; a maintainer's re-run judges again", async () => {
    const item = await approvedIssue(strict());
    await writeBatchClaim(bot, WHERE, [{ issue: item.number, record: grant(String(item.number), { briefHash: briefHash(strict()) }) }]);
    const pull = pullWithCheckout({ head: `bosun/${item.number}-fix`, body: `Closes #${item.number}`, files: [text("src/http/a.ts")] });
    expect((await runGate(pull)).report.verdict).toBe("pass");
    // GitHub's record of that gate run; whoever re-runs it becomes the new attempt's triggering actor.
    const runId = 9_002;
    const at = fake.clock.now();
    fake.repo(REPO).workflowRuns.set(runId, { id: runId, workflowId: 0, event: "pull_request_target", headBranch: "main", headSha: pull.headSha, status: "completed", conclusion: "success", inputs: {}, actor: "copilot-swe-agent[bot]", runNumber: 1, createdAt: at, updatedAt: at });
    const rerunBy = async (who: Octokit): Promise<Record<string, string>> => {
      fake.completeWorkflowRun(REPO, runId, "success");
      await who.actions.reRunWorkflow({ ...WHERE, run_id: runId });
      const { data } = await who.actions.getWorkflowRun({ ...WHERE, run_id: runId });
      return { GITHUB_RUN_ATTEMPT: String(data.run_attempt), GITHUB_TRIGGERING_ACTOR: data.triggering_actor?.login ?? "" };
    };
    const byWriter = await runGate(pull, pull.headSha, {}, await rerunBy(writer));
    expect(byWriter.report.verdict).toBe("could-not-check");
    expect(byWriter.report.checks.map((c) => c.evidence).join("\n")).toContain("attempt 2, a re-run by mallory, who has write permission");
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["success"]);
    fake.addToken("t-maia", "maia", { permissions: { [REPO]: "maintain" } });
    const byMaintainer = await runGate(pull, pull.headSha, {}, await rerunBy(createTestOctokit(fake.url, "t-maia")));
    expect(byMaintainer.report.verdict).toBe("pass");
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["success", "success"]);
  });
});

describe("the approved brief of the dispatched item, never one the PR picks", () => {
  it("a PR on bosun/<5>-fix saying 'Closes #7' is not judged by #7's looser brief", async () => {
    const five = await approvedIssue(strict());
    const seven = await approvedIssue(loose());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, body: `Closes #${seven.number}`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain(`#${seven.number}`);
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["failure"]);
  });

  it("a bosun:brief:<id> label does not swap a dispatched item's brief for briefs/<id>.yml", async () => {
    fake.setFile(REPO, "main", "briefs/anything.yml", "goal: x\nconstraints: {paths: ['**']}\nacceptance: {command: 'true'}\nsize_cap: 100000\n");
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, labels: ["bosun:brief:anything"], files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a human PR on an ordinary branch that says 'Closes #7' gets no brief from the link alone", async () => {
    const seven = await approvedIssue(loose());
    const pull = pullWithCheckout({ user: "dave", head: "feature/anything", body: `Closes #${seven.number}`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("no brief");
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a writer who edits the bot's snapshot and recomputes its hash gets could-not-check", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    (fake.clock as ManualClock).advance(60_000);
    // Self-consistent: the edited comment's hash matches its (looser) brief, and its author is still the bot.
    await writer.issues.updateComment({ ...WHERE, comment_id: five.snapshotId, body: renderSnapshotComment({ ...loose(), id: "strict" }) });
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("edited");
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a snapshot re-approved after dispatch: neither the frozen nor the new brief judges the work, could-not-check until Bosun dispatches again", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    // A later approval writes a newer, looser snapshot; the work in flight was dispatched under the first.
    await bot.issues.createComment({ ...WHERE, issue_number: five.number, body: renderSnapshotComment({ ...loose(), id: "strict" }) });
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("earlier approval");
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["failure"]);
  });

  it("with a claim record that predates brief hashes, nothing shows which brief was approved: could-not-check", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number)));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/http/a.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("holds no brief hash");
  });

  it("with a claim record that predates brief hashes, an edited snapshot is could-not-check (its edit history)", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number)));
    (fake.clock as ManualClock).advance(60_000);
    await writer.issues.updateComment({ ...WHERE, comment_id: five.snapshotId, body: renderSnapshotComment({ ...loose(), id: "strict" }) });
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toMatch(/edited|no brief hash/);
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a claim record with a looser brief hash that the agent wrote itself is not Bosun's record", async () => {
    const five = await approvedIssue(strict());
    await bot.issues.createComment({ ...WHERE, issue_number: five.number, body: renderSnapshotComment({ ...loose(), id: "strict" }) });
    // Refs under refs/bosun/ sit outside rulesets: anyone who can push can write one, naming any author.
    fake.addToken("t-agent", "claude[bot]", { permissions: { [REPO]: "write" } });
    const agent = createTestOctokit(fake.url, "t-agent");
    const forged = grant(String(five.number), { briefHash: briefHash({ ...loose(), id: "strict" }) });
    const { data } = await agent.git.createCommit({ ...WHERE, message: renderClaimMessage(forged), tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", parents: [], author: { name: "bosun[bot]", email: "bosun[bot]@users.noreply.github.com" } });
    await agent.git.createRef({ ...WHERE, ref: `refs/bosun/claims/${five.number}`, sha: data.sha });
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("not written by bosun[bot]");
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a claim record another bot wrote (signed for it, not for Bosun) is not Bosun's record", async () => {
    const five = await approvedIssue(strict());
    fake.addToken("t-agent", "claude[bot]", { permissions: { [REPO]: "write" } });
    await writeClaim(createTestOctokit(fake.url, "t-agent"), WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `copilot/fix-${five.number}`, body: `Closes #${five.number}`, files: [text("src/http/a.ts")] });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("GitHub signed it for claude");
  });

  it("an agent on its own branch that closes a dispatched item is judged by that item's approved brief", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `copilot/fix-${five.number}`, body: `Fixes #${five.number}`, files: [text("src/db/pool.ts")] });
    const { report } = await runGate(pull);
    expect(report.brief?.source).toContain(`confirmed by the claim record on refs/bosun/claims/${five.number}`);
    expect(report.verdict).toBe("fail");
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["failure"]);
  });

  it.each([
    ["names its branch bosun/<n>-…", (n: number) => ({ head: `bosun/${n}-fix` })],
    ["closes a dispatched item", (n: number) => ({ head: "patch-1", body: `Closes #${n}` })],
  ])("a fork's PR that %s does not get that item's brief (a fork's branch and links are its author's choice)", async (_name, fields) => {
    const five = await approvedIssue(loose());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(loose()) }));
    const pull = pullWithCheckout({ user: "stranger", headRepo: "stranger/app", files: [text("src/db/pool.ts")], ...fields(five.number) });
    const { report } = await runGate(pull);
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain("fork");
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a dispatch input naming another item than the branch is could-not-check", async () => {
    const five = await approvedIssue(strict());
    const seven = await approvedIssue(loose());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    await writeClaim(bot, WHERE, seven.number, grant(String(seven.number), { briefHash: briefHash(loose()) }));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/db/pool.ts")] });
    // A trusted workflow_dispatch run names the PR, the head and the item it was dispatched for.
    const io = memoryActionIo({
      eventName: "workflow_dispatch",
      payload: { inputs: { "pull-request": String(pull.number), "head-sha": pull.headSha, item: String(seven.number) }, sender: { login: "maia" } },
      inputs: { "github-token": TOKEN, "working-directory": checkouts.at(-1)?.dir ?? "." },
      env: { GITHUB_API_URL: fake.url, PATH: process.env["PATH"] },
    });
    await createGateMode().run(io.io);
    const report = JSON.parse(io.outputs["report"] ?? "null") as GateReport;
    expect(report.verdict).toBe("could-not-check");
    expect(report.checks[0]?.evidence).toContain(`#${seven.number}`);
    expect(report.checks[0]?.evidence).toContain(`#${five.number}`);
    expect(runsOn(pull.headSha).every((r) => r.conclusion !== "success")).toBe(true);
  });

  it("a trusted workflow_dispatch run for the item the branch names judges it by that item's snapshot", async () => {
    const five = await approvedIssue(strict());
    await writeClaim(bot, WHERE, five.number, grant(String(five.number), { briefHash: briefHash(strict()) }));
    const pull = pullWithCheckout({ head: `bosun/${five.number}-fix`, files: [text("src/http/a.ts")] });
    const io = memoryActionIo({
      eventName: "workflow_dispatch",
      payload: { inputs: { "pull-request": String(pull.number), "head-sha": pull.headSha, item: String(five.number) }, sender: { login: "maia" } },
      inputs: { "github-token": TOKEN, "working-directory": checkouts.at(-1)?.dir ?? "." },
      env: { GITHUB_API_URL: fake.url, PATH: process.env["PATH"] },
    });
    await createGateMode().run(io.io);
    expect(io.outputs["verdict"]).toBe("pass");
    expect(runsOn(pull.headSha).map((r) => r.conclusion)).toEqual(["success"]);
  });
});
