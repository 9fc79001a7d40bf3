import { afterEach, beforeEach, describe, expect, it } from "vitest";
import separationMode from "../../../src/action/modes/separation.js";
import type { SeparationVerdict } from "../../../src/core/separation/separation-verdict.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullRecord, ReviewRecord } from "../../fake-github/state.js";
import { memoryActionIo } from "./memory-action-io.js";

const REPO = "acme/app";
const TOKEN = "ghs_separationtoken0000000000000000000";
const AGENT = "copilot-swe-agent[bot]";
let fake: FakeGitHub;
let at = 1000;

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  for (const login of ["alice", "bob", "carol", "dave"]) fake.setPermission(REPO, login, "write");
  fake.setPermission(REPO, "reader", "read");
});
afterEach(async () => fake.close());

/** An agent's PR whose commits the agent authored; options tweak the commit or add a co-author. */
function agentPull(options: { commitCount?: number; coAuthor?: string; head?: string } = {}): PullRecord {
  const pull = fake.addPull(REPO, { user: AGENT, commitCount: options.commitCount ?? 1, ...(options.head === undefined ? {} : { head: options.head }) });
  const repo = fake.repo(REPO);
  for (const sha of pull.commits) {
    const c = repo.commits.get(sha);
    if (c === undefined) continue;
    c.author = { ...c.author, name: "Copilot", email: "198982749+Copilot@users.noreply.github.com" };
    if (options.coAuthor !== undefined) c.message += `\n\nCo-authored-by: ${options.coAuthor}`;
  }
  return pull;
}

function review(pull: PullRecord, user: string, state: ReviewRecord["state"], commitId = pull.headSha): void {
  const id = 50_000 + at;
  fake.repo(REPO).reviews.set(id, { id, pullNumber: pull.number, user, body: "", state, commitId, submittedAt: at++ });
}

function comment(pull: PullRecord, user: string, body: string): void {
  const id = 60_000 + at;
  fake.repo(REPO).comments.set(id, { id, issueNumber: pull.number, body, user, createdAt: at, updatedAt: at++ });
}

async function run(pull: PullRecord, eventName = "pull_request_review") {
  const io = memoryActionIo({ eventName, payload: { pull_request: { number: pull.number } }, inputs: { "github-token": TOKEN, "agent-identities": "Copilot, copilot-swe-agent" }, env: { GITHUB_API_URL: fake.url } });
  await separationMode.run(io.io);
  const status = fake.repo(REPO).statuses.filter((s) => s.context === "bosun/separation" && s.sha === pull.headSha).at(-1);
  return { ...io, status, verdict: JSON.parse(io.outputs["report"] ?? "null") as SeparationVerdict };
}

const why = (v: SeparationVerdict, login: string) => v.notCounted.find((n) => n.login === login)?.why ?? "";

describe("the separation mode against the fake GitHub", () => {
  it("posts success for an independent writer's approval of the current head", async () => {
    const pull = agentPull();
    review(pull, "alice", "APPROVED");
    const { status, outputs } = await run(pull);
    expect(status?.state).toBe("success");
    expect(status?.description).toContain("alice");
    expect(outputs["verdict"]).toBe("pass");
  });

  it("does not count the PR author approving (a human author, agent commits)", async () => {
    const pull = fake.addPull(REPO, { user: "alice" });
    fake.repo(REPO).commits.get(pull.commits[0] ?? "")!.author.email = "198982749+Copilot@users.noreply.github.com";
    review(pull, "alice", "APPROVED");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "alice")).toContain("author");
  });

  it("does not count an approval of an older head", async () => {
    const pull = agentPull();
    review(pull, "alice", "APPROVED", "0".repeat(40));
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "alice")).toContain("older head");
  });

  it("does not count a co-author approving", async () => {
    const pull = agentPull({ coAuthor: "Bob B <bob@users.noreply.github.com>" });
    review(pull, "bob", "APPROVED");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "bob")).toContain("co-authored");
  });

  it("lets a later 'changes requested' cancel an approval", async () => {
    const pull = agentPull();
    review(pull, "alice", "APPROVED");
    review(pull, "alice", "CHANGES_REQUESTED");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "alice")).toContain("requested changes");
  });

  it("does not count the agent's own approving review", async () => {
    const pull = fake.addPull(REPO, { user: "dave" });
    review(pull, "copilot-swe-agent[bot]", "APPROVED");
    const { status, verdict } = await run(pull);
    expect(status?.state).toBe("pending");
    expect(why(verdict, "copilot-swe-agent[bot]")).toContain("agent identity");
  });

  it("counts /approve <sha> of the head, but not a stale or malformed one, nor a reader's", async () => {
    const pull = agentPull();
    comment(pull, "bob", `/approve ${"0".repeat(40)}`);
    comment(pull, "carol", "/approve looks good");
    comment(pull, "reader", `/approve ${pull.headSha}`);
    let out = await run(pull, "issue_comment");
    expect(out.status?.state).toBe("pending");
    expect(why(out.verdict, "bob")).toContain("older head");
    expect(why(out.verdict, "carol")).toContain("malformed");
    expect(why(out.verdict, "reader")).toContain("write");
    comment(pull, "alice", `/approve ${pull.headSha}`);
    out = await run(pull, "issue_comment");
    expect(out.status?.state).toBe("success");
  });

  it("makes an /approve stale when the head moves", async () => {
    const pull = agentPull();
    comment(pull, "alice", `/approve ${pull.headSha}`);
    const pushed = fake.commit(REPO, pull.headRef, "more", { "x.txt": "1" });
    pull.headSha = pushed.sha;
    pull.commits.push(pushed.sha);
    const { status } = await run(pull);
    expect(status?.state).toBe("pending");
  });

  it("refuses success while a sibling PR has the same head SHA", async () => {
    const pull = agentPull({ head: "shared" });
    fake.addPull(REPO, { user: AGENT, head: "shared", base: "main", commitCount: 0 });
    review(pull, "alice", "APPROVED");
    const { status } = await run(pull);
    expect(status?.state).toBe("failure");
    expect(status?.description).toContain("same head SHA");
  });

  it("fails closed on a 251-commit PR (the list stops at 250)", async () => {
    const pull = agentPull({ commitCount: 251 });
    review(pull, "alice", "APPROVED");
    const { status } = await run(pull);
    expect(status?.state).toBe("failure");
    expect(status?.description).toContain("250");
  });

  it("leaves an error status when a permission cannot be read", async () => {
    const pull = agentPull();
    review(pull, "alice", "APPROVED");
    fake.faults.add({ kind: "error", status: 502, route: "GET /repos/{owner}/{repo}/collaborators/{username}/permission" });
    const { status, failures } = await run(pull);
    expect(status?.state).toBe("error");
    expect(failures[0]).toContain("alice");
  });

  it("leaves an error status when the reviews cannot be read", async () => {
    const pull = agentPull();
    review(pull, "alice", "APPROVED");
    fake.faults.add({ kind: "error", status: 503, route: "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews" });
    const { status } = await run(pull);
    expect(status?.state).toBe("error");
    expect(status?.description).toContain("could not read");
  });
});
