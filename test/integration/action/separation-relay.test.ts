import { afterEach, beforeEach, describe, expect, it } from "vitest";
import separationMode from "../../../src/action/modes/separation.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { memoryActionIo } from "../gate/memory-action-io.js";

// pull_request_review runs the PR's own workflow file, so the documented setup relays reviews: a
// review workflow that does nothing finishes, and the trusted separation workflow runs on its
// workflow_run event. A fork's run lists no pull request in that event.
const REPO = "acme/app";
const TOKEN = "ghs_separationRelayToken000000000000000";
let fake: FakeGitHub;
beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.setPermission(REPO, "alice", "write");
});
afterEach(async () => fake.close());

async function relay(headSha: string, pullRequests: unknown[]) {
  const io = memoryActionIo({ eventName: "workflow_run", payload: { workflow_run: { id: 77, event: "pull_request_review", head_sha: headSha, pull_requests: pullRequests } }, inputs: { "github-token": TOKEN }, env: { GITHUB_API_URL: fake.url } });
  await separationMode.run(io.io);
  return io;
}

describe("separation relayed through workflow_run", () => {
  it("a fork PR's relayed review (no pull request in the event) posts bosun/separation on that PR's head", async () => {
    const pull = fake.addPull(REPO, { user: "claude[bot]" });
    await relay(pull.headSha, []);
    const statuses = fake.repo(REPO).statuses.filter((s) => s.context === "bosun/separation");
    expect(statuses.map((s) => s.sha)).toEqual([pull.headSha]);
    // A bot's PR with no approval is never success.
    expect(statuses[0]?.state).not.toBe("success");
  });

  it("a relayed run whose commit is no open PR's head posts nothing", async () => {
    fake.addPull(REPO, { user: "claude[bot]" });
    const io = await relay("c".repeat(40), []);
    expect(fake.repo(REPO).statuses).toEqual([]);
    expect(io.logs.join("\n")).toMatch(/no open pull request has head cccccccccccc/);
  });
});
