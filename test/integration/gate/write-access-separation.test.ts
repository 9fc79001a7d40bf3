/**
 * Attacks on separation by an agent or a writer WITH WRITE ACCESS that has read the docs: it pushes
 * to a PR's branch under any name, and writes comments. Each runs the real mode with the real
 * Octokit over HTTP against the fake GitHub and is judged from the status the fake recorded. Each
 * passed before its fix; the legitimate path beside it still passes.
 */
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import separationMode from "../../../src/action/modes/separation.js";
import type { SeparationVerdict } from "../../../src/core/separation/separation-verdict.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullRecord } from "../../fake-github/state.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { memoryActionIo } from "./memory-action-io.js";

const REPO = "acme/app";
const WHERE = { owner: "acme", repo: "app" };
const TOKEN = "ghs_writeaccessseparation0000000000000";
let fake: FakeGitHub;
let mallory: Octokit;
let alice: Octokit;

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-mallory", "mallory", { permissions: { [REPO]: "write" } });
  fake.addToken("t-alice", "alice", { permissions: { [REPO]: "write" } });
  mallory = createTestOctokit(fake.url, "t-mallory");
  alice = createTestOctokit(fake.url, "t-alice");
});
afterEach(async () => fake.close());

async function separation(pull: PullRecord, inputs: Record<string, string> = {}) {
  const io = memoryActionIo({ eventName: "pull_request_target", payload: { pull_request: { number: pull.number } }, inputs: { "github-token": TOKEN, ...inputs }, env: { GITHUB_API_URL: fake.url } });
  await separationMode.run(io.io);
  const status = fake.repo(REPO).statuses.filter((s) => s.context === "bosun/separation" && s.sha === pull.headSha).at(-1);
  return { status, verdict: JSON.parse(io.outputs["report"] ?? "null") as SeparationVerdict };
}
const why = (v: SeparationVerdict, login: string) => v.notCounted.find((n) => n.login === login)?.why ?? "";

describe("/approve names the whole head", () => {
  it("an /approve with a 12-hex prefix of the head does not count: 48 bits are within an agent's reach to collide", async () => {
    const pull = fake.addPull(REPO, { user: "mallory", head: "feature-x" });
    await alice.issues.createComment({ ...WHERE, issue_number: pull.number, body: `/approve ${pull.headSha.slice(0, 12)}` });
    const { status, verdict } = await separation(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "alice")).toContain("40");
  });

  it("an /approve with the head's full 40-hex SHA counts", async () => {
    const pull = fake.addPull(REPO, { user: "mallory", head: "feature-x" });
    await alice.issues.createComment({ ...WHERE, issue_number: pull.number, body: `/approve ${pull.headSha.toUpperCase()}` });
    const { status, verdict } = await separation(pull);
    expect(verdict.counted).toEqual(["alice"]);
    expect(status?.state).toBe("success");
  });
});

describe("separation excludes everyone who pushed to the head branch, from GitHub's record of pushes", () => {
  const AGENT = "copilot-swe-agent[bot]";
  const COPILOT = { name: "Copilot", email: "198982749+Copilot@users.noreply.github.com" };
  /** A push to the PR's branch through the git data API as `who`, with the commit metadata `who` chooses; GitHub moves the PR's head with it. */
  async function pushToPull(who: Octokit, pull: PullRecord, files: Record<string, string>, person?: { name: string; email: string }): Promise<string> {
    const { data: base } = await who.git.getCommit({ ...WHERE, commit_sha: pull.headSha });
    const { data: tree } = await who.git.createTree({ ...WHERE, base_tree: base.tree.sha, tree: Object.entries(files).map(([path, content]) => ({ path, mode: "100644" as const, type: "blob" as const, content })) });
    const { data: commit } = await who.git.createCommit({ ...WHERE, message: "more work", tree: tree.sha, parents: [pull.headSha], ...(person === undefined ? {} : { author: person, committer: person }) });
    await who.git.updateRef({ ...WHERE, ref: `heads/${pull.headRef}`, sha: commit.sha });
    pull.headSha = commit.sha;
    pull.commits.push(commit.sha);
    return commit.sha;
  }

  it("a writer who pushes to the agent's branch under the agent's name, then approves: not counted", async () => {
    const pull = fake.addPull(REPO, { user: AGENT, head: "copilot/fix-1" });
    await pushToPull(alice, pull, { "src/http/a.ts": "export const a = 2;\n" }, COPILOT);
    await alice.pulls.createReview({ ...WHERE, pull_number: pull.number, event: "APPROVE", commit_id: pull.headSha });
    const { status, verdict } = await separation(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "alice")).toContain("pushed to the head branch");
  });

  it("a force push under someone else's name counts as a push too", async () => {
    const pull = fake.addPull(REPO, { user: AGENT, head: "copilot/fix-2" });
    const { data: base } = await alice.git.getCommit({ ...WHERE, commit_sha: pull.headSha });
    const { data: rewritten } = await alice.git.createCommit({ ...WHERE, message: "rewritten", tree: base.tree.sha, parents: base.parents.map((p) => p.sha), author: COPILOT, committer: COPILOT });
    await alice.git.updateRef({ ...WHERE, ref: `heads/${pull.headRef}`, sha: rewritten.sha, force: true });
    pull.headSha = rewritten.sha;
    pull.commits = [rewritten.sha];
    await alice.issues.createComment({ ...WHERE, issue_number: pull.number, body: `/approve ${pull.headSha}` });
    const { status, verdict } = await separation(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "alice")).toContain("pushed to the head branch");
  });

  it("when GitHub's record of pushes does not reach the head, the status is error (could not check), never success", async () => {
    const pull = fake.addPull(REPO, { user: AGENT, head: "copilot/fix-3" });
    await alice.pulls.createReview({ ...WHERE, pull_number: pull.number, event: "APPROVE", commit_id: pull.headSha });
    // The head moved with no record of who moved it (a lagging or cut record).
    fake.repo(REPO).activities = fake.repo(REPO).activities.filter((a) => a.ref !== `refs/heads/${pull.headRef}` || a.activityType === "branch_creation");
    const { status, verdict } = await separation(pull);
    expect(status?.state).toBe("error");
    expect(verdict.reasons.join(" ")).toContain("record of pushes");
  });

  it("an independent writer who never pushed to the branch counts", async () => {
    const pull = fake.addPull(REPO, { user: AGENT, head: "copilot/fix-4" });
    await pushToPull(mallory, pull, { "src/http/a.ts": "export const a = 3;\n" });
    await alice.pulls.createReview({ ...WHERE, pull_number: pull.number, event: "APPROVE", commit_id: pull.headSha });
    const { status, verdict } = await separation(pull);
    expect(verdict.counted).toEqual(["alice"]);
    expect(status?.state).toBe("success");
  });
});
