import { describe, expect, it } from "vitest";
import { parseApproveCommand } from "../../../src/core/separation/parse-approve-command.js";
import { separationCandidates } from "../../../src/core/separation/separation-candidates.js";
import type { SeparationFacts } from "../../../src/core/separation/separation-facts.js";
import { separationVerdict } from "../../../src/core/separation/separation-verdict.js";

const HEAD = "a".repeat(40);
const OLD = "b".repeat(40);
const policy = { agents: ["copilot-swe-agent[bot]", "agent@bots.example"], excluded: ["manager"], required: 1 };
const base: SeparationFacts = {
  headSha: HEAD,
  author: "Copilot-SWE-Agent",
  requesters: [{ login: "asker", why: "requested the work (opened #5)" }],
  commits: [{ sha: HEAD, author: { login: "copilot-swe-agent[bot]", email: "agent@bots.example", name: "Copilot" }, committer: { login: "web-flow", email: "noreply@github.com", name: "GitHub" }, message: "fix\n\nCo-authored-by: Carol <12345+carol@users.noreply.github.com>" }],
  pushes: { branch: "copilot/fix-1", activities: [{ type: "branch_creation", actor: "copilot-swe-agent[bot]", after: HEAD, at: "2026-01-01T00:00:00Z" }], complete: true },
  commitsComplete: true,
  reviews: [],
  comments: [],
  dispatchedByBosun: false,
  siblings: [],
};
const approve = (login: string, at: string, commitId = HEAD, association = "MEMBER") => ({ login, state: "APPROVED" as const, commitId, at, association });
const decide = (facts: Partial<SeparationFacts>, perms: Record<string, "write" | "read" | "error"> = {}) => {
  const analysis = separationCandidates({ ...base, ...facts }, policy);
  return separationVerdict(analysis, new Map(Object.entries(perms)), policy.required);
};
const why = (v: ReturnType<typeof decide>, login: string) => v.notCounted.find((n) => n.login === login)?.why;

