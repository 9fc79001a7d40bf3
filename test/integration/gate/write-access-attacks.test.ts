/**
 * Attacks on the gate and separation by an agent WITH WRITE ACCESS that has read the docs: it
 * pushes branches, creates branches, opens and closes pull requests into any base, and writes
 * comments. Each runs the real mode with the real Octokit over HTTP against the fake GitHub and is
 * judged from what the fake recorded (check runs, statuses). Each passed before its fix; the
 * legitimate path beside it still passes.
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
const TOKEN = "ghs_writeaccessattacks000000000000000";
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
