/**
 * Separation that fails closed: bots are agents without configuration, and the requester comes
 * from Bosun's record of the item (its author, whoever added the approval label), not from the
 * PR's link. Outcomes are read from the commit statuses the fake GitHub recorded.
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
import { grant, writeClaim } from "./trust-fixtures.js";

const REPO = "acme/app";
const WHERE = { owner: "acme", repo: "app" };
const TOKEN = "ghs_separationtrust000000000000000000";
let fake: FakeGitHub;
let bosun: Octokit;
let at = 1000;
const tokens: Record<string, Octokit> = {};

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-bosun", "bosun[bot]", { permissions: { [REPO]: "write" } });
  bosun = createTestOctokit(fake.url, "t-bosun");
  for (const login of ["alice", "bob", "carol", "dave"]) {
    fake.addToken(`t-${login}`, login, { permissions: { [REPO]: "write" } });
    tokens[login] = createTestOctokit(fake.url, `t-${login}`);
  }
  fake.setPermission(REPO, "helper[bot]", "write");
});
afterEach(async () => fake.close());

/** An approving review of the current head, as GitHub lists it. */
function approve(pull: PullRecord, user: string, commitId = pull.headSha): void {
  const id = 70_000 + at;
  fake.repo(REPO).reviews.set(id, { id, pullNumber: pull.number, user, body: "", state: "APPROVED", commitId, submittedAt: at++ });
}

/** Commits authored by the PR's own author (no other identity to exclude). */
function authoredBy(pull: PullRecord, name: string, email: string): PullRecord {
  for (const sha of pull.commits) {
    const c = fake.repo(REPO).commits.get(sha);
    if (c !== undefined) c.author = { ...c.author, name, email };
  }
  return pull;
}

async function run(pull: PullRecord, inputs: Record<string, string> = {}) {
  const io = memoryActionIo({ eventName: "pull_request_target", payload: { pull_request: { number: pull.number } }, inputs: { "github-token": TOKEN, ...inputs }, env: { GITHUB_API_URL: fake.url } });
  await separationMode.run(io.io);
  const status = fake.repo(REPO).statuses.filter((s) => s.context === "bosun/separation" && s.sha === pull.headSha).at(-1);
  return { ...io, status, verdict: JSON.parse(io.outputs["report"] ?? "null") as SeparationVerdict };
}

const why = (v: SeparationVerdict, login: string) => v.notCounted.find((n) => n.login === login)?.why ?? "";

describe("bots are agents by default (no agent-identities configured)", () => {
  it("a claude[bot] PR on an ordinary branch with no approvals is not success", async () => {
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: "fix-the-thing" }), "claude[bot]", "209825114+claude[bot]@users.noreply.github.com");
    const { status } = await run(pull);
    expect(status?.state).not.toBe("success");
    expect(status?.state).toBe("pending");
  });

  it("a PR opened by the Copilot account (a User-typed login) with no approvals is not success", async () => {
    const pull = authoredBy(fake.addPull(REPO, { user: "Copilot", head: "copilot/fix-12" }), "Copilot", "198982749+Copilot@users.noreply.github.com");
    const { status } = await run(pull);
    expect(status?.state).toBe("pending");
  });

  it("a human's PR with commits by an agent's noreply address needs an approval", async () => {
    const pull = authoredBy(fake.addPull(REPO, { user: "dave", head: "pairing" }), "Copilot", "198982749+Copilot@users.noreply.github.com");
    const { status } = await run(pull);
    expect(status?.state).toBe("pending");
  });

  it("a bot's approving review never counts", async () => {
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: "fix-b" }), "claude[bot]", "1+claude[bot]@users.noreply.github.com");
    approve(pull, "helper[bot]");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "helper[bot]")).toContain("agent");
  });

  it("a writer's approval of a bot PR counts", async () => {
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: "fix-c" }), "claude[bot]", "1+claude[bot]@users.noreply.github.com");
    approve(pull, "alice");
    const { status } = await run(pull);
    expect(status?.state).toBe("success");
  });
});

describe("the requester comes from Bosun's record of the item, not the PR's link", () => {
  it("the item's author approving does not count when the PR body links another issue", async () => {
    const five = fake.addIssue(REPO, { title: "asked by carol", user: "carol" });
    const seven = fake.addIssue(REPO, { title: "asked by dave", user: "dave" });
    await writeClaim(bosun, WHERE, five.number, grant(String(five.number)));
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: `bosun/${five.number}-fix`, body: `Closes #${seven.number}` }), "claude[bot]", "1+claude[bot]@users.noreply.github.com");
    approve(pull, "carol");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "carol")).toContain("requested the work");
  });

  it("whoever added the approval label to the item does not count", async () => {
    const five = fake.addIssue(REPO, { title: "opened by alice", user: "alice" });
    await tokens["bob"]?.issues.addLabels({ ...WHERE, issue_number: five.number, labels: ["bosun:ready"] });
    await writeClaim(bosun, WHERE, five.number, grant(String(five.number)));
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: `bosun/${five.number}-fix` }), "claude[bot]", "1+claude[bot]@users.noreply.github.com");
    approve(pull, "bob");
    let out = await run(pull);
    expect(out.status?.state).toBe("pending");
    expect(why(out.verdict, "bob")).toContain("approved the work");
    approve(pull, "dave");
    out = await run(pull);
    expect(out.status?.state).toBe("success");
    expect(out.verdict.counted).toEqual(["dave"]);
  });

  it("a PR that links more issues than are read leaves an error, not a count that may miss the requester", async () => {
    const links = Array.from({ length: 12 }, () => fake.addIssue(REPO, { user: "dave" }).number);
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: "copilot/fix", body: links.map((n) => `Closes #${n}`).join("\n") }), "claude[bot]", "1+claude[bot]@users.noreply.github.com");
    approve(pull, "alice");
    const { status } = await run(pull);
    expect(status?.state).toBe("error");
    expect(status?.description).toContain("12 issues");
  });

  it("an item named by the branch alone (no claim record yet) still excludes its author", async () => {
    const five = fake.addIssue(REPO, { title: "asked by carol", user: "carol" });
    const pull = authoredBy(fake.addPull(REPO, { user: "claude[bot]", head: `bosun/${five.number}-fix` }), "claude[bot]", "1+claude[bot]@users.noreply.github.com");
    approve(pull, "carol");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "carol")).toContain("requested the work");
  });
});