describe("separation rules", () => {
  it("counts an approval of the current head by a writer who did not write the change", () => {
    const v = decide({ reviews: [approve("alice", "2026-01-01T00:00:00Z")] }, { alice: "write" });
    expect(v.state).toBe("success");
    expect(v.counted).toEqual(["alice"]);
    expect(v.description).toContain("alice");
  });

  it.each([
    ["the PR author (any spelling)", { author: "Alice", dispatchedByBosun: true }, approve("alice", "t"), "pull request's author"],
    ["an approval of an older head", {}, approve("alice", "t", OLD), "older head"],
    ["a co-author (noreply email)", {}, approve("carol", "t"), "co-authored"],
    ["the agent's own approval (plain spelling of a [bot] login)", { author: "human" }, approve("Copilot-SWE-Agent", "t"), "agent identity"],
    ["the requester", {}, approve("asker", "t"), "requested the work"],
    ["an excluded approver", {}, approve("manager", "t"), "excluded approver"],
    ["an approver without write association", {}, approve("drive-by", "t", HEAD, "CONTRIBUTOR"), "no write access"],
  ])("does not count %s", (_name, facts: Partial<SeparationFacts>, review, reason) => {
    const v = decide({ ...facts, reviews: [review] }, { [review.login]: "write" });
    expect(v.counted).toEqual([]);
    expect(v.state).toBe("pending");
    expect(why(v, review.login)).toContain(reason);
  });

  it("never counts whoever pushed to the head branch, whatever the commits say; an agent's push makes it agent work", () => {
    const pushes = { branch: "feature", complete: true, activities: [{ type: "push", actor: "alice", after: HEAD, at: "2026-01-02T00:00:00Z" }, { type: "force_push", actor: "claude[bot]", after: OLD, at: "2026-01-01T12:00:00Z" }, { type: "branch_creation", actor: "human", after: OLD, at: "2026-01-01T00:00:00Z" }] };
    const v = decide({ author: "human", commits: [{ sha: HEAD, author: { login: "human" }, committer: {}, message: "x" }], pushes, reviews: [approve("Alice", "t"), approve("bob", "t")] }, { alice: "write", bob: "write" });
    expect(v.counted).toEqual(["bob"]);
    expect(why(v, "Alice")).toContain("pushed to the head branch feature");
    expect(separationCandidates({ ...base, author: "human", pushes }, policy).agentWork).toContain("pushed by claude[bot]");
  });

  it.each([
    ["no record was read", undefined, "was not read"],
    ["the record is longer than Bosun reads", { branch: "f", complete: false, activities: [{ type: "branch_creation", actor: "x", after: HEAD, at: "t" }] }, "longer than"],
    ["the record does not reach back to the branch's creation", { branch: "f", complete: true, activities: [{ type: "push", actor: "x", after: HEAD, at: "t" }] }, "creation"],
    ["the record ends before the head (it lags)", { branch: "f", complete: true, activities: [{ type: "branch_creation", actor: "x", after: OLD, at: "t" }] }, "not at the head"],
    ["a push by an account GitHub no longer names", { branch: "f", complete: true, activities: [{ type: "push", actor: null, after: HEAD, at: "t2" }, { type: "branch_creation", actor: "x", after: OLD, at: "t1" }] }, "no longer names"],
  ])("cannot check (error, never success) when %s", (_name, pushes, why) => {
    const v = decide({ pushes, reviews: [approve("alice", "t")] }, { alice: "write" });
    expect(v.state).toBe("error");
    expect(v.reasons.join(" ")).toContain(why);
  });

  it("lets a later CHANGES_REQUESTED cancel an approval, but not a later COMMENTED", () => {
    const later = (login: string, state: "CHANGES_REQUESTED" | "COMMENTED") => ({ login, state, commitId: HEAD, at: "2026-01-02T00:00:00Z", association: "MEMBER" });
    const v = decide({ reviews: [approve("alice", "2026-01-01T00:00:00Z"), approve("bob", "2026-01-01T00:00:00Z"), later("alice", "CHANGES_REQUESTED"), later("bob", "COMMENTED")] }, { alice: "write", bob: "write" });
    expect(v.counted).toEqual(["bob"]);
    expect(why(v, "alice")).toContain("requested changes");
  });

  it("reads /approve <sha>: the head's full SHA counts; a prefix (even of the head), a stale or a malformed one does not", () => {
    const c = (login: string, body: string) => ({ login, body, at: "2026-01-01T00:00:00Z", association: "MEMBER" });
    const v = decide({ comments: [c("alice", `\n/approve ${HEAD}\nthanks`), c("bob", `/approve ${OLD}`), c("dan", "/approve please"), c("erin", `/approve ${HEAD.slice(0, 12)}`), c("fay", `/approve ${HEAD.slice(0, 39)}`)] }, { alice: "write", bob: "write", erin: "write", fay: "write" });
    expect(v.counted).toEqual(["alice"]);
    expect(why(v, "bob")).toContain("older head");
    expect(why(v, "dan")).toContain("malformed");
    expect(why(v, "erin")).toContain("full 40-hex SHA");
    expect(why(v, "fay")).toContain("malformed");
  });

  it("fails closed when the commit list is incomplete, a sibling PR shares the head, or a permission cannot be read", () => {
    expect(decide({ commitsComplete: false, reviews: [approve("alice", "t")] }, { alice: "write" }).state).toBe("failure");
    expect(decide({ siblings: [7], reviews: [approve("alice", "t")] }, { alice: "write" }).description).toContain("#7");
    expect(decide({ reviews: [approve("alice", "t")] }, { alice: "error" }).state).toBe("error");
    expect(decide({ reviews: [approve("alice", "t")] }, {}).state).toBe("error");
    expect(decide({ reviews: [approve("alice", "t")] }, { alice: "read" }).state).toBe("pending");
  });

  it("treats work as an agent's when an agent email committed it, even if a human opened the PR", () => {
    const v = decide({ author: "human", commits: [{ sha: HEAD, author: { email: "AGENT@bots.example" }, committer: {}, message: "x" }] });
    expect(v.state).toBe("pending");
  });

  it("work nothing marks as an agent's still needs approvals (an agent may use a user account), unless its author is a listed human", () => {
    const facts = { author: "human", commits: [{ sha: HEAD, author: { login: "human" }, committer: {}, message: "x" }], pushes: { branch: "feature", complete: true, activities: [{ type: "branch_creation", actor: "human", after: HEAD, at: "t" }] } };
    expect(decide(facts).state).toBe("pending");
    expect(separationVerdict(separationCandidates({ ...base, ...facts }, { ...policy, humans: ["human"] }), new Map(), policy.required).state).toBe("success");
    // The list names people, never agents: a bot on it is still an agent.
    expect(separationVerdict(separationCandidates({ ...base, ...facts, author: "claude[bot]" }, { ...policy, humans: ["claude[bot]"] }), new Map(), policy.required).state).toBe("pending");
  });

  it.each([
    ["/approve 0123456789abcdef0123456789abcdef01234567", { kind: "approve", sha: "0123456789abcdef0123456789abcdef01234567" }],
    ["  \n/approve 0123456789ABCDEF0123456789ABCDEF01234567", { kind: "approve", sha: "0123456789abcdef0123456789abcdef01234567" }],
    ["/approve 0123456789ab", { kind: "malformed", line: "/approve 0123456789ab" }],
    ["/approve 0123456789abcdef0123456789abcdef012345678", { kind: "malformed", line: "/approve 0123456789abcdef0123456789abcdef012345678" }],
    ["/approve 0123456789abcdef0123456789abcdef01234567 extra", { kind: "malformed", line: "/approve 0123456789abcdef0123456789abcdef01234567 extra" }],
    ["LGTM\n/approve 0123456789abcdef0123456789abcdef01234567", { kind: "none" }],
  ])("parses %j", (body, expected) => {
    expect(parseApproveCommand(body)).toEqual(expected);
  });
});
